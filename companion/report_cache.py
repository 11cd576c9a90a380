"""The battle report without replaying the whole log after every change (issue 30 §9).

The report is a fold over the actions in force (companion/report.py ``Totals``), and those are
the undo chain (companion/store/chain.py): while an action is in force, the actions below it never
change, so the totals after it never change either.  So totals are kept per chain event: after
the top each report was built at, and every CHECKPOINT_EVERY actions down the chain.  A report
walks down the chain from the table's top to the nearest kept totals (after one change: one
step; after an undo: at most CHECKPOINT_EVERY steps) and folds on from a copy of them; the number
of actions withdrawn is counted on from the undos and redos since.  ``finish`` then gives exactly
what the whole replay (``report.build``) gives; tests/test_report_totals.py checks it on random
games of every system.

A take-back in force (companion/take_back.py) changes which earlier actions are in force, so the
totals kept below it no longer hold: while one is in force the report is the whole replay
(``report.build``) and nothing is kept; once it is undone, the totals kept below it hold again
(the actions made after it were undone before it).

The totals live in this process's memory (bounded: KEEP_TABLES tables, KEEP_PER_TABLE totals
each): a worker that has none yet replays once, as before.
"""
from __future__ import annotations

import itertools
import json
import threading
from collections import OrderedDict

from companion import actions, report, store

CHECKPOINT_EVERY = 64  # totals kept every this many actions down the chain (an undo folds at most this many)
# bounds on memory: a 10,000-event game's totals are ~80 KB (its charts' points), so at most
# ~5 MB a table; the oldest kept (the bottom of a long chain) go first
KEEP_TABLES = 8
KEEP_PER_TABLE = 64

_lock = threading.Lock()
_kept: OrderedDict = OrderedDict()  # table key -> {"totals": OrderedDict(chain seq -> Totals), "withdrawn": (seq, n)}
_memory = itertools.count(1)


def _key(db, row: dict) -> tuple:
    """A table, whichever connection reads it: its database file, id, code and creation time (an
    in-memory database is its own connection's)."""
    path = getattr(db, "_companion_report_path", None)
    if path is None:
        path = db._companion_report_path = store.location(db) or f":memory:{next(_memory)}"
    return path, row["id"], row["code"], row["created"]


def report_of(db, row: dict) -> dict:
    """The battle report of the table ``row`` (the row as read at its seq, state unredacted)."""
    if store.in_force_of_type(db, row["id"], actions.TAKE_BACK):
        return report.build(row["state"], store.events(db, row["code"]))
    key = _key(db, row)
    with _lock:
        kept = _kept.get(key)
        if kept is None:
            kept = _kept[key] = {"totals": OrderedDict(), "withdrawn": (0, 0)}
        _kept.move_to_end(key)
        while len(_kept) > KEEP_TABLES:
            _kept.popitem(last=False)
        known = set(kept["totals"])
        withdrawn_at = kept["withdrawn"]
    top = row["done_top"]
    chain, start = _from_kept(db, row["id"], top, kept, known)
    if start is not None and not chain:
        totals = start  # kept at this very top: read only (finish copies what it shows)
    else:
        totals = start.copy() if start is not None else report.Totals()
        for seq, _, seat, side, type_, payload, chance in reversed(chain):
            totals.add({"seq": seq, "seat": seat, "side": side, "type": type_, "payload": json.loads(payload),
                        "chance": bool(chance)})
            if totals.length % CHECKPOINT_EVERY == 0 and seq != top:
                _keep(kept, seq, totals.copy())
        _keep(kept, top, totals.copy())  # a copy: the next report folds on from a copy of it
    withdrawn = _withdrawn(db, row, withdrawn_at)
    with _lock:
        if withdrawn_at[0] < row["seq"]:
            kept["withdrawn"] = (row["seq"], withdrawn)
    return report.finish(row["state"], totals, withdrawn)


def _from_kept(db, table_id: int, top: int | None, kept: dict, known: set[int]) -> tuple[list, report.Totals | None]:
    """(the chain's events above the nearest kept totals, newest first; those totals, or None to
    fold from the first event)."""
    if top is None:
        return [], None
    chain = store.down_to_kept(db, table_id, top, known)
    base = chain[-1][1] if chain else top
    if base is None:
        return chain, None
    with _lock:
        start = kept["totals"].get(base)
    if start is None:  # dropped meanwhile by another thread: the whole chain, once
        return store.down_to_kept(db, table_id, top, set()), None
    return chain, start


def _keep(kept: dict, seq: int, totals: report.Totals) -> None:
    with _lock:
        kept["totals"][seq] = totals
        while len(kept["totals"]) > KEEP_PER_TABLE:
            kept["totals"].popitem(last=False)


def _withdrawn(db, row: dict, since: tuple[int, int]) -> int:
    """Actions withdrawn by undo at the row's seq: each undo withdraws one, each redo brings one
    back, so the count at an earlier seq plus the undos and less the redos since (a range of the
    log's primary key)."""
    seq, count = since if since[0] <= row["seq"] else (0, 0)
    done = store.undos_between(db, row["id"], seq, row["seq"])
    return count + done.get("undo", 0) - done.get("redo", 0)
