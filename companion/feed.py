"""The table's event feed: its events as Server-Sent Events, for a TV display, an LED under the active
player, a sound on a critical hit (issue 26; docs/api.md "Event feed").

Each event is one message, ``id: <seq>`` and ``data: {seq, type, label, seat, side, dice, odds,
units}``, sent exactly once per stream; a client that reconnects sends ``Last-Event-ID`` (EventSource
does it by itself) and gets the events after it.  What a viewer may not read never leaves:
every event passes through ``hidden.for_viewer`` (labels never hold a secret; payloads may), and
the units' trackers are read from the state as the viewer sees it.

Waiting for a change is ``wait_for_change``: the live push's notifier (companion/live.py).  Between
two reads the stream holds no transaction: each read is one statement on the thread's shared
connection (companion/db.py), finished before the stream waits.
"""
from __future__ import annotations

import json
import time

from companion import dice, hidden, i18n, live, report, store
from companion.db import connection_for
from companion.said import _
from companion.trackers import counter

KEEP_ALIVE_SECONDS = 15  # a comment this often: proxies and sleeping Wi-Fi keep the stream open
RETRY_MS = 1000  # how soon an EventSource reconnects after the stream drops
BATCH = 200  # events read at once (a client far behind catches up in batches)


def wait_for_change(code: str, seq: int, timeout: float, db_path: str) -> int | None:
    """Wait until table ``code`` is past ``seq``: its new seq, or None after ``timeout`` seconds (or if
    the table is gone).  The live push's notifier (companion/live.py): woken within a tick of any
    commit, by any server process, with no database connection held while waiting."""
    found = live.wait_past(db_path, code, seq, timeout)
    return None if found in (None, live.GONE) else found


def bounded(tracker: dict) -> bool:
    """Whether a counter has a ceiling worth showing: a max at the input limit means none (as the
    board shows it, companion/tracker_view.py)."""
    return tracker.get("max") is not None and tracker["max"] < counter.LIMIT


def main_trackers(state: dict) -> dict:
    """Each unit on the table with what is left on its level trackers (a counter, boxes, arcs: the
    ones the battle report charts, report.CHART_KINDS): {uid: {"name", "side", "trackers": {tid:
    {"label", "left", "of"}}}} (``of``: None for a counter without a ceiling)."""
    out = {}
    for uid in state.get("unit_order", []):
        unit = state["units"].get(uid)
        if not unit or unit.get("removed"):
            continue
        out[uid] = {"name": unit["name"], "side": unit.get("side"), "trackers": {
            tid: {"label": t.get("label", tid), "left": report.level(t),
                  "of": report.ceiling(t) if t["kind"] != "counter" or bounded(t) else None}
            for tid, t in unit.get("trackers", {}).items() if t.get("kind") in report.CHART_KINDS}}
    return out


def dice_of(payload: dict) -> list | None:
    """The dice an event shows, where its payload keeps them (``dice``, or ``result.dice``), as numbers."""
    found = payload.get("dice")
    if not isinstance(found, list):
        result = payload.get("result")
        found = result.get("dice") if isinstance(result, dict) else None
    if not isinstance(found, list):
        return None
    return [d.get("value") if isinstance(d, dict) else d for d in found]


def odds_of(event: dict) -> str | None:
    """The odds an event carries, in one line: a success pool's chance of doing at least this well
    (from the distribution in its payload), or what the game expected against what came (the
    report's luck)."""
    p = event.get("payload") or {}
    if event.get("type") == "pool" and isinstance(p.get("odds"), dict):
        r = p["result"]
        got = r["unsaved"] if r.get("save") else r["successes"]
        chance = dice.at_least(p["odds"]["probabilities"], got)
        said = {"got": got, "dice": len(r["dice"]), "chance": f"{chance:.0%}"}
        if r.get("save"):
            return _("%(got)s unsaved of %(dice)s dice · %(chance)s to do this well", **said)
        if got == 1:
            return _("%(got)s success of %(dice)s dice · %(chance)s to do this well", **said)
        return _("%(got)s successes of %(dice)s dice · %(chance)s to do this well", **said)
    try:
        luck = report.luck_of(event)
    except (KeyError, TypeError):
        return None
    if luck is None:
        return None
    expected, actual, what = luck
    # ``what``: the game's word for what it counts ("damage", "hits"), in the screen's words where the game marked it
    return _("%(actual)s %(what)s · %(expected).1f expected", actual=actual, what=_(what) if isinstance(what, str) else what,
             expected=expected)


