"""Cooldown: used now, ready again ``every`` rounds later (or phases, ``per = "phase"``)."""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _


def create(spec: dict, stats: dict) -> dict:
    return {"every": spec["every"], "per": spec.get("per", "round"), "ready_at": None}


def now(tracker: dict, clock) -> int:
    return clock.tick if tracker["per"] == "phase" else clock.round


def is_ready(tracker: dict, clock) -> bool:
    return tracker["ready_at"] is None or now(tracker, clock) >= tracker["ready_at"]


def use(tracker: dict, args: dict, clock) -> str:
    if not is_ready(tracker, clock):
        at = _shown(tracker, tracker["ready_at"])
        if tracker["per"] == "phase":
            raise RuleError(_("%(tracker)s is cooling down: ready again at phase %(at)s.", tracker=tracker["label"], at=at),
                            "use")
        raise RuleError(_("%(tracker)s is cooling down: ready again at round %(at)s.", tracker=tracker["label"], at=at), "use")
    tracker["ready_at"] = now(tracker, clock) + tracker["every"]
    at = _shown(tracker, tracker["ready_at"])
    if tracker["per"] == "phase":
        return Said("%(tracker)s used; ready again at phase %(at)s", tracker=tracker["label"], at=at)
    return Said("%(tracker)s used; ready again at round %(at)s", tracker=tracker["label"], at=at)


def reset(tracker: dict, args: dict, clock) -> str:
    if is_ready(tracker, clock):
        raise RuleError(_("%(tracker)s is already ready.", tracker=tracker["label"]), "reset")
    tracker["ready_at"] = None
    return Said("%(tracker)s made ready", tracker=tracker["label"])


def _shown(tracker: dict, value: int) -> int:
    # ticks count from 0 internally; players count phases from 1
    return value + 1 if tracker["per"] == "phase" else value


def reminders(tracker: dict, clock) -> list[str]:
    if tracker["ready_at"] is not None and now(tracker, clock) == tracker["ready_at"]:
        return [Said("%(tracker)s is ready again", tracker=tracker["label"])]
    return []


OPS = {"use": use, "reset": reset}
