"""Tables and their event logs: create, act, join, undo, take back, and the reads of the log.

One action = one transaction (companion/store/engine.py ``write_lock``): the event is appended and
the cached state and ``seq`` updated together, or nothing is.  Readers never wait for a writer
(SQLite's WAL; PostgreSQL's snapshots).
"""
from __future__ import annotations

import json
import secrets

from companion import actions, hidden, roster
from companion import take_back as tb  # (store.take_back is the locked write of one)
from companion.actions import Ctx
from companion.errors import Finished, Moved, RuleError, Stale
from companion.said import _
from companion.store.chain import _append_action, _insert_event, now, redo_move, top_move
from companion.store.engine import Postgres, write_lock

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud across a table


class NotFound(LookupError):
    """No such table (or not for these credentials): answered 404 without a hint."""


def _row(db, code: str) -> dict:
    rows = list(db.query("select * from tables where code = ?", [code]))
    if not rows:
        raise NotFound(code)
    return rows[0]


def table(db, code: str) -> dict:
    """A table's row with its state decoded."""
    row = _row(db, code)
    row["state"] = json.loads(row["state"])
    return row


def table_seq(db, code: str) -> int | None:
    """Just the sequence number: what a poll compares (one indexed read)."""
    row = db.execute("select seq from tables where code = ?", [code]).fetchone()
    return row[0] if row else None


def table_head(db, code: str) -> tuple[int, int, str] | None:
    """(id, seq, system) of a table: enough to find a kept board without reading the state."""
    return db.execute("select id, seq, system from tables where code = ?", [code]).fetchone()


def tables_listed(db, codes) -> list[dict]:
    """What the lobby lists of the tables ``codes`` (a device's saved seats): code, name, system,
    finished and created of each that exists, in one query however many seats (issue 29)."""
    rows = db.execute("select code, name, system, finished, created from tables where code in "
                      "(select value from json_each(?))", [json.dumps(list(codes))]).fetchall()
    return [{"code": r[0], "name": r[1], "system": r[2], "finished": bool(r[3]), "created": r[4]} for r in rows]


def head_of(row: dict) -> tuple[int, int, str]:
    """(id, seq, system) of a table row the caller has already read: its table_head at that seq."""
    return row["id"], row["seq"], row["system"]


def _new_code(db) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if not db.execute("select 1 from tables where code = ?", [code]).fetchone():
            return code


def create(db, system, args: dict, ctx: Ctx) -> dict:
    """Create a table: its first event sets it up.  Returns the row (with the two secrets)."""
    payload = actions.prepare({}, {**args, "type": "create-table"}, ctx)
    with write_lock(db):
        code = _insert_table(db, system.slug, system.version)
        _append_action(db, table(db, code), payload, ctx.seat, ctx.side)
    return table(db, code)


def _insert_table(db, system: str, content_version: str) -> str:
    """A new, empty table row with a fresh code and two fresh 128-bit secrets (inside a write lock);
    its create-table event follows at once and fills it."""
    code = _new_code(db)
    new_id = _new_id(db)
    db.conn.execute(
        f"insert into tables ({'' if new_id is None else 'id, '}code, system, name, created, player_secret,"
        f" spectator_secret, state, seq, finished, content_version)"
        f" values ({'' if new_id is None else '?, '}?, ?, '', ?, ?, ?, '{{}}', 0, 0, ?)",
        ([] if new_id is None else [new_id])
        + [code, system, now(), secrets.token_urlsafe(16), secrets.token_urlsafe(16), content_version])
    return code


def _new_id(db) -> int | None:
    """A table's id, never given to another table after it is deleted: what each server keeps of a
    table (its boards, their steps in /dev/shm, the reads of a seq) is keyed by it, so a new table
    given a deleted one's id would be shown the deleted table's board.  PostgreSQL's identity never
    gives an id twice (None: its own); SQLite's rowid gives the highest again once it is deleted, so
    SQLite's tables are numbered past the highest ever given, kept in ``settings`` (inside the
    caller's write lock)."""
    if isinstance(db, Postgres):
        return None
    new = db.execute("select max(coalesce((select max(id) from tables), 0),"
                     " coalesce((select cast(value as integer) from settings where name = 'last_table_id'), 0))"
                     " + 1").fetchone()[0]
    db.conn.execute("insert into settings (name, value) values ('last_table_id', ?)"
                    " on conflict (name) do update set value = excluded.value", [str(new)])
    return new


