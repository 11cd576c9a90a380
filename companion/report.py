"""The battle report: built from the final state and the event log (pure).

What players show their friends: the result, each unit's main tracker over the game (as a small
chart drawn server-side), the round each unit was lost, luck per seat against expectation, and per
side the totals the log knows (damage dealt, rolls and draws made, hits against expected).
"""
from __future__ import annotations

from collections import defaultdict

from companion import actions

CHART_KINDS = ("counter", "boxes", "arcs")
MAX_POINTS = 120  # a chart keeps at most this many points (a long game is sampled, last point kept)


def luck_of(event: dict) -> tuple[float, float, str] | None:
    """(expected, actual, what) for a roll whose odds were known before it was made."""
    p = event["payload"]
    if "luck" in p:
        return p["luck"]["expected"], p["luck"]["actual"], p["luck"].get("what", "successes")
    if event["type"] == "pool":
        r = p["result"]
        return p["odds"]["mean"], r["unsaved"] if r["save"] else r["successes"], "successes"
    return None


def main_tracker(unit: dict) -> str | None:
    """The tracker a unit's chart follows: its first counter or box track (HP, hull ...)."""
    for tid, tracker in unit["trackers"].items():
        if tracker.get("kind") in CHART_KINDS:
            return tid
    return None


def level(tracker: dict) -> int:
    """What is left on a tracker: a counter's value, the unmarked boxes of a track or of all arcs."""
    if tracker["kind"] == "counter":
        return tracker["value"]
    if tracker["kind"] == "boxes":
        return len(tracker["marked"]) - sum(1 for m in tracker["marked"] if m)
    return sum(len(a["marked"]) - sum(1 for m in a["marked"] if m) for a in tracker["arcs"])


def _ceiling(tracker: dict) -> int:
    if tracker["kind"] == "counter":
        return tracker.get("max") if tracker.get("max") is not None else tracker["value"]
    if tracker["kind"] == "boxes":
        return len(tracker["marked"])
    return sum(len(a["marked"]) for a in tracker["arcs"])


def _timeline(events: list[dict]) -> dict:
    """Replay the actions in force: each unit's main tracker after each event, when it was lost,
    and the damage each side's seats dealt (a fall in another side's unit's main tracker)."""
    state: dict = {}
    series: dict[str, list[tuple[int, int]]] = defaultdict(list)
    lost: dict[str, int] = {}
    dealt: dict[str, int] = defaultdict(int)
    round_starts: list[int] = []
    seen = 0
    for ev, payload in actions.in_effect(events):  # a move taken back is not there; a correction is
        before = {uid: (level(u["trackers"][t]) if (t := main_tracker(u)) else None)
                  for uid, u in state.get("units", {}).items()}
        was_round = state.get("round")
        actions.apply(state, payload)
        seen += 1
        if was_round is not None and state["round"] != was_round:
            round_starts.append(seen)
        for uid, unit in state["units"].items():
            tid = main_tracker(unit)
            if tid is None:
                continue
            now = level(unit["trackers"][tid])
            if not series[uid] or series[uid][-1][1] != now:
                series[uid].append((seen, now))
            was = before.get(uid)
            if was is not None and now < was and ev.get("side") and ev["side"] != unit["side"]:
                dealt[ev["side"]] += was - now
            if unit["removed"] and uid not in lost:
                lost[uid] = state["round"]
            elif not unit["removed"]:
                lost.pop(uid, None)
    return {"state": state, "series": series, "lost": lost, "dealt": dealt, "length": seen,
            "round_starts": round_starts}


def _sample(points: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    if len(points) > MAX_POINTS:
        step = len(points) / MAX_POINTS
        points = [points[int(i * step)] for i in range(MAX_POINTS)] + [points[-1]]
    if points and points[-1][0] < length:
        points = points + [(length, points[-1][1])]  # the line runs to the end of the game
    return points


def chart(points: list[tuple[int, int]], top: int, length: int, width: int = 300, height: int = 48) -> str:
    """An SVG polyline's points: a step chart of a tracker over the game (x = event, y = level)."""
    if not points:
        return ""
    top = max(top, max(v for _, v in points), 1)
    span = max(length, 1)
    out, last = [], None
    for x, v in _sample(points, length):
        px, py = round(x / span * width, 1), round(height - v / top * (height - 4) - 2, 1)
        if last is not None:
            out.append(f"{px},{last}")  # a step: damage happens at once
        out.append(f"{px},{py}")
        last = py
    return " ".join(out)


def build(state: dict, events: list[dict]) -> dict:
    """Result, units standing and lost per side with their charts, each seat's luck, per-side totals."""
    replay = _timeline(events)
    sides = {s: {"standing": [], "lost": [], "units": [], "dealt": 0, "rolls": 0, "draws": 0,
                 "expected": 0.0, "actual": 0.0} for s in state["sides"]}
    for uid in state["unit_order"]:
        unit = state["units"][uid]
        side = sides.setdefault(unit["side"], {"standing": [], "lost": [], "units": [], "dealt": 0, "rolls": 0,
                                               "draws": 0, "expected": 0.0, "actual": 0.0})
        side["lost" if unit["removed"] else "standing"].append(unit["name"])
        tid = main_tracker(unit)
        entry = {"name": unit["name"], "removed": unit["removed"], "lost_round": replay["lost"].get(uid)}
        if tid:
            tracker = unit["trackers"][tid]
            entry.update(tracker=tracker.get("label", tid), now=level(tracker), top=_ceiling(tracker),
                         points=chart(replay["series"].get(uid, []), _ceiling(tracker), replay["length"]))
        side["units"].append(entry)
    luck = defaultdict(lambda: {"rolls": 0, "expected": 0.0, "actual": 0.0})
    counts = defaultdict(int)
    for ev, _ in actions.in_effect(events):
        counts[ev["seat"]] += 1
        side = sides.get(ev.get("side") or "")
        if side is not None and ev.get("chance"):
            side["draws" if "draw" in ev["type"] else "rolls"] += 1
        found = luck_of(ev)
        if found:
            entry = luck[ev["seat"] or "?"]
            entry["rolls"] += 1
            entry["expected"] += found[0]
            entry["actual"] += found[1]
            if side is not None:
                side["expected"] += found[0]
                side["actual"] += found[1]
    for name, dealt in replay["dealt"].items():
        if name in sides:
            sides[name]["dealt"] = dealt
    withdrawn = sum(1 for ev in events if ev["withdrawn"] and not ev.get("taken_back"))
    corrections = [{"seq": ev["seq"], "seat": ev["seat"], "label": ev["label"]} for ev in events
                   if ev["type"] == actions.TAKE_BACK and not ev["withdrawn"]]
    biggest = max([abs(v["actual"] - v["expected"]) for v in luck.values()] + [v["expected"] for v in luck.values()]
                  + [v["actual"] for v in luck.values()] + [1])
    return {"rounds": state["round"], "phase": state["phases"][state["phase"]], "sides": sides,
            "result": state.get("result", ""),
            "round_ticks": [round(x / max(replay["length"], 1) * 300, 1) for x in replay["round_starts"]],
            "luck": {seat: {**v, "difference": v["actual"] - v["expected"],
                            "bar_expected": round(v["expected"] / biggest * 100, 1),
                            "bar_actual": round(v["actual"] / biggest * 100, 1)} for seat, v in luck.items()},
            "actions": dict(counts), "withdrawn": withdrawn, "corrections": corrections, "finished": state["finished"]}
