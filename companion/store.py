"""The only module that writes SQL: tables, their event logs, and the saved library.

One action = one transaction: ``BEGIN IMMEDIATE`` takes the write lock up front, the event is
appended and the cached state and ``seq`` updated together, or nothing is.  WAL mode lets polls
read while a write is under way.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager

from gevent import get_hub
from gevent.monkey import get_original, is_module_patched
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from companion import actions, hidden, roster
from companion import take_back as tb  # (store.take_back is the locked write of one)
from companion.actions import Ctx
from companion.errors import Finished, Moved, RuleError, Stale
from companion.undo_chain import SNAPSHOT_EVERY, _append_action, _append_undo, _insert_event, _link, _state_at, _text, now  # noqa: F401

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud across a table

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
        undo_of: dict[int, int] = {}  # an undone move -> the undo event that took it back
        since: dict[int, int] = {}

        def link(ev: dict, done: list[int], undone: list[int], table_id=table_id, undo_of=undo_of, since=since) -> None:
            """Each event's link, withdrawn mark and distance from a snapshot, from the undo stack
            (actions.timeline) as it stands before the event takes effect."""
            seq = ev["seq"]
            if ev["type"] == "undo":
                undo_of[done[-1]] = seq
                db.execute("update events set withdrawn = 1 where table_id = ? and seq = ?", [table_id, done[-1]])
                db.execute("update events set link = ? where table_id = ? and seq = ?",
                           [undo_of[undone[-1]] if undone else None, table_id, seq])
            elif ev["type"] == "redo":
                db.execute("update events set withdrawn = 0 where table_id = ? and seq = ?", [table_id, undone[-1]])
            else:
                parent = done[-1] if done else None
                since[seq] = since[parent] + 1 if parent is not None else 0
                db.execute("update events set link = ?, since_snap = ? where table_id = ? and seq = ?",
                           [parent, since[seq], table_id, seq])
        log = [{"seq": seq, "type": type_} for seq, type_ in
               db.execute("select seq, type from events where table_id = ? order by seq", [table_id]).fetchall()]
        done, undone = actions.timeline(log, link)
        db.execute("update tables set done_top = ?, undone_event = ? where id = ?",
                   [done[-1] if done else None, undo_of[undone[-1]] if undone else None, table_id])


@migrations()
def m004_library_owner(db: Database) -> None:
    """Whose an item is: the code of the table that saved it (empty: anyone's, as before)."""
    db["library"].add_column("owner", str)


@migrations()
def m005_drawn(db: Database) -> None:
    """Pages drawn for one view of a table at one seq (the board fragment, the battle report):
    rendered once per change and served to every phone with that view (companion/drawn.py)."""
    db["drawn"].create({"table_id": int, "seq": int, "view": str, "html": str, "meta": str},
                       pk=("table_id", "seq", "view"))


@migrations()
def m006_taken_back(db: Database) -> None:
    """Which take-back withdrew a move still in force (companion/take_back.py): the log marks it."""
    db["events"].add_column("taken_back", int)


@migrations()
def m007_reveal_labels_without_text(db: Database) -> None:
    """A reveal's label no longer carries the sealed text (issue 30 §2: an undone reveal's line, its
    undo's and the Redo button kept showing it): labels stored before say the part's id instead,
    and the pages drawn with the old labels are dropped."""
    import re
    old = re.compile(r"^(.*?): sealed (\S+) revealed: ")
    for table_id, seq, label in db.execute(
            "select table_id, seq, label from events where type = 'reveal'").fetchall():
        found = old.match(label)
        if not found:
            continue
        new = f"{found.group(1)}: sealed {found.group(2)} revealed"  # (m012: no part id either)
        db.execute("update events set label = ? where table_id = ? and seq = ?", [new, table_id, seq])
        for kind in ("undo", "redo"):
            db.execute("update events set label = ? where table_id = ? and target = ? and type = ?",
                       [f"{kind}: {new}", table_id, seq, kind])
    if db["drawn"].exists():  # (gone since m009: boards are kept in memory)
        db.execute("delete from drawn")


@migrations()
def m009_boards_in_memory(db: Database) -> None:
    """Boards are kept in each server process's memory now (companion/board/keep.py: a read never
    writes); what they read besides the table is the library, whose revision names them."""
    db["drawn"].drop(ignore=True)
    db["revisions"].create({"name": str, "n": int}, pk="name")
    db["revisions"].insert({"name": "library", "n": 0})


@migrations()
def m008_imported(db: Database) -> None:
    """Where an imported table came from (companion/export_signature.py): "signed" (this server's
    own export, unchanged) or "not signed" (edited, or made elsewhere); NULL for a table made here."""
    db["tables"].add_column("imported", str)


@migrations()
def m010_joins(db: Database) -> None:
    """Who sits at a table is read from its join events (companion/roster.py) at every board drawn:
    a partial index finds them without scanning the log (it holds the joins alone)."""
    db.execute("create index if not exists events_joins on events (table_id, seq) where type = 'join'")


@migrations()
def m011_seats(db: Database) -> None:
    """A seat belongs to its phone (issue 37): a row per seat with a hash of the seat's own token,
    which the phone's cookie (or an API client's Bearer) carries; nothing a phone sends names its
    side.  The seats the log already records are kept as seats no phone holds yet ("empty chairs",
    no token): a phone that still has the cookie of before claims its chair once (web.seats), a new
    phone asks for it.  ``tables.locked``: the sides of an imported table whose sealed parts no seat
    may read until that side proves itself with its own export (hidden.py)."""
    db["seats"].create({"id": int, "table_id": int, "token_hash": str, "name": str, "side": str, "role": str,
                        "host": int, "let_in_by": str, "created": str, "status": str},
                       pk="id", not_null={"table_id", "name", "role", "status"}, defaults={"host": 0})
    db.execute("create unique index seats_token on seats (token_hash) where token_hash is not null")
    db["seats"].create_index(["table_id", "status"])
    db["tables"].add_column("locked", str)
    for table_id, seq, state in db.execute("select id, seq, state from tables").fetchall():
        sides = json.loads(state).get("sides") or []
        for i, seat in enumerate(s for s in _seats(db, table_id, seq, sides) if s["role"] in roster.ROLES):
            db.execute("insert into seats (table_id, name, side, role, host, created, status) values (?, ?, ?, ?, ?, ?, ?)",
                       [table_id, seat["name"], seat["side"], seat["role"], int(i == 0), now(), SEATED])


@migrations()
def m012_reveal_labels_without_ids(db: Database) -> None:
    """A reveal's label names no internal id ("Falcon: sealed order revealed", issue 40 §3): labels
    stored with one (m007's) lose it, with their undo's and redo's."""
    import re
    with_id = re.compile(r"^((?:undo: |redo: )?.*?: sealed \S+) s\d+ revealed$")
    for table_id, seq, label in db.execute(
            "select table_id, seq, label from events where type in ('reveal', 'undo', 'redo') "
            "and label like '%sealed % revealed'").fetchall():
        found = with_id.match(label)
        if found:
            db.execute("update events set label = ? where table_id = ? and seq = ?",
                       [f"{found.group(1)} revealed", table_id, seq])


class NotFound(LookupError):
    """No such table (or not for these credentials): answered 404 without a hint."""


def open_db(path, migrate: bool = True) -> Database:
    """Open (and migrate) the database file; WAL, a busy timeout for concurrent writers."""
    conn = sqlite3.connect(str(path), timeout=10, check_same_thread=False)
    db = Database(conn)
    db.execute("PRAGMA busy_timeout=10000")
    # a server thread's connection to a file already set up (create_app migrated it) writes
    # nothing, so it waits for no lock (an import's slice, another worker's tap)
    if migrate or db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        _set_up(db, migrate)
    db.execute(f"PRAGMA synchronous={synchronous()}")
    return db


def _set_up(db: Database, migrate: bool) -> None:
    writers = _writers_lock()
    writers.acquire()
    fd = _lock_fd(db)
    if fd is not None:
        # Workers starting at once on a fresh file: switching to WAL and migrating both need the
        # file to themselves, so both happen under the lock every writer takes (never "database is
        # locked" at start-up).
        _take_flock(fd)
    try:
        with db.ensure_autocommit_on():
            db.execute("PRAGMA journal_mode=wal")
        if migrate:
            migrations.apply(db)
    finally:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        writers.release()


def synchronous() -> str:
    """How hard each commit waits for the disk.  FULL (the default): WAL + FULL syncs the log at
    every commit, so an acknowledged move survives a power cut or an OS crash too (the host is a
    laptop on battery or a Raspberry Pi on a cable, issue 30 §10; docs/performance.md has the
    cost).  NORMAL (``COMPANION_SYNCHRONOUS=NORMAL``) survives a crash of the app only: after a
    power cut the commits since the last checkpoint may roll back."""
    mode = os.environ.get("COMPANION_SYNCHRONOUS", "FULL").upper()
    return mode if mode in ("NORMAL", "FULL", "EXTRA") else "FULL"


# Writers queue on a thread lock (within a process) and an flock on a file beside the database
# (between server processes): both wake the next writer at once, while SQLite's own busy handler
# sleeps 1, 2, 5, 10 ... ms between retries, which was the whole p99 of simultaneous taps.
# BEGIN IMMEDIATE and the busy timeout still guard any writer that does not take these locks.
# The thread lock is made in each process on first use: one made at import in `companion serve`'s
# master would be a plain OS lock in its gevent workers, and a greenlet waiting on it there would
# stop the greenlet holding it (and so the whole worker) for good.
_writers: dict[int, threading.Lock] = {}
_os_sleep = get_original("time", "sleep")  # a real sleep of the thread, even where gevent patched time


def _writers_lock() -> threading.Lock:
    pid = os.getpid()
    return _writers.get(pid) or _writers.setdefault(pid, threading.Lock())


_lock_files: dict[tuple[int, str], int] = {}


def _lock_fd(db: Database) -> int | None:
    path = getattr(db, "_companion_path", None)
    if path is None:  # asked once per connection: every write takes this lock
        path = db._companion_path = db.execute("pragma database_list").fetchone()[2]
    if not path:
        return None  # in-memory database: one process only
    # One open per process: a forked worker must not use its parent's descriptor, or the flock
    # (held per open file, not per process) would not keep the workers apart.
    key = (os.getpid(), path)
    if key not in _lock_files:
        _lock_files[key] = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    return _lock_files[key]


FLOCK_SPIN = 0.02  # seconds a gevent worker waits for the other worker's write without yielding


def _take_flock(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # the other worker is writing
        if is_module_patched("threading"):
            # A gevent worker (companion/serving.py).  The other worker's write takes a millisecond or
            # two: it is waited for here, without yielding, for up to FLOCK_SPIN.  A greenlet that
            # yields while it holds this worker's writer lock leaves every other tap of the worker
            # queued behind it, each then handed the lock one turn of the loop after the last: at
            # 2,000 phones taps waited 0.7 s on average that way (docs/performance.md, 2026-11-27).
            # Longer (an import's write), one of the hub's threads waits for it and only this
            # greenlet waits for that thread: the worker's other requests go on.
            until = time.monotonic() + FLOCK_SPIN
            while time.monotonic() < until:
                _os_sleep(0.0002)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return
                except BlockingIOError:
                    pass
            get_hub().threadpool.apply(fcntl.flock, (fd, fcntl.LOCK_EX))
        else:
            fcntl.flock(fd, fcntl.LOCK_EX)


class Busy(Exception):
    """Another writer holds the write lock (``write_lock(wait=False)``)."""


@contextmanager
def write_lock(db: Database, wait: bool = True):
    """A write transaction that takes the lock up front (no upgrade deadlocks between writers).
    ``wait=False``: raise Busy at once instead of waiting for another writer (what a read does that
    only keeps what it drew: it never waits for, nor needs, the write lock; issue 30 item 6)."""
    writers = _writers_lock()
    if not writers.acquire(blocking=wait):
        raise Busy
    try:
        fd = _lock_fd(db)
        if fd is not None:
            if wait:
                _take_flock(fd)
            else:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise Busy from None
        try:
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                if db.conn.in_transaction:  # SQLite may have rolled back already (a full disk does)
                    db.conn.execute("ROLLBACK")
                raise
            else:
                db.conn.execute("COMMIT")
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        writers.release()


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


def table_head(db: Database, code: str) -> tuple[int, int, str] | None:
    """(id, seq, system) of a table: enough to find a kept board without reading the state."""
    return db.execute("select id, seq, system from tables where code = ?", [code]).fetchone()


def tables_listed(db: Database, codes) -> list[dict]:
    """What the lobby lists of the tables ``codes`` (a device's saved seats): code, name, system,
    finished and created of each that exists, in one query however many seats (issue 29)."""
    rows = db.execute("select code, name, system, finished, created from tables where code in "
                      "(select value from json_each(?))", [json.dumps(list(codes))]).fetchall()
    return [{"code": r[0], "name": r[1], "system": r[2], "finished": bool(r[3]), "created": r[4]} for r in rows]


def head_of(row: dict) -> tuple[int, int, str]:
    """(id, seq, system) of a table row the caller has already read: its table_head at that seq."""
    return row["id"], row["seq"], row["system"]


def disk_full(exc: BaseException) -> bool:
    """Whether SQLite refused a write because the disk (or the database's size limit) is full."""
    return isinstance(exc, sqlite3.OperationalError) and (
        getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc))


def _new_code(db: Database) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if not db.execute("select 1 from tables where code = ?", [code]).fetchone():
            return code


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


def act(db: Database, code: str, args: dict, ctx: Ctx, expect_seq: int | None = None,
        known: dict | None = None) -> dict:
    """Validate, decide and apply one action in one transaction; returns seq, label, payload, the
    new state and the table's row after it.  ``known``: the row as the caller read it just now,
    taken (and brought up to date) instead of reading it again if nothing was written since."""
    with write_lock(db):
        if known is not None and table_seq(db, code) == known["seq"]:
            row = known  # the seq moves with every write: the row read before the lock is the table
        else:
            row = table(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but not changed.", "type")
        if expect_seq is not None and expect_seq != row["seq"]:
            raise Stale("The table changed since you looked; here is the fresh view.", "seq")
        payload = actions.prepare(row["state"], args, ctx)
        if payload["type"] == "create-table":
            raise RuleError("A table is created only once.", "type")
        seq, label, state = _append_action(db, row, payload, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "payload": payload, "state": state, "row": row}


def join(db: Database, code: str, name: str, side: str | None, role: str) -> int | None:
    """Record that ``name`` sat down at the table (as a player on ``side``, or a spectator): an event
    of its own, outside the undo chain, that moves the table's seq so every phone's board follows
    (companion/roster.py).  Only a new or changed seat is written, and nothing once the game is
    finished; returns the event's seq, or None when nothing was written."""
    with write_lock(db):
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


def _append_join(db: Database, row: dict, payload: dict, ts=None) -> int:
    """Store a join (inside the caller's write lock): the seq moves, nothing else does (no state,
    no link on the undo chain: Undo, Redo and take-backs never meet it)."""
    seq = row["seq"] + 1
    _insert_event(db, row["id"], seq, payload["name"], payload["side"], payload, roster.label(payload), False)
    db.conn.execute("update tables set seq = ? where id = ?", [seq, row["id"]])
    row["seq"] = seq
    return seq


def _seats(db: Database, table_id: int, seq: int, sides: list[str]) -> list[dict]:
    rows = db.execute(
        "select seq, type, seat, side, payload from events where table_id = ?1 and type = 'join' and seq <= ?2"
        " union all select seq, type, seat, side, '{}' from events where table_id = ?1 and seq = 1"
        " order by seq", [table_id, seq]).fetchall()
    return roster.fold([{"seq": r[0], "type": r[1], "seat": r[2], "side": r[3], "payload": json.loads(r[4])}
                        for r in rows], sides)


def seated(db: Database, code: str, row: dict | None = None) -> list[dict]:
    """The seats at the table, in join order, one per name (companion/roster.py ``fold``); ``row``:
    the table as the caller read it (its state decoded), the roster as it stood at that seq."""
    row = row or table(db, code)
    return _seats(db, row["id"], row["seq"], row["state"]["sides"])


def undo(db: Database, code: str, ctx: Ctx, redo: bool = False, expect: int | None = None) -> dict:
    """Undo the last action in force (or redo the last undone one): a snapshot and a short chain.
    ``expect``: the seq of the event the caller means to take back (or bring back); checked in
    the same locked write, so a move another phone makes meanwhile is never the one undone."""
    with write_lock(db):
        row = table(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but not changed.", "type")
        if expect is not None:
            now = _next_undo(db, row["id"], redo)
            if now is None or now[0] != expect:
                kind = "Redo" if redo else "Undo"
                raise Moved(f"Another move came in since; look at the {kind} button again.", kind.lower(),
                            {"seq": now[0], "label": now[1]} if now else None)
        seq, label, target, state = tb.append_undo(db, row, redo, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "target": target, "state": state, "row": row}


def _next_undo(db: Database, table_id: int, redo: bool = False, row: dict | None = None) -> tuple[int, str] | None:
    """(seq, "seat: label") of the event undo (or redo) would act on now (or at ``row``, the
    table as the caller read it); None if there is none.  A few indexed reads, whatever the log's
    length."""
    top, undone_event = (row["done_top"], row["undone_event"]) if row else db.execute(
        "select done_top, undone_event from tables where id = ?", [table_id]).fetchone()
    if redo:
        seq = _link(db, table_id, undone_event)[1] if undone_event is not None else None
    else:
        seq = top if top is not None and _link(db, table_id, top)[0] is not None else None
    if seq is None:
        return None
    seat, label = db.execute("select seat, label from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()
    return seq, f"{seat}: {label}" if seat else label


def take_back(db: Database, code: str, targets, ctx: Ctx, instead: dict | None = None,
              expect_seq: int | None = None) -> dict:
    """Take back moves in force (``targets``, seqs), or correct one (``instead``: the same tracker
    change with another unit or amount), as one event; see companion/take_back.py."""
    payload = {"type": actions.TAKE_BACK, "targets": tb.clean_targets(targets)}
    with write_lock(db):
        row = table(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but not changed.", "type")
        if expect_seq is not None and expect_seq != row["seq"]:
            raise Stale("The table changed since you looked; here is the fresh view.", "seq")
        if instead is not None:
            payload["instead"] = tb.correction(db, row, payload["targets"][0], instead, ctx)
        tb.check_payload(payload)
        seq, label, state = tb.withdraw(db, row, payload, ctx.seat, ctx.side)
    return {"seq": seq, "label": label, "payload": payload, "state": state, "row": row}


def _event_rows(db: Database, table_id: int, chance_only=False, limit=None, newest_first=False, before=None,
                after=None):
    where = ("table_id = ?" + (" and chance = 1" if chance_only else "") + (" and seq < ?" if before else "")
             + (" and seq > ?" if after is not None else ""))
    sql = (f"select seq, ts, seat, side, type, label, payload, target, withdrawn, chance, taken_back from events"
           f" where {where}"
           f" order by seq {'desc' if newest_first else 'asc'}" + (f" limit {int(limit)}" if limit else ""))
    params = [table_id] + ([int(before)] if before else []) + ([int(after)] if after is not None else [])
    return [{"seq": seq, "ts": ts, "seat": seat, "side": side, "type": type_, "label": label,
             "withdrawn": bool(withdrawn), "target": target, "payload": json.loads(payload), "chance": bool(chance),
             "taken_back": taken_back}
            for seq, ts, seat, side, type_, label, payload, target, withdrawn, chance, taken_back
            in db.execute(sql, params)]


def events(db: Database, code: str, chance_only: bool = False, limit: int | None = None,
           newest_first: bool = False) -> list[dict]:
    """The whole log, sealed parts included (replay, tests), each event marked withdrawn if it is
    (now) undone.  What a seat is shown comes from ``events_for``."""
    return _event_rows(db, _row(db, code)["id"], chance_only, limit, newest_first)


def events_for(db: Database, code: str, viewer: str | None, newest_first: bool = False) -> list[dict]:
    """The log as a seat of side ``viewer`` may see it (None: a spectator): other sides' secrets out."""
    return hidden.for_viewer(events(db, code, newest_first=newest_first), viewer)


def events_after(db: Database, table_id: int, seq: int, limit: int = 200) -> list[dict]:
    """The events after ``seq``, oldest first, at most ``limit`` (the event feed's next batch, an
    index range whatever the log's length), sealed parts included: the caller redacts them."""
    return _event_rows(db, table_id, limit=limit, after=seq)


def log_page(db: Database, table_id: int, viewer: str | None, before: int | None = None,
             size: int = 100) -> list[dict]:
    """One page of the log, newest first: ``size`` events older than ``before`` (an index range,
    whatever the log's length), as a seat of side ``viewer`` may see them."""
    return hidden.for_viewer(_event_rows(db, table_id, limit=size, newest_first=True, before=before), viewer)


def state_for(row: dict, viewer: str | None) -> dict:
    """A table row whose state shows only what a seat of side ``viewer`` may read."""
    return {**row, "state": hidden.for_viewer(row["state"], viewer)}


def board_log(db: Database, table_id: int, viewer: str | None, rolls: int = 4, row: dict | None = None) -> dict:
    """What the board shows of the log: the labels undo and redo would act on ("Anna: Victory HP -3")
    and their seqs (what the buttons send as ``expect``), and the latest few rolls and draws
    (withdrawn ones marked; four keep the board short on a phone, issue 28 §1, the log page has them
    all), as a seat of side ``viewer`` may see them (labels never hold a secret; payloads
    may); a few indexed reads, whatever the log's length.  ``row``: the table as the caller read
    it, so a board drawn for its seq names that seq's undo and rolls even if a move came in since."""
    undo, redo = _next_undo(db, table_id, row=row), _next_undo(db, table_id, redo=True, row=row)
    before = row["seq"] + 1 if row else None
    return {"undo": undo[1] if undo else None, "undo_seq": undo[0] if undo else None,
            "redo": redo[1] if redo else None, "redo_seq": redo[0] if redo else None,
            "rolls": hidden.for_viewer(_event_rows(db, table_id, True, rolls, True, before), viewer) if rolls else []}


def history(db: Database, code: str) -> dict:
    """What undo and redo would do next, as labels."""
    log = board_log(db, _row(db, code)["id"], None, rolls=0)
    return {"undo": log["undo"], "redo": log["redo"]}


# The import and export live in companion.replay, which builds on the functions above.


# --- the library: fleets, warship cards, decks saved for the next game ----------------------------

def library_items(db: Database, system: str, kind: str | None = None) -> list[dict]:
    sql = "select id, system, kind, name, data, updated from library where system = ?"
    params = [system]
    if kind:
        sql += " and kind = ?"
        params.append(kind)
    return [{**r, "data": json.loads(r["data"])} for r in db.query(sql + " order by kind, name", params)]


def library_last(db: Database, system: str, kind: str, owner: str) -> dict | None:
    """The item of this kind the table ``owner`` saved last (a form's start for the next one), or None."""
    rows = list(db.query("select * from library where system = ? and kind = ? and owner = ? "
                         "order by updated desc, id desc limit 1", [system, kind, owner]))
    return {**rows[0], "data": json.loads(rows[0]["data"])} if rows else None


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
            _library_changed(db)
            return existing[0]
        cur = db.conn.execute(
            "insert into library (system, kind, name, data, created, updated, owner) values (?, ?, ?, ?, ?, ?, ?)",
            [system, kind, name, json.dumps(data), now(), now(), owner])
        _library_changed(db)
        return cur.lastrowid


def _library_changed(db: Database) -> None:
    """A game's board may list saved items (say, ship classes): a board drawn before a library
    change is not served again (its revision is part of a kept board's key, companion/board/keep.py)."""
    db.conn.execute("update revisions set n = n + 1 where name = 'library'")


def library_revision(db: Database) -> int:
    """How many times the library has changed: boards drawn at another revision are not served."""
    row = db.execute("select n from revisions where name = 'library'").fetchone()
    return row[0] if row else 0


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
        _library_changed(db)


# --- seats (issue 37) ------------------------------------------------------------------------------
# A seat is a row: its table, name, side, role, whether it is the host, who let it in, and a hash of
# the seat's own token (the phone holds the token; the server never keeps it).  Its status:
SEATED, WAITING, REFUSED, REMOVED = "seated", "waiting", "refused", "removed"
SEAT_COLUMNS = "s.id, s.name, s.side, s.role, s.host, s.status, t.code, t.locked"


def token_hash(token: str) -> str:
    return hashlib.sha256(str(token).encode("utf-8", "surrogatepass")).hexdigest()


def _seat(r) -> dict:
    locked = json.loads(r[7]).get("sides", []) if r[7] else []
    return {"id": r[0], "name": r[1], "side": r[2], "role": r[3], "host": bool(r[4]), "status": r[5], "code": r[6],
            "locked": r[2] in locked}


def seats_of_tokens(db: Database, tokens: dict) -> dict:
    """{code: seat} of a phone's tokens ({code: token}): one indexed read however many tables; a
    token whose seat is not (or no longer) at that table is left out."""
    hashes = {token_hash(t): c for c, t in tokens.items() if isinstance(t, str)}
    if not hashes:
        return {}
    rows = db.execute(f"select {SEAT_COLUMNS}, s.token_hash from seats s join tables t on t.id = s.table_id "
                      "where s.token_hash in (select value from json_each(?)) and s.status = ?",
                      [json.dumps(list(hashes)), SEATED]).fetchall()
    return {r[6]: _seat(r) for r in rows if hashes.get(r[8]) == r[6]}


def seat_is_seated(db: Database, code: str, seat_id: int) -> bool:
    return db.execute("select 1 from seats s join tables t on t.id = s.table_id where s.id = ? and t.code = ? "
                      "and s.status = ?", [seat_id, code, SEATED]).fetchone() is not None


def table_seats(db: Database, code: str) -> list[dict]:
    """Every seat of a table that is sitting or asking, oldest first (the invitation page's list)."""
    rows = db.execute(f"select {SEAT_COLUMNS}, s.token_hash is not null, s.let_in_by from seats s join tables t "
                      "on t.id = s.table_id where t.code = ? and s.status in (?, ?) order by s.id",
                      [code, SEATED, WAITING]).fetchall()
    return [{**_seat(r), "held": bool(r[8]), "let_in_by": r[9]} for r in rows]


def _active(db: Database, table_id: int) -> list[dict]:
    rows = db.execute("select id, name, side, role, host, status, token_hash from seats where table_id = ? "
                      "and status in (?, ?)", [table_id, SEATED, WAITING]).fetchall()
    return [{"id": r[0], "name": r[1], "side": r[2], "role": r[3], "host": bool(r[4]), "status": r[5],
             "held": r[6] is not None} for r in rows]


def _new_seat(db: Database, row: dict, name: str, side, role: str, status: str, host: bool = False,
              let_in_by: str | None = None) -> str:
    token = secrets.token_urlsafe(24)
    db.conn.execute("insert into seats (table_id, token_hash, name, side, role, host, let_in_by, created, status)"
                    " values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [row["id"], token_hash(token), name, side if role != "spectator" else None, role, int(host),
                     let_in_by, now(), status])
    return token


def _event(db: Database, row: dict, name: str, side, role: str, by: str | None = None) -> None:
    sides = json.loads(row["state"])["sides"] if isinstance(row["state"], str) else row["state"]["sides"]
    p = roster.payload(name, side, role, by)
    roster.check(p, sides)
    _append_join(db, row, p)


def host_seat(db: Database, code: str, name: str, side: str | None, role: str = "player") -> str:
    """The table's maker sits down as its host (its first event already records the join)."""
    with write_lock(db):
        row = _row(db, code)
        return _new_seat(db, row, name, side, role, SEATED, host=True)


def ask_seat(db: Database, code: str, name: str, side: str | None, role: str) -> tuple[str, str]:
    """A phone holding an invitation asks to sit: (its token, "seated" or "waiting").  A spectator, or a
    player on a side no phone holds yet, sits down at once (one scan, one tap); a player asking for a
    side a phone holds waits until a seat of that side or the host lets it in.  Names are unique per
    table; a name a seat already has on that side is a phone asking for its seat back (it waits too)."""
    with write_lock(db):
        row = _row(db, code)
        if row["finished"]:
            raise Finished("This game is finished: it can be browsed but nobody new sits down.", "seat")
        sides = json.loads(row["state"])["sides"]
        if role == "player" and side not in sides:
            raise RuleError("Pick the side you play.", "side")
        active = _active(db, row["id"])
        same = [s for s in active if s["name"].casefold() == name.casefold()]
        if any(s["status"] == WAITING for s in same):
            raise RuleError(f"A phone is already asking to sit as {name}; wait for it to be let in, or pick "
                            "another name.", "seat")
        chair = next((s for s in same if not s["held"] and s["side"] == (side if role == "player" else None)
                      and s["role"] == role), None)
        if same and not chair and not (role == "player" and any(s["side"] == side for s in same)):
            raise RuleError(f"Someone at this table is already called {same[0]['name']}; pick another name.", "seat")
        # (a script that made the table naming no seat, "API", is nobody at the table: roster.API_SEAT)
        held = role == "player" and any(s["status"] == SEATED and s["held"] and s["side"] == side
                                        and s["role"] == "player" and s["name"] != roster.API_SEAT for s in active)
        if role == "spectator" or not held:
            if chair:  # a seat the log knows that no phone holds (from before seats, or an import)
                token = secrets.token_urlsafe(24)
                db.conn.execute("update seats set token_hash = ? where id = ?", [token_hash(token), chair["id"]])
                return token, SEATED
            if same:  # the name's seat is on this side but its phone is gone, and nobody else holds it
                db.conn.execute("update seats set status = ? where id in (select value from json_each(?))",
                                [REMOVED, json.dumps([s["id"] for s in same])])
                token = _new_seat(db, row, same[0]["name"], side, role, SEATED, host=any(s["host"] for s in same))
                return token, SEATED
            token = _new_seat(db, row, name, side, role, SEATED)
            _event(db, row, name, side, role)
            return token, SEATED
        token = _new_seat(db, row, name, side, role, WAITING)
        _event(db, row, name, side, roster.ASKING)
        return token, WAITING


def claim_chair(db: Database, code: str, name: str, side, role: str) -> str | None:
    """A phone with a cookie from before seats were rows (it names its seat) takes that seat's chair once,
    if no phone holds it yet: a token for it, or None.  The cookie was signed by this server."""
    with write_lock(db):
        found = db.execute("select s.id from seats s join tables t on t.id = s.table_id where t.code = ? and "
                           "s.name = ? and s.role = ? and s.side is ? and s.token_hash is null and s.status = ?",
                           [code, name, role, side if role == "player" else None, SEATED]).fetchone()
        if not found:
            return None
        token = secrets.token_urlsafe(24)
        db.conn.execute("update seats set token_hash = ? where id = ?", [token_hash(token), found[0]])
        return token


def screen_seat(db: Database, code: str, name: str) -> str:
    """A display's seat (a TV that joined by the Display QR): a spectator that reads what every spectator
    reads, named "Display", "Display 2" ... (names are unique), and no join in the log: a screen is
    not someone at the table (issue 40 §6).  Its token."""
    with write_lock(db):
        row = _row(db, code)
        taken = {s["name"].casefold() for s in _active(db, row["id"])}
        n = 1
        while (f"{name} {n}" if n > 1 else name).casefold() in taken:
            n += 1
        return _new_seat(db, row, f"{name} {n}" if n > 1 else name, None, "spectator", SEATED)


def answer_ask(db: Database, code: str, name: str, allow: bool, by: dict) -> None:
    """A seat of the asked-for side (or the host) lets a waiting phone in, or refuses it.  Let in as a
    name a seat already has: that seat moves to the new phone (the old one lost its cookie)."""
    with write_lock(db):
        row = _row(db, code)
        active = _active(db, row["id"])
        ask = next((s for s in active if s["status"] == WAITING and s["name"] == name), None)
        if ask is None:
            raise RuleError(f"Nobody is asking to sit as {name} now.", "ask")
        if not (by.get("host") or (by["role"] == "player" and by.get("side") == ask["side"])):
            raise RuleError(f"Only a seat of {ask['side']} or the host lets someone sit with {ask['side']}.", "ask")
        if not allow:
            db.conn.execute("update seats set status = ? where id = ?", [REFUSED, ask["id"]])
            _event(db, row, name, ask["side"], roster.REFUSED, by["name"])
            return
        old = [s for s in active if s["status"] == SEATED and s["name"] == name]
        if old:
            db.conn.execute("update seats set status = ? where id in (select value from json_each(?))",
                            [REMOVED, json.dumps([s["id"] for s in old])])
        db.conn.execute("update seats set status = ?, let_in_by = ?, host = ? where id = ?",
                        [SEATED, by["name"], int(any(s["host"] for s in old)), ask["id"]])
        _event(db, row, name, ask["side"], "player", by["name"])


def ask_status(db: Database, code: str, token: str) -> dict | None:
    """A waiting phone's ask as it stands: {"status": "waiting" / "seated" / "refused" / "removed",
    "name", "side"}, or None (no such ask)."""
    found = db.execute("select s.status, s.name, s.side from seats s join tables t on t.id = s.table_id "
                       "where t.code = ? and s.token_hash = ?", [code, token_hash(token)]).fetchone()
    return {"status": found[0], "name": found[1], "side": found[2]} if found else None


def remove_seat(db: Database, code: str, name: str, by: dict) -> None:
    """The host removes a seat (or a seat leaves: ``by`` is itself): its token stops working at once."""
    with write_lock(db):
        row = _row(db, code)
        found = [s for s in _active(db, row["id"]) if s["name"] == name and s["status"] == SEATED]
        if not found:
            raise RuleError(f"Nobody sits at this table as {name}.", "seat")
        if by["name"] != name and not by.get("host"):
            raise RuleError("Only the host removes a seat.", "seat")
        if any(s["host"] for s in found) and by["name"] == name and len(_active(db, row["id"])) > 1:
            raise RuleError("Hand the host's role to another seat before you leave.", "seat")
        db.conn.execute("update seats set status = ? where id in (select value from json_each(?))",
                        [REMOVED, json.dumps([s["id"] for s in found])])
        _event(db, row, name, found[0]["side"], roster.LEFT, by["name"] if by["name"] != name else None)


def hand_host(db: Database, code: str, name: str, by: dict) -> None:
    with write_lock(db):
        row = _row(db, code)
        if not by.get("host"):
            raise RuleError("Only the host hands the host's role on.", "seat")
        found = [s for s in _active(db, row["id"]) if s["name"] == name and s["status"] == SEATED]
        if not found:
            raise RuleError(f"Nobody sits at this table as {name}.", "seat")
        db.conn.execute("update seats set host = 0 where table_id = ?", [row["id"]])
        db.conn.execute("update seats set host = 1 where id = ?", [found[0]["id"]])


def unlock_side(db: Database, code: str, side: str) -> None:
    """A locked side of an imported table (hidden.boxed_sides) proved itself: its seats read its parts."""
    with write_lock(db):
        row = _row(db, code)
        locked = json.loads(row["locked"]) if row.get("locked") else {}
        locked["sides"] = [s for s in locked.get("sides", []) if s != side]
        db.conn.execute("update tables set locked = ? where id = ?", [json.dumps(locked), row["id"]])


def new_links(db: Database, code: str) -> None:
    """Fresh invitation secrets: the links and QR codes shared so far stop working (seats stay)."""
    with write_lock(db):
        db.conn.execute("update tables set player_secret = ?, spectator_secret = ? where code = ?",
                        [secrets.token_urlsafe(16), secrets.token_urlsafe(16), code])


def delete_table(db: Database, code: str) -> None:
    """The host deletes the table and everything of it."""
    with write_lock(db):
        found = db.execute("select id from tables where code = ?", [code]).fetchone()
        if found:
            for name in ("events", "snapshots", "seats"):
                db.conn.execute(f"delete from {name} where table_id = ?", [found[0]])
            db.conn.execute("delete from tables where id = ?", [found[0]])