def _current(db, code: str, known: dict | None) -> dict:
    """The table's row inside a write: ``known`` (the row as the caller read it just now: not read again,
    10-100 KB of state) if nothing was written since, else read."""
    if known is not None and table_seq(db, code) == known["seq"]:
        return known  # the seq moves with every write: the row read before the lock is the table
    return table(db, code)


def act(db, code: str, args: dict, ctx: Ctx, expect_seq: int | None = None,
        known: dict | None = None) -> dict:
    """Validate, decide and apply one action in one transaction; returns seq, label, payload, the
    new state and the table's row after it.  ``known``: the row as the caller read it just now,
    taken (and brought up to date) instead of reading it again if nothing was written since."""
    with write_lock(db, code=code):
        row = _current(db, code, known)
        if row["finished"]:
            raise Finished(_("This game is finished: it can be browsed but not changed."), "type")
        if expect_seq is not None and expect_seq != row["seq"]:
            raise Stale(_("The table changed since you looked; here is the fresh view."), "seq")
        payload = actions.prepare(row["state"], args, ctx)
        if payload["type"] == "create-table":
            raise RuleError(_("A table is created only once."), "type")
        seq, label, state = _append_action(db, row, payload, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "payload": payload, "state": state, "row": row}


def join(db, code: str, name: str, side: str | None, role: str) -> int | None:
    """Record that ``name`` sat down at the table (as a player on ``side``, or a spectator): an event
    of its own, outside the undo chain, that moves the table's seq so every phone's board follows
    (companion/roster.py).  Only a new or changed seat is written, and nothing once the game is
    finished; returns the event's seq, or None when nothing was written."""
    with write_lock(db, code=code):
        row = _row(db, code)
        if row["finished"]:
            return None
        sides = json.loads(row["state"])["sides"]
        payload = roster.payload(name, side, role)
        if not payload["name"] or payload["name"] == roster.API_SEAT:
            return None  # (an API client that named no seat: nobody sits down)
        roster.check(payload, sides)
        if roster.same_seat(_seats(db, row["id"], row["seq"], sides), payload):
            return None
        return _append_join(db, row, payload)


def _append_join(db, row: dict, payload: dict, ts=None) -> int:
    """Store a join (inside the caller's write lock): the seq moves, nothing else does (no state,
    no link on the undo chain: Undo, Redo and take-backs never meet it)."""
    seq = row["seq"] + 1
    _insert_event(db, row["id"], seq, payload["name"], payload["side"], payload, roster.label(payload), False)
    db.conn.execute("update tables set seq = ? where id = ?", [seq, row["id"]])
    row["seq"] = seq
    return seq


def _seats(db, table_id: int, seq: int, sides: list[str]) -> list[dict]:
    rows = db.execute(
        "select seq, type, seat, side, payload from events where table_id = ?1 and type = 'join' and seq <= ?2"
        " union all select seq, type, seat, side, '{}' from events where table_id = ?1 and seq = 1"
        " order by seq", [table_id, seq]).fetchall()
    return roster.fold([{"seq": r[0], "type": r[1], "seat": r[2], "side": r[3], "payload": json.loads(r[4])}
                        for r in rows], sides)


def seated(db, code: str, row: dict | None = None) -> list[dict]:
    """The seats at the table, in join order, one per name (companion/roster.py ``fold``); ``row``:
    the table as the caller read it (its state decoded), the roster as it stood at that seq."""
    row = row or table(db, code)
    return _seats(db, row["id"], row["seq"], row["state"]["sides"])


def undo(db, code: str, ctx: Ctx, redo: bool = False, expect: int | None = None, known: dict | None = None) -> dict:
    """Undo the last action in force (or redo the last undone one): a snapshot and a short chain.
    ``expect``: the seq of the event the caller means to take back (or bring back); checked in
    the same locked write, so a move another phone makes meanwhile is never the one undone.
    ``known``: the row as the caller read it just now, as ``act`` takes it."""
    with write_lock(db, code=code):
        row = _current(db, code, known)
        if row["finished"]:
            raise Finished(_("This game is finished: it can be browsed but not changed."), "type")
        if expect is not None:
            now = _next_undo(db, row["id"], redo, row=row)
            if now is None or now[0] != expect:
                top = {"seq": now[0], "label": now[1]} if now else None
                if redo:
                    raise Moved(_("Another move came in since; look at the Redo button again."), "redo", top)
                raise Moved(_("Another move came in since; look at the Undo button again."), "undo", top)
        seq, label, target, state = tb.append_undo(db, row, redo, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "target": target, "state": state, "row": row}


