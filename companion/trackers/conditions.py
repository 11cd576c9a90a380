"""Conditions: named tags with an optional count and an optional last round.

A content spec may relate tags: ``ends = {"Set Ablaze" = ["At Anchor"]}`` takes At Anchor off when
Set Ablaze goes on; ``blocked_by = {"At Anchor" = ["Set Ablaze"]}`` refuses At Anchor while Set
Ablaze is on.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _, joined
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
        raise RuleError(_("%(condition)s is already on; change its count instead.", condition=name), "name")
    blocker = next((b for b in tracker.get("blocked_by", {}).get(name, []) if b in tracker["active"]), None)
    if blocker:
        raise RuleError(_("%(condition)s cannot go on while %(blocker)s is on.", condition=name, blocker=blocker), "name")
    if len(tracker["active"]) >= 30:
        raise RuleError(_("At most 30 conditions at once."), "name")
    count = need_int(args, "count", 1, 999) if args.get("count") not in (None, "") else None
    rounds = need_int(args, "rounds", 1, 99) if args.get("rounds") not in (None, "") else None
    # "for 2 rounds" from round 3 means it is on in rounds 3 and 4 and drops when round 5 begins
    until = clock.round + rounds - 1 if rounds else None
    ended = [e for e in tracker.get("ends", {}).get(name, []) if e in tracker["active"]]
    for gone in ended:
        del tracker["active"][gone]
    tracker["active"][name] = {"count": count, "until": until}
    if ended:
        text = Said("%(condition)s on (%(ended)s off)", condition=name, ended=", ".join(ended))
    else:
        text = Said("%(condition)s on", condition=name)
    if count is not None:
        text = joined(" ", (text, f"({count})"))
    if until is not None:
        text = Said("%(condition)s until the end of round %(round)s", condition=text, round=until)
    return text


def remove(tracker: dict, args: dict, clock) -> str:
    name = need_text(args, "name", 40)
    if name not in tracker["active"]:
        raise RuleError(_("%(condition)s is not on.", condition=name), "name")
    del tracker["active"][name]
    return Said("%(condition)s off", condition=name)


def adjust(tracker: dict, args: dict, clock) -> str:
    name = need_text(args, "name", 40)
    by = need_int(args, "by", -999, 999)
    entry = tracker["active"].get(name)
    if entry is None:
        raise RuleError(_("%(condition)s is not on.", condition=name), "name")
    before = entry["count"] or 0
    after = before + by
    if not 0 <= after <= 999:
        raise RuleError(_("%(condition)s count must stay between 0 and 999.", condition=name), "by")
    if after == 0:
        del tracker["active"][name]
        return Said("%(condition)s %(by)+d (gone)", condition=name, by=by)
    entry["count"] = after
    return f"{name} {by:+d} ({before} → {after})"


def reminders(tracker: dict, clock) -> list[str]:
    return [Said("%(condition)s ends after this round", condition=name) for name, c in tracker["active"].items()
            if c["until"] == clock.round]


def on_new_round(tracker: dict, clock) -> None:
    tracker["active"] = {n: c for n, c in tracker["active"].items()
                         if c["until"] is None or c["until"] >= clock.round}


OPS = {"add": add, "remove": remove, "adjust": adjust}
