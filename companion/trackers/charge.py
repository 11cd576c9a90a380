"""Charge bar: red boxes then yellow boxes; the weapon is ready when every box is filled."""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _


def create(spec: dict, stats: dict) -> dict:
    return {"red": [False] * spec["red"], "yellow": [False] * spec.get("yellow", 0)}


def ready(tracker: dict) -> bool:
    return all(tracker["red"]) and all(tracker["yellow"])


def charge(tracker: dict, args: dict, clock) -> str:
    colour = args.get("colour", "red")
    if colour not in ("red", "yellow"):
        raise RuleError(_("colour must be red or yellow."), "colour")
    boxes = tracker[colour]
    if all(boxes):
        if colour == "red":
            raise RuleError(_("Every red box of %(tracker)s is already charged.", tracker=tracker["label"]), "colour")
        raise RuleError(_("Every yellow box of %(tracker)s is already charged.", tracker=tracker["label"]), "colour")
    boxes[boxes.index(False)] = True
    if colour == "red":
        if ready(tracker):
            return Said("%(tracker)s red charged - READY", tracker=tracker["label"])
        return Said("%(tracker)s red charged", tracker=tracker["label"])
    if ready(tracker):
        return Said("%(tracker)s yellow charged - READY", tracker=tracker["label"])
    return Said("%(tracker)s yellow charged", tracker=tracker["label"])


def fire(tracker: dict, args: dict, clock) -> str:
    if not ready(tracker):
        raise RuleError(_("%(tracker)s fires only when every red and yellow box is charged.", tracker=tracker["label"]),
                        "fire")
    tracker["red"] = [False] * len(tracker["red"])
    tracker["yellow"] = [False] * len(tracker["yellow"])
    return Said("%(tracker)s fired (bar reset)", tracker=tracker["label"])


def discharge(tracker: dict, args: dict, clock) -> str:
    colour = args.get("colour", "red")
    if colour not in ("red", "yellow"):
        raise RuleError(_("colour must be red or yellow."), "colour")
    boxes = tracker[colour]
    if not any(boxes):
        if colour == "red":
            raise RuleError(_("No red box of %(tracker)s is charged.", tracker=tracker["label"]), "colour")
        raise RuleError(_("No yellow box of %(tracker)s is charged.", tracker=tracker["label"]), "colour")
    boxes[len(boxes) - 1 - boxes[::-1].index(True)] = False
    if colour == "red":
        return Said("%(tracker)s red box emptied", tracker=tracker["label"])
    return Said("%(tracker)s yellow box emptied", tracker=tracker["label"])


OPS = {"charge": charge, "fire": fire, "discharge": discharge}
