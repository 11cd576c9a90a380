"""The only module that writes SQL: tables, their event logs, and the saved library.

One action = one transaction: ``BEGIN IMMEDIATE`` takes the write lock up front, the event is
appended and the cached state and ``seq`` updated together, or nothing is.  WAL mode lets polls
read while a write is under way.
"""
from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from companion import actions, hidden, import_check
from companion.actions import Ctx, Stale
from companion.rules import RuleError

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud across a table
EXPORT_FORMAT = "companion-table"
MAX_EVENTS_IMPORT = 20_000

migrations = Migrations("companion")


@migrations()
def m001_tables_and_events(db: Database) -> None:
    db["tables"].create({
        "id": int, "code": str, "system": str, "name": str, "created": str,
        "player_secret": str, "spectator_secret": str, "state": str, "seq": int,
        "finished": int, "content_version": str,
    }, pk="id", not_null={"code", "system", "state", "seq"}, defaults={"finished": 0, "seq": 0})
    db["tables"].create_index(["code"], unique=True)
    db["events"].create({
        "table_id": int, "seq": int, "ts": str, "seat": str, "side": str, "type": str,
        "label": str, "payload": str, "chance": int, "target": int,
    }, pk=("table_id", "seq"), foreign_keys=[("table_id", "tables", "id")])
    db["events"].create_index(["table_id", "chance", "seq"])


@migrations()
def m002_library(db: Database) -> None:
    db["library"].create({
        "id": int, "system": str, "kind": str, "name": str, "data": str, "created": str, "updated": str,
    }, pk="id", not_null={"system", "kind", "name", "data"})
    db["library"].create_index(["system", "kind", "name"], unique=True)


@migrations()
def m003_undo_chain(db: Database) -> None:
    """Undo without the whole log: the done stack as links between events, withdrawn marks kept on
    the events, and periodic snapshots of the folded state (see _state_at).  Existing logs are
    linked here once, from their undo/redo events."""
    db["events"].add_column("link", int)
    db["events"].add_column("withdrawn", int, not_null_default=0)
    db["events"].add_column("since_snap", int, not_null_default=0)
    db["tables"].add_column("done_top", int)
    db["tables"].add_column("undone_event", int)
    db["snapshots"].create({"table_id": int, "seq": int, "state": str}, pk=("table_id", "seq"))
    for (table_id,) in db.execute("select id from tables").fetchall():
        done: list[int] = []
        undone: list[int] = []  # undo events, newest last
        target_of: dict[int, int] = {}
        since: dict[int, int] = {}
        for seq, type_, target in db.execute("select seq, type, target from events where table_id = ?"
                                             " order by seq", [table_id]).fetchall():
            if type_ == "undo":
                link, undone_link = done.pop(), (undone[-1] if undone else None)
                target_of[seq] = link
                db.execute("update events set withdrawn = 1 where table_id = ? and seq = ?", [table_id, link])
                db.execute("update events set link = ? where table_id = ? and seq = ?", [undone_link, table_id, seq])
                undone.append(seq)
            elif type_ == "redo":
                back = target_of[undone.pop()]
                done.append(back)
                db.execute("update events set withdrawn = 0 where table_id = ? and seq = ?", [table_id, back])
            else:
                parent = done[-1] if done else None
                since[seq] = since[parent] + 1 if parent is not None else 0
                db.execute("update events set link = ?, since_snap = ? where table_id = ? and seq = ?",
                           [parent, since[seq], table_id, seq])
                done.append(seq)
                if type_ != "create-table":
                    undone.clear()
        db.execute("update tables set done_top = ?, undone_event = ? where id = ?",
                   [done[-1] if done else None, undone[-1] if undone else None, table_id])


# A snapshot of the folded state every this many links of the done stack: undo and redo then
# apply at most this many events whatever the log's length (scripts/benchmark.py measures it).
SNAPSHOT_EVERY = 64


