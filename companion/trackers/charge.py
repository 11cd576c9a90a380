"""Charge bar: red boxes then yellow boxes; the weapon is ready when every box is filled."""
from __future__ import annotations

from companion.errors import RuleError


def create(spec: dict, stats: dict) -> dict:
    return {"red": [False] * spec["red"], "yellow": [False] * spec.get("yellow", 0)}


def ready(tracker: dict) -> bool:
    return all(tracker["red"]) and all(tracker["yellow"])


def charge(tracker: dict, args: dict, clock) -> str:
    colour = args.get("colour", "red")
    if colour not in ("red", "yellow"):
        raise RuleError("colour must be red or yellow.", "colour")
    boxes = tracker[colour]
    if all(boxes):
        raise RuleError(f"Every {colour} box of {tracker['label']} is already charged.", "colour")
    boxes[boxes.index(False)] = True
    return f"{tracker['label']} {colour} charged" + (" - READY" if ready(tracker) else "")


def fire(tracker: dict, args: dict, clock) -> str:
    if not ready(tracker):
        raise RuleError(f"{tracker['label']} fires only when every red and yellow box is charged.", "fire")
    tracker["red"] = [False] * len(tracker["red"])
    tracker["yellow"] = [False] * len(tracker["yellow"])
    return f"{tracker['label']} fired (bar reset)"


def discharge(tracker: dict, args: dict, clock) -> str:
    colour = args.get("colour", "red")
    if colour not in ("red", "yellow"):
        raise RuleError("colour must be red or yellow.", "colour")
    boxes = tracker[colour]
    if not any(boxes):
        raise RuleError(f"No {colour} box of {tracker['label']} is charged.", "colour")
    boxes[len(boxes) - 1 - boxes[::-1].index(True)] = False
    return f"{tracker['label']} {colour} box emptied"


OPS = {"charge": charge, "fire": fire, "discharge": discharge}