def message(event: dict, units: dict) -> dict:
    """One event as the feed sends it (already redacted for the viewer)."""
    # the label and the odds in the reader's words (the stream keeps its request: companion/api.py), the
    # move's message last, for a client that draws its own (docs/api.md)
    return {"seq": event["seq"], "type": event["type"], "label": i18n.in_words(event["label"], event.get("said")),
            "seat": event["seat"], "side": event["side"], "withdrawn": event["withdrawn"],
            "dice": dice_of(event["payload"]), "odds": odds_of(event), "units": units, "said": event.get("said")}


def changed(before: dict, after: dict) -> dict:
    """The units whose trackers (or name, side) differ, with their new reading; None for a unit gone."""
    out = {uid: u for uid, u in after.items() if before.get(uid) != u}
    out.update({uid: None for uid in before if uid not in after})
    return out


def _sse(data: dict, event_id: int | None = None, kind: str | None = None) -> str:
    head = (f"id: {event_id}\n" if event_id is not None else "") + (f"event: {kind}\n" if kind else "")
    return head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n"


def stream(db_path: str, code: str, viewer: str | None, after: int | None, keep_alive: float = KEEP_ALIVE_SECONDS,
           lifetime: float | None = None, seat_id: int | None = None):
    """The stream's text, piece by piece: first ``event: state`` (the seq and every unit's trackers
    now, no id: it moves no client's place), then each event after ``after`` (None: from now on) as
    it comes, and a keep-alive comment after ``keep_alive`` quiet seconds.  It ends when the server
    closes it (the client went: the next write fails), when the table is gone, or after ``lifetime``
    seconds (the app's FEED_SECONDS: the client comes back with Last-Event-ID and misses nothing, and
    no connection a client forgot is held for ever).  ``seat_id``: the caller's seat, if it has one; the
    stream ends at its next turn once the host has removed that seat (issue 37)."""
    ends = time.monotonic() + lifetime if lifetime else None
    db = connection_for(db_path)
    row = store.state_for(store.table(db, code), viewer)
    seen = row["seq"] if after is None else min(after, row["seq"])
    units = main_trackers(row["state"])
    yield f"retry: {RETRY_MS}\n\n"
    yield _sse({"seq": row["seq"], "units": units}, kind="state")
    while True:
        head = store.table_head(db, code)
        if head is None or (seat_id is not None and not store.seat_is_seated(db, code, seat_id)):
            return
        if head[1] > seen:
            # the state first, then its events: the trackers read are those after the last event sent
            now = store.state_for(store.table(db, code), viewer)
            batch = [ev for ev in hidden.for_viewer(store.events_after(db, row["id"], seen, BATCH), viewer)
                     if ev["seq"] <= now["seq"]]
            fresh = main_trackers(now["state"])
            moved, units = changed(units, fresh), fresh  # said once, on the batch's last event
            for ev in batch:
                yield _sse(message(ev, moved if ev is batch[-1] else {}), event_id=ev["seq"])
            seen = batch[-1]["seq"] if batch else now["seq"]
            continue
        wait = keep_alive if ends is None else min(keep_alive, ends - time.monotonic())
        if wait <= 0:
            return
        if wait_for_change(code, seen, wait, db_path) is None and wait == keep_alive:
            yield ": keep-alive\n\n"
