"""Gauge: a position on a ring (the wind gauge 11..66) or a ladder (arrival timer 8..0)."""
from __future__ import annotations

from companion.errors import RuleError
from companion.trackers import need_int


def create(spec: dict, stats: dict) -> dict:
    positions = list(spec["positions"]) if "positions" in spec else list(
        range(spec.get("min", 0), spec.get("max", 10) + 1))
    start = spec.get("start", positions[0])
    if start not in positions:
        raise RuleError(f"{spec.get('label', spec['id'])} starts at {start}, which is not one of its positions.",
                        "start")
    return {"positions": positions, "index": positions.index(start), "ring": spec.get("ring", False)}


def value(tracker: dict):
    return tracker["positions"][tracker["index"]]


def move(tracker: dict, args: dict, clock) -> str:
    size = len(tracker["positions"])
    by = need_int(args, "by", -size, size)
    if by == 0:
        raise RuleError("by must not be 0.", "by")
    before = value(tracker)
    if tracker["ring"]:
        tracker["index"] = (tracker["index"] + by) % size
    else:
        target = tracker["index"] + by
        if not 0 <= target < size:
            raise RuleError(f"{tracker['label']} cannot move {by:+d} from {before}: it runs from "
                            f"{tracker['positions'][0]} to {tracker['positions'][-1]}.", "by")
        tracker["index"] = target
    return f"{tracker['label']} {by:+d} ({before} → {value(tracker)})"


def set_to(tracker: dict, args: dict, clock) -> str:
    target = args.get("to")
    if isinstance(target, str) and target.strip().lstrip("-").isdigit():
        target = int(target)
    if target not in tracker["positions"]:
        raise RuleError(f"{tracker['label']} has no position {target!r}.", "to")
    before = value(tracker)
    tracker["index"] = tracker["positions"].index(target)
    return f"{tracker['label']} set to {target} (was {before})"


OPS = {"move": move, "set": set_to}