@migrations()
def m004_library_owner(db: Database) -> None:
    """Whose an item is: the code of the table that saved it (empty: anyone's, as before)."""
    db["library"].add_column("owner", str)


class NotFound(LookupError):
    """No such table (or not for these credentials): answered 404 without a hint."""


class Finished(RuleError):
    """The table is finished: browsable, no longer changeable (409)."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def open_db(path, migrate: bool = True) -> Database:
    """Open (and migrate) the database file; WAL, a busy timeout for concurrent writers."""
    conn = sqlite3.connect(str(path), timeout=10, check_same_thread=False)
    db = Database(conn)
    db.execute("PRAGMA busy_timeout=10000")
    _writers.acquire()
    fd = _lock_fd(db)
    if fd is not None:
        # Workers starting at once on a fresh file: switching to WAL and migrating both need the
        # file to themselves, so both happen under the lock every writer takes (never "database is
        # locked" at start-up).
        fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with db.ensure_autocommit_on():
            db.execute("PRAGMA journal_mode=wal")
        if migrate:
            migrations.apply(db)
    finally:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        _writers.release()
    db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across app crashes
    return db


# Writers queue on a thread lock (within a process) and an flock on a file beside the database
# (between server processes): both wake the next writer at once, while SQLite's own busy handler
# sleeps 1, 2, 5, 10 ... ms between retries, which was the whole p99 of simultaneous taps.
# BEGIN IMMEDIATE and the busy timeout still guard any writer that does not take these locks.
_writers = threading.Lock()
_lock_files: dict[tuple[int, str], int] = {}


def _lock_fd(db: Database) -> int | None:
    path = db.execute("pragma database_list").fetchone()[2]
    if not path:
        return None  # in-memory database: one process only
    # One open per process: a forked worker must not use its parent's descriptor, or the flock
    # (held per open file, not per process) would not keep the workers apart.
    key = (os.getpid(), path)
    if key not in _lock_files:
        _lock_files[key] = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    return _lock_files[key]


@contextmanager
def write_lock(db: Database):
    """A write transaction that takes the lock up front (no upgrade deadlocks between writers)."""
    with _writers:
        fd = _lock_fd(db)
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                db.conn.execute("ROLLBACK")
                raise
            else:
                db.conn.execute("COMMIT")
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)


def _row(db: Database, code: str) -> dict:
    rows = list(db.query("select * from tables where code = ?", [code]))
    if not rows:
        raise NotFound(code)
    return rows[0]


def table(db: Database, code: str) -> dict:
    """A table's row with its state decoded."""
    row = _row(db, code)
    row["state"] = json.loads(row["state"])
    return row


def table_seq(db: Database, code: str) -> int | None:
    """Just the sequence number: what a poll compares (one indexed read)."""
    row = db.execute("select seq from tables where code = ?", [code]).fetchone()
    return row[0] if row else None


def _new_code(db: Database) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if not db.execute("select 1 from tables where code = ?", [code]).fetchone():
            return code


def _insert_event(db, table_id: int, seq: int, seat: str, side, payload: dict, label: str,
                  chance: bool, target=None, ts=None, link=None, since_snap=0) -> None:
    db.conn.execute(
        "insert into events (table_id, seq, ts, seat, side, type, label, payload, chance, target, link,"
        " since_snap) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [table_id, seq, ts or now(), seat, side, payload["type"], label, json.dumps(payload),
         int(chance), target, link, since_snap])


def create(db: Database, system, args: dict, ctx: Ctx) -> dict:
    """Create a table: its first event sets it up.  Returns the row (with the two secrets)."""
    payload = actions.prepare({}, {**args, "type": "create-table"}, ctx)
    with write_lock(db):
        code = _insert_table(db, system.slug, system.version)
        _append_action(db, table(db, code), payload, ctx.seat, ctx.side)
    return table(db, code)