def _next_undo(db, table_id: int, redo: bool = False, row: dict | None = None) -> tuple[int, str, dict | None] | None:
    """(seq, "seat: label", its message) of the event undo (or redo) would act on now (or at ``row``, the
    table as the caller read it); None if there is none.  A few indexed reads, whatever the log's
    length."""
    top, undone_event = (row["done_top"], row["undone_event"]) if row else db.execute(
        "select done_top, undone_event from tables where id = ?", [table_id]).fetchone()
    if redo:
        found = redo_move(db, table_id, undone_event) if undone_event is not None else None
    else:  # (the table's set-up, linked to nothing, is never undone)
        found = top_move(db, table_id, top) if top is not None else None
        found = found if found is not None and found[0] is not None else None
    if found is None:
        return None
    _link, seq, _type, seat, label, _payload, said = found
    said = None if said is None else json.loads(said)
    if not seat:
        return seq, label, said
    return seq, f"{seat}: {label}", None if said is None else {"j": ": ", "p": [seat, said]}


def take_back(db, code: str, targets, ctx: Ctx, instead: dict | None = None,
              expect_seq: int | None = None) -> dict:
    """Take back moves in force (``targets``, seqs), or correct one (``instead``: the same tracker
    change with another unit or amount), as one event; see companion/take_back.py."""
    payload = {"type": actions.TAKE_BACK, "targets": tb.clean_targets(targets)}
    with write_lock(db, code=code):
        row = table(db, code)
        if row["finished"]:
            raise Finished(_("This game is finished: it can be browsed but not changed."), "type")
        if expect_seq is not None and expect_seq != row["seq"]:
            raise Stale(_("The table changed since you looked; here is the fresh view."), "seq")
        if instead is not None:
            payload["instead"] = tb.correction(db, row, payload["targets"][0], instead, ctx)
        tb.check_payload(payload)
        seq, label, state = tb.withdraw(db, row, payload, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "payload": payload, "state": state, "row": row}


def _event_rows(db, table_id: int, chance_only=False, limit=None, newest_first=False, before=None,
                after=None):
    where = ("table_id = ?" + (" and chance = 1" if chance_only else "") + (" and seq < ?" if before else "")
             + (" and seq > ?" if after is not None else ""))
    sql = (f"select seq, ts, seat, side, type, label, payload, target, withdrawn, chance, taken_back, said from events"
           f" where {where}"
           f" order by seq {'desc' if newest_first else 'asc'}" + (f" limit {int(limit)}" if limit else ""))
    params = [table_id] + ([int(before)] if before else []) + ([int(after)] if after is not None else [])
    rows = db.execute(sql, params).fetchall()
    # every payload and message of the page in one parse (two small parses a row cost more than the rows)
    parsed = json.loads("[" + ",".join(f"{r[6]},{r[11] or 'null'}" for r in rows) + "]") if rows else []
    return [{"seq": seq, "ts": ts, "seat": seat, "side": side, "type": type_, "label": label,
             "withdrawn": bool(withdrawn), "target": target, "payload": parsed[2 * i], "chance": bool(chance),
             "taken_back": taken_back, "said": parsed[2 * i + 1]}
            for i, (seq, ts, seat, side, type_, label, _payload, target, withdrawn, chance, taken_back, _said)
            in enumerate(rows)]


def events(db, code: str, chance_only: bool = False, limit: int | None = None,
           newest_first: bool = False) -> list[dict]:
    """The whole log, sealed parts included (replay, tests), each event marked withdrawn if it is
    (now) undone.  What a seat is shown comes from ``events_for``."""
    return _event_rows(db, _row(db, code)["id"], chance_only, limit, newest_first)


def events_for(db, code: str, viewer: str | None, newest_first: bool = False) -> list[dict]:
    """The log as a seat of side ``viewer`` may see it (None: a spectator): other sides' secrets out."""
    return hidden.for_viewer(events(db, code, newest_first=newest_first), viewer)


