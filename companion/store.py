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

from companion import actions, import_check
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
def m003_library_owner(db: Database) -> None:
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
    with db.ensure_autocommit_on():
        db.execute("PRAGMA journal_mode=wal")
    db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across app crashes
    db.execute("PRAGMA busy_timeout=10000")
    if migrate:
        fd = _lock_fd(db)
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # two workers starting at once must not both migrate
        try:
            migrations.apply(db)
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
    return db


# Writers queue on a thread lock (within a process) and an flock on a file beside the database
# (between server processes): both wake the next writer at once, while SQLite's own busy handler
# sleeps 1, 2, 5, 10 ... ms between retries, which was the whole p99 of simultaneous taps.
# BEGIN IMMEDIATE and the busy timeout still guard any writer that does not take these locks.
_writers = threading.Lock()
_lock_files: dict[str, int] = {}


def _lock_fd(db: Database) -> int | None:
    path = db.execute("pragma database_list").fetchone()[2]
    if not path:
        return None  # in-memory database: one process only
    if path not in _lock_files:
        _lock_files[path] = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    return _lock_files[path]


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
                  chance: bool, target=None, ts=None) -> None:
    db.conn.execute(
        "insert into events (table_id, seq, ts, seat, side, type, label, payload, chance, target)"
        " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [table_id, seq, ts or now(), seat, side, payload["type"], label, json.dumps(payload),
         int(chance), target])


def create(db: Database, system, args: dict, ctx: Ctx) -> dict:
    """Create a table: its first event sets it up.  Returns the row (with the two secrets)."""
    payload = actions.prepare({}, {**args, "type": "create-table"}, ctx)
    state, label = actions.attempt({}, payload)
    with write_lock(db):
        code, table_id = _insert_table(db, system.slug, state, 1, system.version)
        _insert_event(db, table_id, 1, ctx.seat, ctx.side, payload, label, False)
    return table(db, code)


def _insert_table(db: Database, system: str, state: dict, seq: int, content_version: str) -> tuple[str, int]:
    """A new table row with a fresh code and two fresh 128-bit secrets (inside a write lock)."""
    code = _new_code(db)
    cur = db.conn.execute(
        "insert into tables (code, system, name, created, player_secret, spectator_secret, state,"
        " seq, finished, content_version) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [code, system, state["name"], now(), secrets.token_urlsafe(16), secrets.token_urlsafe(16),
         json.dumps(state), seq, int(state["finished"]), content_version])
    return code, cur.lastrowid