def _insert_table(db: Database, system: str, content_version: str) -> str:
    """A new, empty table row with a fresh code and two fresh 128-bit secrets (inside a write lock);
    its create-table event follows at once and fills it."""
    code = _new_code(db)
    db.conn.execute(
        "insert into tables (code, system, name, created, player_secret, spectator_secret, state,"
        " seq, finished, content_version) values (?, ?, '', ?, ?, ?, '{}', 0, 0, ?)",
        [code, system, now(), secrets.token_urlsafe(16), secrets.token_urlsafe(16), content_version])
    return code


def act(db: Database, code: str, args: dict, ctx: Ctx, expect_seq: int | None = None) -> dict:
    """Validate, decide and apply one action in one transaction; returns seq, label, payload."""
    with write_lock(db):
        row = table(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but not changed.", "type")
        if expect_seq is not None and expect_seq != row["seq"]:
            raise Stale("The table changed since you looked; here is the fresh view.", "seq")
        payload = actions.prepare(row["state"], args, ctx)
        if payload["type"] == "create-table":
            raise RuleError("A table is created only once.", "type")
        seq, label, state = _append_action(db, row, payload, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "payload": payload, "state": state}


# --- the undo chain -------------------------------------------------------------------------------
# The actions in force form a stack (undo pops its top, redo pushes back what the last undo took,
# a new action clears what could be redone).  Each action event links to the action below it on
# that stack (events.link) and the table keeps the top (tables.done_top); each undo event links to
# the undo before it whose target can still be redone (tables.undone_event is the newest).  While
# an action is in force, the actions in force below it never change, so the state after it is
# fixed: snapshots of it every SNAPSHOT_EVERY links bound the work of undo whatever the log length.

def _link(db: Database, table_id: int, seq: int) -> tuple:
    """(link, target, since_snap) of one event: the chain alone, never its payload (hot path)."""
    return db.execute("select link, target, since_snap from events where table_id = ? and seq = ?",
                      [table_id, seq]).fetchone()


def _text(db: Database, table_id: int, seq: int) -> tuple[str, str]:
    """(label, payload) of one event, read only where undo/redo needs them."""
    return db.execute("select label, payload from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()


def _append_action(db: Database, row: dict, payload: dict, seat: str, side, ts=None) -> tuple[int, str, dict]:
    """Apply one action event on the table's state and store it, linked on the undo chain."""
    entry = actions.lookup(payload["type"], row["system"])
    state, label = actions.attempt(row["state"], payload)
    seq, parent = row["seq"] + 1, row.get("done_top")
    since = 0 if parent is None else _link(db, row["id"], parent)[2] + 1
    if since >= SNAPSHOT_EVERY or parent is None:
        since = 0
        db.conn.execute("insert or replace into snapshots (table_id, seq, state) values (?, ?, ?)",
                        [row["id"], seq, json.dumps(state)])
    _insert_event(db, row["id"], seq, seat, side, payload, label, entry.chance, ts=ts, link=parent,
                  since_snap=since)
    db.conn.execute("update tables set state = ?, seq = ?, finished = ?, done_top = ?, undone_event = NULL,"
                    " name = ? where id = ?",
                    [json.dumps(state), seq, int(state["finished"]), seq, state["name"], row["id"]])
    row.update(state=state, seq=seq, finished=int(state["finished"]), done_top=seq, undone_event=None)
    return seq, label, state


def _state_at(db: Database, table_id: int, top: int) -> dict:
    """The state with every action in force up to ``top``: its snapshot plus at most
    SNAPSHOT_EVERY actions down the chain (a log linked before snapshots existed folds from seq 1)."""
    chain = []
    seq = top
    while seq is not None:
        snap = db.execute("select state from snapshots where table_id = ? and seq = ?", [table_id, seq]).fetchone()
        if snap:
            state = json.loads(snap[0])
            break
        chain.append(json.loads(_text(db, table_id, seq)[1]))
        seq = _link(db, table_id, seq)[0]
    else:
        state = {}
    for payload in reversed(chain):
        actions.apply(state, payload)
    return state


def _append_undo(db: Database, row: dict, redo: bool, seat: str, side, ts=None) -> tuple[int, str, int, dict]:
    """Undo the action on top of the chain (or redo the last one undone) and store the event."""
    table_id, seq = row["id"], row["seq"] + 1
    if redo:
        if row.get("undone_event") is None:
            raise RuleError("Nothing to redo.", "redo")
        undone_link, target = _link(db, table_id, row["undone_event"])[:2]
        target_label, payload = _text(db, table_id, target)
        state, _ = actions.attempt(row["state"], json.loads(payload))  # the top again: apply it once more
        top, undone, link, withdrawn = target, undone_link, None, 0
    else:
        target = row.get("done_top")
        parent = _link(db, table_id, target)[0]
        target_label = _text(db, table_id, target)[0]
        if parent is None:
            raise RuleError("Nothing to undo.", "undo")
        state = _state_at(db, table_id, parent)
        top, undone, link, withdrawn = parent, seq, row.get("undone_event"), 1
    kind = "redo" if redo else "undo"
    label = f"{kind}: {target_label}"
    _insert_event(db, table_id, seq, seat, side, {"type": kind, "target": target}, label, False, target,
                  ts=ts, link=link)
    db.conn.execute("update events set withdrawn = ? where table_id = ? and seq = ?", [withdrawn, table_id, target])
    db.conn.execute("update tables set state = ?, seq = ?, done_top = ?, undone_event = ? where id = ?",
                    [json.dumps(state), seq, top, undone, table_id])
    row.update(state=state, seq=seq, done_top=top, undone_event=undone)
    return seq, label, target, state


def undo(db: Database, code: str, ctx: Ctx, redo: bool = False) -> dict:
    """Undo the last action in force (or redo the last undone one): a snapshot and a short chain."""
    with write_lock(db):
        row = table(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but not changed.", "type")
        seq, label, target, state = _append_undo(db, row, redo, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "target": target, "state": state}


def _event_rows(db: Database, table_id: int, chance_only=False, limit=None, newest_first=False):
    where = "table_id = ?" + (" and chance = 1" if chance_only else "")
    sql = (f"select seq, ts, seat, side, type, label, payload, target, withdrawn, chance from events where {where}"
           f" order by seq {'desc' if newest_first else 'asc'}" + (f" limit {int(limit)}" if limit else ""))
    return [{"seq": seq, "ts": ts, "seat": seat, "side": side, "type": type_, "label": label,
             "withdrawn": bool(withdrawn), "target": target, "payload": json.loads(payload), "chance": bool(chance)}
            for seq, ts, seat, side, type_, label, payload, target, withdrawn, chance in db.execute(sql, [table_id])]


def events(db: Database, code: str, chance_only: bool = False, limit: int | None = None,
           newest_first: bool = False) -> list[dict]:
    """The whole log, sealed parts included (replay, tests), each event marked withdrawn if it is
    (now) undone.  What a seat is shown comes from ``events_for``."""
    return _event_rows(db, _row(db, code)["id"], chance_only, limit, newest_first)


def events_for(db: Database, code: str, viewer: str | None, newest_first: bool = False) -> list[dict]:
    """The log as a seat of side ``viewer`` may see it (None: a spectator): other sides' secrets out."""
    return hidden.for_viewer(events(db, code, newest_first=newest_first), viewer)


def state_for(row: dict, viewer: str | None) -> dict:
    """A table row whose state shows only what a seat of side ``viewer`` may read."""
    return {**row, "state": hidden.for_viewer(row["state"], viewer)}


def board_log(db: Database, table_id: int, viewer: str | None, rolls: int = 8) -> dict:
    """What the board shows of the log: the labels undo and redo would act on ("Anna: Victory HP -3")
    and the latest rolls and draws (withdrawn ones marked), as a seat of side ``viewer`` may see them
    (labels never hold a secret; payloads may); a few indexed reads, whatever the log's length."""
    top, undone_event = db.execute("select done_top, undone_event from tables where id = ?", [table_id]).fetchone()

    def label(seq):
        r = db.execute("select seat, label from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()
        return f"{r[0]}: {r[1]}" if r[0] else r[1]
    can_undo = top is not None and _link(db, table_id, top)[0] is not None
    redo_target = _link(db, table_id, undone_event)[1] if undone_event is not None else None
    return {"undo": label(top) if can_undo else None,
            "redo": label(redo_target) if redo_target is not None else None,
            "rolls": hidden.for_viewer(_event_rows(db, table_id, True, rolls, True), viewer)}


def history(db: Database, code: str) -> dict:
    """What undo and redo would do next, as labels."""
    log = board_log(db, _row(db, code)["id"], None, rolls=0)
    return {"undo": log["undo"], "redo": log["redo"]}


def export_for(db: Database, code: str, viewer: str | None, server_key: str) -> dict:
    """An export made by a seat of side ``viewer``: its own side's sealed parts in clear, every
    other side's boxed with the server's key (re-importable here, exactly; unreadable elsewhere).
    See companion/hidden.py and docs/hidden-information.md."""
    return hidden.for_export(export(db, code), viewer, server_key)


def export(db: Database, code: str) -> dict:
    """The full export, sealed parts in clear: only for the host's own use and tests."""
    row = _row(db, code)
    return {"format": EXPORT_FORMAT, "version": 1, "system": row["system"], "name": row["name"],
            "content_version": row["content_version"], "created": row["created"],
            "finished": bool(row["finished"]),
            "events": [{k: e[k] for k in ("seq", "ts", "seat", "side", "type", "label", "payload")}
                       for e in events(db, code)]}


def import_table(db: Database, doc: dict, systems: dict, server_key: str | None = None) -> dict:
    """Rebuild a table from an export: every event is replayed and checked before anything is stored.
    Boxed sealed parts (an export made by one side's seat) are opened with ``server_key`` first."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise RuleError(f"This is not a companion table export (format must be {EXPORT_FORMAT!r}).", "file")
    system = systems.get(doc.get("system")) if isinstance(doc.get("system"), str) else None
    if system is None:
        raise RuleError(f"Unknown system {str(doc.get('system'))[:40]!r} in the export.", "file")
    log = doc.get("events")
    if not isinstance(log, list) or not log or len(log) > MAX_EVENTS_IMPORT:
        raise RuleError(f"The export needs 1 to {MAX_EVENTS_IMPORT} events.", "file")
    log = hidden.open_export(log, server_key)
    version = doc.get("content_version") or system.version
    if not isinstance(version, str) or len(version) > 64:
        raise RuleError("The export's content_version is not a version.", "file")
    clean = []
    for i, ev in enumerate(log, start=1):
        if not isinstance(ev, dict) or ev.get("seq") != i or not isinstance(ev.get("payload"), dict) \
                or ev.get("type") != ev["payload"].get("type"):
            raise RuleError(f"Event {i} of the export is damaged (seq, type or payload).", "file")
        import_check.check_envelope(ev)
        clean.append({"seq": i, "type": ev["type"], "payload": ev["payload"]})
    if clean[0]["type"] != "create-table" or clean[0]["payload"].get("system") != system.slug:
        raise RuleError("The export must start with the table's create-table event.", "file")
    try:
        _check_replay(clean)
        with write_lock(db):  # any refusal rolls the whole import back
            code = _insert_table(db, system.slug, version)
            row = table(db, code)  # kept current by each append
            for ev, raw in zip(clean, log):
                _replay_event(db, row, ev, raw, system)
    except (RuleError, KeyError, TypeError, IndexError, ValueError, AttributeError, ZeroDivisionError,
            OverflowError, RecursionError) as exc:
        message = exc.message if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"
        raise RuleError(f"The export does not replay: {message}", "file") from None
    return table(db, code)


def _replay_event(db: Database, row: dict, ev: dict, raw: dict, system) -> None:
    """One imported event through the same path as live play: checked first as a live action
    would be (companion.import_check), its label the app's own, never the document's, and
    undo/redo through the chain and snapshots (an import costs what the game did)."""
    import_check.check_event(row["state"], ev, system)
    seat, side, ts = str(raw.get("seat", ""))[:40], raw.get("side"), raw.get("ts")
    if ev["type"] in ("undo", "redo"):
        _append_undo(db, row, ev["type"] == "redo", seat, side, ts)
    else:
        _append_action(db, row, ev["payload"], seat, side, ts)
    import_check.check_state(ev["seq"], ev["type"], row["state"])


def _check_replay(log: list[dict]) -> None:
    """Undo/redo targets must be what the timeline says they are (a hand-edited file is refused)."""
    done, undone = [], []
    for ev in log:
        if ev["type"] in ("undo", "redo"):
            stack = done if ev["type"] == "undo" else undone
            if not stack or stack[-1] != ev["payload"].get("target") or (ev["type"] == "undo" and len(done) <= 1):
                raise RuleError(f"event {ev['seq']} {ev['type']}s the wrong event", "file")
            (undone if ev["type"] == "undo" else done).append(stack.pop())
        else:
            done.append(ev["seq"])
            if ev["seq"] > 1:
                undone.clear()
            if ev["type"] == "create-table" and ev["seq"] != 1:
                raise RuleError(f"event {ev['seq']} creates the table again", "file")


# --- the library: fleets, warship cards, decks saved for the next game ----------------------------

def library_items(db: Database, system: str, kind: str | None = None) -> list[dict]:
    sql = "select id, system, kind, name, data, updated from library where system = ?"
    params = [system]
    if kind:
        sql += " and kind = ?"
        params.append(kind)
    return [{**r, "data": json.loads(r["data"])} for r in db.query(sql + " order by kind, name", params)]


def library_item(db: Database, item_id: int) -> dict:
    rows = list(db.query("select * from library where id = ?", [item_id]))
    if not rows:
        raise NotFound(str(item_id))
    return {**rows[0], "data": json.loads(rows[0]["data"])}


def library_save(db: Database, system: str, kind: str, name: str, data: dict, owner: str | None = None,
                 host: bool = False) -> int:
    """Save (or replace, by name) one item: a fleet, a warship card, a deck definition.  ``owner``
    (the saving table's code) is recorded on a new item; an item another table owns is changed
    only by that table or the host (``library_owned``)."""
    with write_lock(db):
        existing = db.execute("select id, owner from library where system = ? and kind = ? and name = ?",
                              [system, kind, name]).fetchone()
        if existing:
            library_owned(existing[1], owner, host, name)
            db.conn.execute("update library set data = ?, updated = ? where id = ?",
                            [json.dumps(data), now(), existing[0]])
            return existing[0]
        cur = db.conn.execute(
            "insert into library (system, kind, name, data, created, updated, owner) values (?, ?, ?, ?, ?, ?, ?)",
            [system, kind, name, json.dumps(data), now(), now(), owner])
        return cur.lastrowid


def library_owned(item_owner: str | None, owner: str | None, host: bool, name: str) -> None:
    """An owned item is changed only by its own table or by the host; RuleError otherwise."""
    if item_owner and not host and owner != item_owner:
        raise RuleError(f"{name!r} was saved at another table: only that table's players or the host "
                        "can change or delete it; save yours under another name.", "name")


def library_delete(db: Database, item_id: int, owner: str | None = None, host: bool = False) -> None:
    with write_lock(db):
        row = db.execute("select owner, name from library where id = ?", [item_id]).fetchone()
        if row:
            library_owned(row[0], owner, host, row[1])
        db.conn.execute("delete from library where id = ?", [item_id])