def events_after(db, table_id: int, seq: int, limit: int = 200) -> list[dict]:
    """The events after ``seq``, oldest first, at most ``limit`` (the event feed's next batch, an
    index range whatever the log's length), sealed parts included: the caller redacts them."""
    return _event_rows(db, table_id, limit=limit, after=seq)


def log_page(db, table_id: int, viewer: str | None, before: int | None = None,
             size: int = 100) -> list[dict]:
    """One page of the log, newest first: ``size`` events older than ``before`` (an index range,
    whatever the log's length), as a seat of side ``viewer`` may see them."""
    return hidden.for_viewer(_event_rows(db, table_id, limit=size, newest_first=True, before=before), viewer)


def move_at(db, table_id: int, seq: int) -> dict | None:
    """One event's time, seat, type, label, payload (parsed) and withdrawn mark, or None."""
    found = db.execute("select ts, seat, type, label, payload, withdrawn from events where table_id = ? and seq = ?",
                       [table_id, seq]).fetchone()
    return None if found is None else {"ts": found[0], "seat": found[1], "type": found[2], "label": found[3],
                                       "payload": json.loads(found[4]), "withdrawn": bool(found[5])}


def moves_in_force_before(db, table_id: int, seq: int, back: int, type_: str, not_by: str) -> list[dict]:
    """The moves of ``type_`` in force among the ``back`` events before ``seq`` that a seat other than
    ``not_by`` made, newest first: seq, ts, seat, label, payload (parsed) and said (its message) each."""
    return [{"seq": r[0], "ts": r[1], "seat": r[2], "label": r[3], "payload": json.loads(r[4]),
             "said": None if r[5] is None else json.loads(r[5])} for r in db.execute(
        "select seq, ts, seat, label, payload, said from events where table_id = ? and seq < ? and seq >= ?"
        " and type = ? and withdrawn = 0 and seat != ? order by seq desc", [table_id, seq, seq - back, type_, not_by])]


def mark_imported(db, code: str, origin: str, locked: dict) -> None:
    """Where an imported table came from, and which of its sides are locked (inside the import's write)."""
    db.conn.execute("update tables set imported = ?, locked = ? where code = ?", [origin, json.dumps(locked), code])


def state_for(row: dict, viewer: str | None) -> dict:
    """A table row whose state shows only what a seat of side ``viewer`` may read."""
    return {**row, "state": hidden.for_viewer(row["state"], viewer)}


def board_log(db, table_id: int, viewer: str | None, rolls: int = 4, row: dict | None = None) -> dict:
    """What the board shows of the log: the labels undo and redo would act on ("Anna: Victory HP -3")
    and their seqs (what the buttons send as ``expect``), and the latest few rolls and draws
    (withdrawn ones marked; four keep the board short on a phone, issue 28 §1, the log page has them
    all), as a seat of side ``viewer`` may see them (labels never hold a secret; payloads
    may); a few indexed reads, whatever the log's length.  ``row``: the table as the caller read
    it, so a board drawn for its seq names that seq's undo and rolls even if a move came in since."""
    undo, redo = _next_undo(db, table_id, row=row), _next_undo(db, table_id, redo=True, row=row)
    before = row["seq"] + 1 if row else None
    return {"undo": undo[1] if undo else None, "undo_seq": undo[0] if undo else None,
            "undo_said": undo[2] if undo else None, "redo_said": redo[2] if redo else None,
            "redo": redo[1] if redo else None, "redo_seq": redo[0] if redo else None,
            "rolls": hidden.for_viewer(_event_rows(db, table_id, True, rolls, True, before), viewer) if rolls else []}


def history(db, code: str) -> dict:
    """What undo and redo would do next, as labels."""
    log = board_log(db, _row(db, code)["id"], None, rolls=0)
    return {"undo": log["undo"], "redo": log["redo"]}


# The import and export live in companion.replay, which builds on the functions above.


def delete_table(db, code: str) -> None:
    """The host deletes the table and everything of it."""
    with write_lock(db, code=code):
        found = db.execute("select id from tables where code = ?", [code]).fetchone()
        if found:
            for name in ("events", "snapshots", "seats", "board_steps"):
                db.conn.execute(f"delete from {name} where table_id = ?", [found[0]])
            db.conn.execute("delete from tables where id = ?", [found[0]])
