"""Gauge: a position on a ring (the wind gauge 11..66) or a ladder (arrival timer 8..0)."""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _
from companion.trackers import need_int


def create(spec: dict, stats: dict) -> dict:
    positions = list(spec["positions"]) if "positions" in spec else list(
        range(spec.get("min", 0), spec.get("max", 10) + 1))
    start = spec.get("start", positions[0])
    if start not in positions:
        raise RuleError(_("%(tracker)s starts at %(start)s, which is not one of its positions.",
                          tracker=spec.get("label", spec["id"]), start=start), "start")
    return {"positions": positions, "index": positions.index(start), "ring": spec.get("ring", False)}


def value(tracker: dict):
    return tracker["positions"][tracker["index"]]


def move(tracker: dict, args: dict, clock) -> str:
    size = len(tracker["positions"])
    by = need_int(args, "by", -size, size)
    if by == 0:
        raise RuleError(_("by must not be 0."), "by")
    before = value(tracker)
    if tracker["ring"]:
        tracker["index"] = (tracker["index"] + by) % size
    else:
        target = tracker["index"] + by
        if not 0 <= target < size:
            raise RuleError(_("%(tracker)s cannot move %(by)+d from %(before)s: it runs from %(first)s to %(last)s.",
                              tracker=tracker["label"], by=by, before=before, first=tracker["positions"][0],
                              last=tracker["positions"][-1]), "by")
        tracker["index"] = target
    return f"{tracker['label']} {by:+d} ({before} → {value(tracker)})"  # (no word to translate)


def set_to(tracker: dict, args: dict, clock) -> str:
    target = args.get("to")
    if isinstance(target, str) and target.strip().lstrip("-").isdigit():
        target = int(target)
    if target not in tracker["positions"]:
        raise RuleError(_("%(tracker)s has no position %(to)r.", tracker=tracker["label"], to=target), "to")
    before = value(tracker)
    tracker["index"] = tracker["positions"].index(target)
    return Said("%(tracker)s set to %(to)s (was %(before)s)", tracker=tracker["label"], to=target, before=before)


OPS = {"move": move, "set": set_to}
