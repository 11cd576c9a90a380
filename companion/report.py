"""The battle report: built from the final state and the event log (pure).

What players show their friends: the result, each unit's main tracker over the game (as a small
chart drawn server-side), the round each unit was lost, luck per seat against expectation, and per
side the totals the log knows (damage dealt, rolls and draws made, hits against expected).
"""
from __future__ import annotations

import json
from array import array

from companion import actions
from companion.said import N_

CHART_KINDS = ("counter", "boxes", "arcs")
MAX_POINTS = 120  # a chart keeps at most this many points (a long game is sampled, last point kept)


def luck_of(event: dict) -> tuple[float, float, str] | None:
    """(expected, actual, what) for a roll whose odds were known before it was made."""
    p = event["payload"]
    if "luck" in p:
        return p["luck"]["expected"], p["luck"]["actual"], p["luck"].get("what", N_("successes"))
    if event["type"] == "pool":
        r = p["result"]
        return p["odds"]["mean"], r["unsaved"] if r["save"] else r["successes"], N_("successes")
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


def ceiling(tracker: dict) -> int:
    """What a tracker holds when whole: a counter's max (its value if it has none), every box."""
    if tracker["kind"] == "counter":
        return tracker.get("max") if tracker.get("max") is not None else tracker["value"]
    if tracker["kind"] == "boxes":
        return len(tracker["marked"])
    return sum(len(a["marked"]) for a in tracker["arcs"])


class Totals:
    """What the report folds from the actions in force, one at a time and in order: its own replay
    of the state, each unit's main tracker after each action, when units were lost, the damage
    each side dealt, where rounds start, and per seat and per side the actions, rolls, draws and
    luck.  ``add`` takes the next action in force; ``copy`` is independent of the original (the
    report's cache keeps totals and folds on from a copy, companion/report_cache.py)."""

    __slots__ = ("state", "series", "lost", "dealt", "round_starts", "length", "luck", "counts", "by_side")

    def __init__(self):
        self.state: dict = {}
        self.series: dict[str, array] = {}  # uid -> [x0, level0, x1, level1, ...] (compact: a long game's charts)
        self.lost: dict[str, int] = {}
        self.dealt: dict[str, int] = {}
        self.round_starts: list[int] = []
        self.length = 0
        self.luck: dict[str, dict] = {}
        self.counts: dict[str, int] = {}
        self.by_side: dict[str, dict] = {}  # an event's side (as recorded) -> rolls, draws, expected, actual

    def copy(self) -> Totals:
        out = Totals()
        out.state = json.loads(json.dumps(self.state))
        out.series = {uid: array("q", points) for uid, points in self.series.items()}
        out.lost, out.dealt, out.counts = dict(self.lost), dict(self.dealt), dict(self.counts)
        out.round_starts, out.length = list(self.round_starts), self.length
        out.luck = {seat: dict(v) for seat, v in self.luck.items()}
        out.by_side = {side: dict(v) for side, v in self.by_side.items()}
        return out

    def add(self, ev: dict, payload: dict | None = None) -> None:
        """The next action in force (never an undo or redo, never a withdrawn action); ``payload``
        is a correction's move where it stands in for the event's own (``actions.in_effect``)."""
        state = self.state
        before = {uid: (level(u["trackers"][t]) if (t := main_tracker(u)) else None)
                  for uid, u in state.get("units", {}).items()}
        was_round = state.get("round")
        actions.apply(state, ev["payload"] if payload is None else payload)
        self.length += 1
        seen = self.length
        if was_round is not None and state["round"] != was_round:
            self.round_starts.append(seen)
        for uid, unit in state["units"].items():
            tid = main_tracker(unit)
            if tid is None:
                continue
            now = level(unit["trackers"][tid])
            points = self.series.setdefault(uid, array("q"))
            if not points or points[-1] != now:
                points.extend((seen, now))
            was = before.get(uid)
            if was is not None and now < was and ev.get("side") and ev["side"] != unit["side"]:
                self.dealt[ev["side"]] = self.dealt.get(ev["side"], 0) + was - now
            if unit["removed"] and uid not in self.lost:
                self.lost[uid] = state["round"]
            elif not unit["removed"]:
                self.lost.pop(uid, None)
        self.counts[ev["seat"]] = self.counts.get(ev["seat"], 0) + 1
        side = self.by_side.setdefault(ev.get("side") or "", {"rolls": 0, "draws": 0, "expected": 0.0, "actual": 0.0})
        if ev.get("chance"):
            side["draws" if "draw" in ev["type"] else "rolls"] += 1
        found = luck_of(ev)
        if found:
            entry = self.luck.setdefault(ev["seat"] or "?", {"rolls": 0, "expected": 0.0, "actual": 0.0})
            entry["rolls"] += 1
            entry["expected"] += found[0]
            entry["actual"] += found[1]
            side["expected"] += found[0]
            side["actual"] += found[1]

    def points(self, uid: str) -> Pairs:
        return Pairs(self.series.get(uid, array("q")))


