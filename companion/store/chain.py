"""The undo chain: which actions are in force, and the state after any of them, without reading
the whole log.

The actions in force form a stack (undo pops its top, redo pushes back what the last undo took,
a new action clears what could be redone).  Each action event links to the action below it on
that stack (events.link) and the table keeps the top (tables.done_top); each undo event links to
the undo before it whose target can still be redone (tables.undone_event is the newest).  While
an action is in force, the actions in force below it never change, so the state after it is
fixed: snapshots of it every SNAPSHOT_EVERY links bound the work of undo whatever the log length.

Every function that writes runs inside the caller's write transaction (companion.store.write_lock).
The take-back (companion/take_back.py) reads and marks the chain through the functions at the end.
"""
from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from companion import actions
from companion.errors import RuleError
from companion.said import _, message, told

# A snapshot of the folded state every this many links of the done stack: undo and redo then
# apply at most this many events whatever the log's length (scripts/benchmark.py measures it).
# 8 (was 64, issue 38): a take-back 50 moves ago applied 72-84 moves, and an Undo up to 63 of a game's
# moves; a snapshot is the state's JSON the move writes to its table row anyway, stored once more.
SNAPSHOT_EVERY = 8


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _insert_event(db, table_id: int, seq: int, seat: str, side, payload: dict, label: str,
                  chance: bool, target=None, ts=None, link=None, since_snap=0, said=None) -> None:
    """``said``: the label's message (companion/said.py), when it is not the label's own (an undo's)."""
    said = told(label) if said is None else said
    db.conn.execute(
        "insert into events (table_id, seq, ts, seat, side, type, label, payload, chance, target, link,"
        " since_snap, said) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [table_id, seq, ts or now(), seat, side, payload["type"], label, json.dumps(payload),
         int(chance), target, link, since_snap, None if said is None else json.dumps(said)])


def _link(db, table_id: int, seq: int) -> tuple:
    """(link, target, since_snap) of one event: the chain alone, never its payload (hot path)."""
    return db.execute("select link, target, since_snap from events where table_id = ? and seq = ?",
                      [table_id, seq]).fetchone()


def top_move(db, table_id: int, top: int) -> tuple | None:
    """What an Undo acts on: (link, seq, type, seat, label, payload, said) of the move ``top`` of the chain
    (its link None: the table's set-up, never undone), in one read.  The one reading of it: the
    board's Undo line and the Undo itself (on PostgreSQL each read is a round trip that holds the worker)."""
    return db.execute("select link, seq, type, seat, label, payload, said from events where table_id = ? and seq = ?",
                      [table_id, top]).fetchone()


def redo_move(db, table_id: int, undone_event: int) -> tuple | None:
    """What a Redo acts on: (the undo's link, seq, type, seat, label, payload, said) of the move the undo
    event ``undone_event`` took back, in one read; the board's Redo line and the Redo itself read it here."""
    return db.execute("select u.link, e.seq, e.type, e.seat, e.label, e.payload, e.said from events u join events e"
                      " on e.table_id = u.table_id and e.seq = u.target where u.table_id = ? and u.seq = ?",
                      [table_id, undone_event]).fetchone()


def _append_action(db, row: dict, payload: dict, seat: str, side, ts=None) -> tuple[int, str, dict]:
    """Apply one action event on the table's state and store it, linked on the undo chain."""
    entry = actions.lookup(payload["type"], row["system"])
    state, label = actions.attempt(row["state"], payload)
    seq, parent = row["seq"] + 1, row.get("done_top")
    since = 0 if parent is None else _link(db, row["id"], parent)[2] + 1
    text = json.dumps(state)  # (once: the table's row and a snapshot hold the same)
    if since >= SNAPSHOT_EVERY or parent is None:
        since = 0
        keep_snapshot(db, row["id"], seq, text)
    _insert_event(db, row["id"], seq, seat, side, payload, label, entry.chance, ts=ts, link=parent,
                  since_snap=since)
    set_top(db, row["id"], seq, text, state)
    row.update(state=state, seq=seq, finished=int(state["finished"]), done_top=seq, undone_event=None,
               name=state["name"])
    return seq, label, state


def _state_at(db, table_id: int, top: int) -> dict:
    """The state with every action in force up to ``top``: its snapshot plus at most
    SNAPSHOT_EVERY actions down the chain (a log linked before snapshots existed folds from seq 1).

    The chain down to the snapshot is read in one query (it was two per link: ~30 us a link, up
    to 2 ms an undo just below a snapshot)."""
    chain = db.execute(
        "with recursive down(seq, link, payload, snap) as ("
        " select seq, link, payload, (select state from snapshots where table_id = ?1 and seq = ?2)"
        " from events where table_id = ?1 and seq = ?2"
        " union all"
        " select e.seq, e.link, e.payload, (select state from snapshots where table_id = ?1 and seq = e.seq)"
        " from down join events e on e.table_id = ?1 and e.seq = down.link where down.snap is null)"
        " select payload, snap from down", [table_id, top]).fetchall()
    state = {}
    if chain and chain[-1][1] is not None:
        state = json.loads(chain[-1][1])
        chain = chain[:-1]
    for payload, _snap in reversed(chain):
        actions.apply(state, json.loads(payload), own=True)  # parsed for this apply alone
    return state


