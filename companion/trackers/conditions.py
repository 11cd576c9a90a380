"""Conditions: named tags with an optional count and an optional last round.

A content spec may relate tags: ``ends = {"Set Ablaze" = ["At Anchor"]}`` takes At Anchor off when
Set Ablaze goes on; ``blocked_by = {"At Anchor" = ["Set Ablaze"]}`` refuses At Anchor while Set
Ablaze is on.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.trackers import need_int, need_text


def create(spec: dict, stats: dict) -> dict:
    made = {"options": list(spec.get("options", [])), "active": {}}
    for rule in ("ends", "blocked_by"):
        if spec.get(rule):
            made[rule] = {name: list(others) for name, others in spec[rule].items()}
    return made


def add(tracker: dict, args: dict, clock) -> str:
    name = need_text(args, "name", 40)
    if name in tracker["active"]:
        raise RuleError(f"{name} is already on; change its count instead.", "name")
    blocker = next((b for b in tracker.get("blocked_by", {}).get(name, []) if b in tracker["active"]), None)
    if blocker:
        raise RuleError(f"{name} cannot go on while {blocker} is on.", "name")
    if len(tracker["active"]) >= 30:
        raise RuleError("At most 30 conditions at once.", "name")
    count = need_int(args, "count", 1, 999) if args.get("count") not in (None, "") else None
    rounds = need_int(args, "rounds", 1, 99) if args.get("rounds") not in (None, "") else None
    # "for 2 rounds" from round 3 means it is on in rounds 3 and 4 and drops when round 5 begins
    until = clock.round + rounds - 1 if rounds else None
    ended = [e for e in tracker.get("ends", {}).get(name, []) if e in tracker["active"]]
    for gone in ended:
        del tracker["active"][gone]
    tracker["active"][name] = {"count": count, "until": until}
    text = f"{name} on" + (f" ({', '.join(ended)} off)" if ended else "")
    if count is not None:
        text += f" ({count})"
    if until is not None:
        text += f" until the end of round {until}"
    return text


def remove(tracker: dict, args: dict, clock) -> str:
    name = need_text(args, "name", 40)
    if name not in tracker["active"]:
        raise RuleError(f"{name} is not on.", "name")
    del tracker["active"][name]
    return f"{name} off"


def adjust(tracker: dict, args: dict, clock) -> str:
    name = need_text(args, "name", 40)
    by = need_int(args, "by", -999, 999)
    entry = tracker["active"].get(name)
    if entry is None:
        raise RuleError(f"{name} is not on.", "name")
    before = entry["count"] or 0
    after = before + by
    if not 0 <= after <= 999:
        raise RuleError(f"{name} count must stay between 0 and 999.", "by")
    if after == 0:
        del tracker["active"][name]
        return f"{name} {by:+d} (gone)"
    entry["count"] = after
    return f"{name} {by:+d} ({before} → {after})"


def reminders(tracker: dict, clock) -> list[str]:
    return [f"{name} ends after this round" for name, c in tracker["active"].items()
            if c["until"] == clock.round]


def on_new_round(tracker: dict, clock) -> None:
    tracker["active"] = {n: c for n, c in tracker["active"].items()
                         if c["until"] is None or c["until"] >= clock.round}


OPS = {"add": add, "remove": remove, "adjust": adjust}
