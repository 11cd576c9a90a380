"""Counter: a value with a minimum and maximum (HP, Crew, Speed, cards in hand)."""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _
from companion.trackers import need_int

LIMIT = 100_000  # input limit only: no game needs more


def create(spec: dict, stats: dict) -> dict:
    lo = spec.get("min", 0)
    hi = stats[spec["max_stat"]] if "max_stat" in spec else spec.get("max", LIMIT)
    start = stats[spec["start_stat"]] if "start_stat" in spec else spec.get("start", lo)
    if not lo <= start <= hi:
        raise RuleError(_("%(tracker)s must start between %(lo)s and %(hi)s; got %(start)s.",
                          tracker=spec.get("label", spec["id"]), lo=lo, hi=hi, start=start), spec["id"])
    return {"value": start, "min": lo, "max": hi}


def adjust(tracker: dict, args: dict, clock) -> str:
    by = need_int(args, "by", -LIMIT, LIMIT)
    if by == 0:
        raise RuleError(_("by must not be 0."), "by")
    if args.get("amount") is not None:
        # an amount typed beside the buttons (a 10-damage hit is one tap, not ten): that many, in
        # the direction of the button's by
        by = need_int(args, "amount", 1, LIMIT) * (1 if by > 0 else -1)
    before = tracker["value"]
    after = min(tracker["max"], max(tracker["min"], before + by))
    if after == before:
        if by > 0:
            raise RuleError(_("%(tracker)s is already at its maximum (%(value)s).", tracker=tracker["label"], value=before),
                            "by")
        raise RuleError(_("%(tracker)s is already at its minimum (%(value)s).", tracker=tracker["label"], value=before), "by")
    tracker["value"] = after
    if after != before + by:
        return Said("%(tracker)s %(by)+d (%(before)s → %(after)s, capped at %(after)s)", tracker=tracker["label"], by=by,
                    before=before, after=after)
    return f"{tracker['label']} {by:+d} ({before} → {after})"  # (no word to translate)


OPS = {"adjust": adjust}