def _append_undo(db, row: dict, redo: bool, seat: str, side, ts=None) -> tuple[int, str, int, dict, str]:
    """Undo the action on top of the chain (or redo the last one undone) and store the event: (its seq,
    its label, the move it took back or brought back, the state, that move's type)."""
    table_id, seq = row["id"], row["seq"] + 1
    if redo:
        if row.get("undone_event") is None:
            raise RuleError(_("Nothing to redo."), "redo")
        undone_link, target, type_, _seat, target_label, payload, target_said = redo_move(db, table_id, row["undone_event"])
        payload = json.loads(payload)
        if type_ == actions.TAKE_BACK:  # what it left is its snapshot (companion/take_back.py)
            state = _state_at(db, table_id, target)
        else:
            state, _again = actions.attempt(row["state"], payload)  # the top again: apply it once more
        top, undone, link, withdrawn = target, undone_link, None, 0
    else:
        target = row.get("done_top")
        parent, _seq, type_, _seat, target_label, _payload, target_said = top_move(db, table_id, target)
        if parent is None:
            raise RuleError(_("Nothing to undo."), "undo")
        state = _state_at(db, table_id, parent)
        top, undone, link, withdrawn = parent, seq, row.get("undone_event"), 1
    kind = "redo" if redo else "undo"
    label = f"{kind}: {target_label}"
    move = target_label if target_said is None else json.loads(target_said)
    said = message("redo: %(move)s", move=move) if redo else message("undo: %(move)s", move=move)
    _insert_event(db, table_id, seq, seat, side, {"type": kind, "target": target}, label, False, target,
                  ts=ts, link=link, said=said)
    db.conn.execute("update events set withdrawn = ? where table_id = ? and seq = ?", [withdrawn, table_id, target])
    db.conn.execute("update tables set state = ?, seq = ?, done_top = ?, undone_event = ? where id = ?",
                    [json.dumps(state), seq, top, undone, table_id])
    row.update(state=state, seq=seq, done_top=top, undone_event=undone)
    return seq, label, target, state, type_


def keep_snapshot(db, table_id: int, seq: int, text: str) -> None:
    """The state after ``seq`` (its JSON), kept where undo and take-back start from."""
    db.conn.execute("insert into snapshots (table_id, seq, state) values (?, ?, ?)"
                    " on conflict (table_id, seq) do update set state = excluded.state", [table_id, seq, text])


def set_top(db, table_id: int, seq: int, text: str, state: dict) -> None:
    """The table after a new move ``seq`` on top of the chain (an action, or a take-back): its state
    (``text``, its JSON), seq, name and finished mark; nothing left to redo."""
    db.conn.execute("update tables set state = ?, seq = ?, finished = ?, done_top = ?, undone_event = NULL,"
                    " name = ? where id = ?", [text, seq, int(state["finished"]), seq, state["name"], table_id])


def named(db, table_id: int, seqs: list[int]) -> dict[int, tuple[str, Any]]:
    """How a few moves are named: seq -> (its label, its kept message parsed or None), in one read (a
    take-back names its targets, or the move that no longer applies; the chain is read without labels)."""
    marks = ",".join("?" * len(seqs))
    return {seq: (label, None if said is None else json.loads(said)) for seq, label, said in db.execute(
        f"select seq, label, said from events where table_id = ? and seq in ({marks})", [table_id, *seqs]).fetchall()}


def chain_down(db, table_id: int, start: int, low: int, limit: int) -> list[tuple]:
    """The moves in force from ``start`` down its links to the oldest at or above ``low``, newest first, at
    most ``limit``: (seq, link, type, payload, taken_back) each, in one query."""
    # every column carried down the recursion: a join back to events afterwards was planned as a
    # scan of the table's whole log (1 ms at 10,000 events)
    return db.execute(
        "with recursive down(seq, link, type, payload, taken_back) as ("
        " select seq, link, type, payload, taken_back from events"
        " where table_id = ?1 and seq = ?2 and seq >= ?3"
        " union all"
        " select e.seq, e.link, e.type, e.payload, e.taken_back from down"
        " join events e on e.table_id = ?1 and e.seq = down.link where e.seq >= ?3)"
        " select * from down limit ?4", [table_id, start, low, limit]).fetchall()


_OFF_CHAIN = frozenset(("undo", "redo", "join"))


