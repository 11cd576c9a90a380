"""The battle report: built from the final state and the event log (pure)."""
from __future__ import annotations

from collections import defaultdict


def luck_of(event: dict) -> tuple[float, float, str] | None:
    """(expected, actual, what) for a roll whose odds were known before it was made."""
    p = event["payload"]
    if "luck" in p:
        return p["luck"]["expected"], p["luck"]["actual"], p["luck"].get("what", "successes")
    if event["type"] == "pool":
        r = p["result"]
        return p["odds"]["mean"], r["unsaved"] if r["save"] else r["successes"], "successes"
    return None


def build(state: dict, events: list[dict]) -> dict:
    """Rounds, units standing and lost per side, and each seat's luck (actual vs expected)."""
    sides = {s: {"standing": [], "lost": []} for s in state["sides"]}
    for uid in state["unit_order"]:
        unit = state["units"][uid]
        sides.setdefault(unit["side"], {"standing": [], "lost": []})
        sides[unit["side"]]["lost" if unit["removed"] else "standing"].append(unit["name"])
    luck = defaultdict(lambda: {"rolls": 0, "expected": 0.0, "actual": 0.0})
    counts = defaultdict(int)
    for ev in events:
        if ev["withdrawn"] or ev["type"] in ("undo", "redo"):
            continue
        counts[ev["seat"]] += 1
        found = luck_of(ev)
        if found:
            entry = luck[ev["seat"] or "?"]
            entry["rolls"] += 1
            entry["expected"] += found[0]
            entry["actual"] += found[1]
    withdrawn = sum(1 for ev in events if ev["withdrawn"])
    return {"rounds": state["round"], "phase": state["phases"][state["phase"]], "sides": sides,
            "luck": {seat: {**v, "difference": v["actual"] - v["expected"]} for seat, v in luck.items()},
            "actions": dict(counts), "withdrawn": withdrawn, "finished": state["finished"]}