def act(db: Database, code: str, args: dict, ctx: Ctx, expect_seq: int | None = None) -> dict:
    """Validate, decide and apply one action in one transaction; returns seq, label, payload."""
    with write_lock(db):
        row = table(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but not changed.", "type")
        if expect_seq is not None and expect_seq != row["seq"]:
            raise Stale("The table changed since you looked; here is the fresh view.", "seq")
        payload = actions.prepare(row["state"], args, ctx)
        entry = actions.lookup(payload["type"], row["system"])
        if entry.type == "create-table":
            raise RuleError("A table is created only once.", "type")
        state, label = actions.attempt(row["state"], payload)
        seq = row["seq"] + 1
        _insert_event(db, row["id"], seq, ctx.seat, ctx.side, payload, label, entry.chance)
        db.conn.execute("update tables set state = ?, seq = ?, finished = ? where id = ?",
                        [json.dumps(state), seq, int(state["finished"]), row["id"]])
    return {"seq": seq, "label": label, "payload": payload, "state": state}


def _log(db: Database, table_id: int) -> list[dict]:
    return [{"seq": r[0], "type": r[1], "payload": json.loads(r[2])} for r in db.execute(
        "select seq, type, payload from events where table_id = ? order by seq", [table_id])]


def undo(db: Database, code: str, ctx: Ctx, redo: bool = False) -> dict:
    """Undo the last action in force (or redo the last undone one); replays the log once."""
    with write_lock(db):
        row = table(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but not changed.", "type")
        log = _log(db, row["id"])
        done, undone = actions.timeline(log)
        if redo and not undone:
            raise RuleError("Nothing to redo.", "redo")
        if not redo and len(done) <= 1:
            raise RuleError("Nothing to undo.", "undo")
        target = undone[-1] if redo else done[-1]
        target_label = db.execute("select label from events where table_id = ? and seq = ?",
                                  [row["id"], target]).fetchone()[0]
        seq = row["seq"] + 1
        kind = "redo" if redo else "undo"
        payload = {"type": kind, "target": target}
        log.append({"seq": seq, "type": kind, "payload": payload})
        state = actions.fold(log)
        label = f"{kind}: {target_label}"
        _insert_event(db, row["id"], seq, ctx.seat, ctx.side, payload, label, False, target)
        db.conn.execute("update tables set state = ?, seq = ? where id = ?",
                        [json.dumps(state), seq, row["id"]])
    return {"seq": seq, "label": label, "target": target, "state": state}


def _light(db: Database, table_id: int) -> list[dict]:
    """seq and type of every event: enough to work out the undo/redo timeline cheaply."""
    return [{"seq": r[0], "type": r[1]} for r in db.execute(
        "select seq, type from events where table_id = ? order by seq", [table_id])]


def _event_rows(db: Database, table_id: int, done: set, chance_only=False, limit=None, newest_first=False):
    where = "table_id = ?" + (" and chance = 1" if chance_only else "")
    sql = (f"select seq, ts, seat, side, type, label, payload, target from events where {where}"
           f" order by seq {'desc' if newest_first else 'asc'}" + (f" limit {int(limit)}" if limit else ""))
    out = []
    for seq, ts, seat, side, type_, label, payload, target in db.execute(sql, [table_id]):
        withdrawn = type_ not in ("undo", "redo") and seq not in done
        out.append({"seq": seq, "ts": ts, "seat": seat, "side": side, "type": type_, "label": label,
                    "withdrawn": withdrawn, "target": target, "payload": json.loads(payload)})
    return out


def events(db: Database, code: str, chance_only: bool = False, limit: int | None = None,
           newest_first: bool = False) -> list[dict]:
    """The log with each event marked withdrawn if it is (now) undone."""
    row = _row(db, code)
    done = set(actions.timeline(_light(db, row["id"]))[0])
    return _event_rows(db, row["id"], done, chance_only, limit, newest_first)


def board_log(db: Database, table_id: int, rolls: int = 8) -> dict:
    """What the board shows of the log, from one read of the timeline: the labels undo and redo
    would act on ("Anna: Victory HP -3") and the latest rolls and draws (withdrawn ones marked)."""
    done, undone = actions.timeline(_light(db, table_id))

    def label(seq):
        r = db.execute("select seat, label from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()
        return f"{r[0]}: {r[1]}" if r[0] else r[1]
    return {"undo": label(done[-1]) if len(done) > 1 else None,
            "redo": label(undone[-1]) if undone else None,
            "rolls": _event_rows(db, table_id, set(done), True, rolls, True)}


def history(db: Database, code: str) -> dict:
    """What undo and redo would do next, as labels."""
    log = board_log(db, _row(db, code)["id"], rolls=0)
    return {"undo": log["undo"], "redo": log["redo"]}


def export(db: Database, code: str) -> dict:
    row = _row(db, code)
    return {"format": EXPORT_FORMAT, "version": 1, "system": row["system"], "name": row["name"],
            "content_version": row["content_version"], "created": row["created"],
            "finished": bool(row["finished"]),
            "events": [{k: e[k] for k in ("seq", "ts", "seat", "side", "type", "label", "payload")}
                       for e in events(db, code)]}


def import_table(db: Database, doc: dict, systems: dict) -> dict:
    """Rebuild a table from an export: every event is replayed and checked before anything is stored."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise RuleError(f"This is not a companion table export (format must be {EXPORT_FORMAT!r}).", "file")
    system = systems.get(doc.get("system")) if isinstance(doc.get("system"), str) else None
    if system is None:
        raise RuleError(f"Unknown system {str(doc.get('system'))[:40]!r} in the export.", "file")
    log = doc.get("events")
    if not isinstance(log, list) or not log or len(log) > MAX_EVENTS_IMPORT:
        raise RuleError(f"The export needs 1 to {MAX_EVENTS_IMPORT} events.", "file")
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
        state, labels = _replay(clean, system)
    except (RuleError, KeyError, TypeError, IndexError, ValueError, AttributeError, ZeroDivisionError,
            OverflowError, RecursionError) as exc:
        message = exc.message if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"
        raise RuleError(f"The export does not replay: {message}", "file") from None
    with write_lock(db):
        code, table_id = _insert_table(db, system.slug, state, len(clean), version)
        for ev, raw, label in zip(clean, log, labels):
            entry_chance = ev["type"] not in ("undo", "redo") and actions.lookup(
                ev["type"], system.slug).chance
            _insert_event(db, table_id, ev["seq"], str(raw.get("seat", ""))[:40], raw.get("side"),
                          ev["payload"], label, entry_chance,
                          ev["payload"]["target"] if ev["type"] in ("undo", "redo") else None, raw.get("ts"))
    return table(db, code)


def _replay(log: list[dict], system=None) -> tuple[dict, list[str]]:
    """Play the log as the table was played: each action on the state it met (so its label is the
    one the app writes, never the document's), each undo/redo as a fold of the log so far.  With
    ``system``, each event is first checked as a live action would be (companion.import_check)."""
    state: dict = {}
    labels: list[str] = []
    for i, ev in enumerate(log):
        if system is not None:
            import_check.check_event(state, ev, system)
        if ev["type"] in ("undo", "redo"):
            state = actions.fold(log[:i + 1])
            labels.append(f"{ev['type']}: {labels[ev['payload']['target'] - 1]}")
        else:
            state, label = actions.attempt(state, ev["payload"])
            labels.append(label)
        if system is not None:
            import_check.check_state(ev["seq"], ev["type"], state)
    return state, labels


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