def events_span(db, table_id: int, low: int, high: int) -> dict[int, tuple]:
    """The events ``low`` <= seq <= ``high`` of a table that may be on the undo chain: seq -> (seq, link,
    type, payload, taken_back, since_snap), in one read of the log's primary key range (a take-back's
    stretch of the chain, followed link by link in Python: ~2x cheaper a row than chain_down's
    recursion, issue 38).  Undos, redos and joins are never on the chain: left out; an undone move
    (withdrawn, and not by a take-back) comes without its payload (None): whoever meets one on the
    chain reads that stretch with chain_down instead."""
    # the bare columns, sorted out here: a filter on type or a CASE in the query cost the read about
    # twice a bare range's time (about 240 against 140 us for a take-back's 85 rows, issue 38)
    return {seq: (seq, link, type_, None if withdrawn and taken is None else payload, taken, since_snap)
            for seq, link, type_, withdrawn, payload, taken, since_snap in db.execute(
                "select seq, link, type, withdrawn, payload, taken_back, since_snap from events"
                " where table_id = ? and seq >= ? and seq <= ?", [table_id, low, high]).fetchall()
            if type_ not in _OFF_CHAIN}


def down_span(span: dict[int, tuple], start: int | None, low: int, limit: int) -> list[tuple] | None:
    """chain_down's rows (the first five columns) from ``span`` (events_span's, read from ``low`` or
    below up to ``start`` or above): ``start`` down its links to the oldest at or above ``low``; None
    if an event on the way is not in the span or came without its payload (chain_down reads it)."""
    rows = []
    while start is not None and start >= low and len(rows) < limit:
        row = span.get(start)
        if row is None or row[3] is None:
            return None
        rows.append(row[:5])
        start = row[1]
    return rows


def state_in_span(db, table_id: int, span: dict[int, tuple], seq: int) -> dict | None:
    """``_state_at(seq)`` from ``span``: the snapshot at the first event down the chain from ``seq``
    that kept one (since_snap 0) plus the payloads above it applied; None if the chain leaves the
    span first, or that event has no snapshot (a log linked before snapshots): _state_at reads it."""
    applied = []
    row = span.get(seq)
    while row is not None and row[3] is not None and row[5] != 0:
        applied.append(row[3])
        row = span.get(row[1]) if row[1] is not None else None
    if row is None or row[3] is None:
        return None
    kept = db.execute("select state from snapshots where table_id = ? and seq = ?", [table_id, row[0]]).fetchone()
    if kept is None:
        return None
    state = json.loads(kept[0])
    if applied:
        for payload in json.loads("[" + ",".join(reversed(applied)) + "]"):  # oldest first, one parse
            actions.apply(state, payload, own=True)  # parsed for this apply alone
    return state


def move_of(db, table_id: int, seq: int) -> tuple[str, dict] | None:
    """(type, payload) of event ``seq``, or None if there is no such event."""
    found = db.execute("select type, payload from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()
    return (found[0], json.loads(found[1])) if found else None


def mark_taken_back(db, table_id: int, seq: int, by: int | None) -> None:
    """Event ``seq`` is withdrawn by the take-back ``by`` (None: it counts again)."""
    db.conn.execute("update events set withdrawn = ?, taken_back = ? where table_id = ? and seq = ?",
                    [int(by is not None), by, table_id, seq])


def down_to_kept(db, table_id: int, top: int, known: set[int]) -> list[tuple]:
    """The chain's events from ``top`` down, stopping above the first event in ``known``:
    (seq, link, seat, side, type, payload, chance) each, newest first (one query; the battle
    report's totals, companion/report_cache.py)."""
    return db.execute(
        "with recursive down(seq, link, seat, side, type, payload, chance) as ("
        " select seq, link, seat, side, type, payload, chance from events"
        "  where table_id = ?1 and seq = ?2 and seq not in (select cast(value as integer) from json_each(?3))"
        " union all"
        " select e.seq, e.link, e.seat, e.side, e.type, e.payload, e.chance"
        "  from down join events e on e.table_id = ?1 and e.seq = down.link"
        "  where e.seq not in (select cast(value as integer) from json_each(?3)))"
        " select * from down", [table_id, top, json.dumps(sorted(known))]).fetchall()


def undos_between(db, table_id: int, after: int, upto: int) -> dict[str, int]:
    """{"undo": n, "redo": m}: the undos and redos among events ``after`` < seq <= ``upto`` (a range of
    the log's primary key)."""
    return dict(db.execute("select type, count(*) from events where table_id = ? and seq > ? and seq <= ?"
                           " and type in ('undo', 'redo') group by type", [table_id, after, upto]).fetchall())


def in_force_of_type(db, table_id: int, type_: str) -> bool:
    """Whether a move of ``type_`` is in force (not withdrawn) anywhere in the table's log."""
    return db.execute("select 1 from events where table_id = ? and type = ? and withdrawn = 0 limit 1",
                      [table_id, type_]).fetchone() is not None