class Pairs:
    """A unit's chart points, (x, level) pairs read off the flat array they are kept in: a long
    game's chart is sampled without building every pair (``_sample`` reads a few by index)."""

    def __init__(self, flat: array):
        self.flat = flat

    def __len__(self) -> int:
        return len(self.flat) // 2

    def __getitem__(self, i: int) -> tuple[int, int]:
        i = i + len(self) if i < 0 else i
        return self.flat[2 * i], self.flat[2 * i + 1]

    def __add__(self, more: list) -> list:
        return [self[i] for i in range(len(self))] + more

    def __iter__(self):
        return iter(zip(self.flat[::2], self.flat[1::2], strict=False))

    def highest(self) -> int:
        return max(self.flat[1::2])


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
    top = max(top, points.highest() if isinstance(points, Pairs) else max(v for _, v in points), 1)
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
    """Result, units standing and lost per side with their charts, each seat's luck, per-side
    totals: the whole log replayed (``finish`` from totals kept along the way gives the same).
    The moves in effect are ``actions.in_effect``'s: a move taken back is not counted (a withdrawn
    hit is not damage dealt), a correction's move is, in the mistaken one's place."""
    totals = Totals()
    for ev, payload in actions.in_effect(events):
        totals.add(ev, payload)
    return finish(state, totals, sum(1 for ev in events if ev["withdrawn"] and not ev.get("taken_back")),
                  corrections(events))


def corrections(events: list[dict]) -> list[dict]:
    """The take-backs and corrections in force, for the report's list of them."""
    return [{"seq": ev["seq"], "seat": ev["seat"], "label": ev["label"], "said": ev.get("said")} for ev in events
            if ev["type"] == actions.TAKE_BACK and not ev["withdrawn"]]


def finish(state: dict, totals: Totals, withdrawn: int, corrections: list[dict] | None = None) -> dict:
    """The report of the table in ``state`` from the totals of its actions in force, the number
    of actions withdrawn by undo, and the take-backs in force."""
    sides = {s: {"standing": [], "lost": [], "units": [], "dealt": 0, "rolls": 0, "draws": 0,
                 "expected": 0.0, "actual": 0.0} for s in state["sides"]}
    for uid in state["unit_order"]:
        unit = state["units"][uid]
        side = sides.setdefault(unit["side"], {"standing": [], "lost": [], "units": [], "dealt": 0, "rolls": 0,
                                               "draws": 0, "expected": 0.0, "actual": 0.0})
        side["lost" if unit["removed"] else "standing"].append(unit["name"])
        tid = main_tracker(unit)
        entry = {"name": unit["name"], "removed": unit["removed"], "lost_round": totals.lost.get(uid)}
        if tid:
            tracker = unit["trackers"][tid]
            entry.update(tracker=tracker.get("label", tid), now=level(tracker), top=ceiling(tracker),
                         points=chart(totals.points(uid), ceiling(tracker), totals.length))
        side["units"].append(entry)
    for name, counted in totals.by_side.items():
        if name in sides:
            for key in ("rolls", "draws", "expected", "actual"):
                sides[name][key] += counted[key]
    for name, dealt in totals.dealt.items():
        if name in sides:
            sides[name]["dealt"] = dealt
    luck = totals.luck
    biggest = max([abs(v["actual"] - v["expected"]) for v in luck.values()] + [v["expected"] for v in luck.values()]
                  + [v["actual"] for v in luck.values()] + [1])
    return {"rounds": state["round"], "phase": state["phases"][state["phase"]], "sides": sides,
            "result": state.get("result", ""),
            "round_ticks": [round(x / max(totals.length, 1) * 300, 1) for x in totals.round_starts],
            "luck": {seat: {**v, "difference": v["actual"] - v["expected"],
                            "bar_expected": round(v["expected"] / biggest * 100, 1),
                            "bar_actual": round(v["actual"] / biggest * 100, 1)} for seat, v in luck.items()},
            "actions": dict(totals.counts), "withdrawn": withdrawn, "corrections": corrections or [],
            "finished": state["finished"]}
