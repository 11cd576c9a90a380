"""The two engines the store runs on, and the write lock of each.

SQLite (a file path: the default, nothing to install) is an ``sqlite_utils.Database`` as it always
was.  PostgreSQL (``DATABASE_URL=postgresql://...``, issue 39) is a ``Postgres``: the same surface the
store uses of a ``Database`` (``execute``, ``query``, ``conn``), over a pool of psycopg 3 connections,
so every function of the store runs on either with the same SQL text.  The SQL is written once, in
SQLite's dialect with ``?`` placeholders; ``pg_sql`` turns the few things that differ into
PostgreSQL's (placeholders, ``json_each`` of an array, ``is ?``).

One action = one transaction on both.  SQLite: ``BEGIN IMMEDIATE`` after a lock every writer of
the file takes (a thread lock in the process, an ``flock`` between processes), so writers queue
for the one file.  PostgreSQL: a transaction holding an advisory lock on the table's code alone, so
moves at different tables never queue behind each other, while two app servers writing to the same
table still take turns and the seq check inside the transaction stays exact.
"""
from __future__ import annotations

import fcntl
import importlib.util
import json
import logging
import os
import re
import sqlite3
import threading
import time
from contextlib import contextmanager
from functools import lru_cache

from gevent import get_hub
from gevent.monkey import get_original, is_module_patched
from sqlite_utils import Database

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

# psycopg waits for the database cooperatively under gevent (it yields to the worker's other greenlets
# at every statement), and that was the whole cost of PostgreSQL under load: a tap's 16 round trips
# each waited a turn of a loop holding ~300 live streams, each holding a pooled connection meanwhile,
# and at 600 phones taps queued for the pool for seconds (tap p50 6.0 s; docs/performance.md,
# 2026-11-28 session 3).  Waiting in C instead keeps a statement's round trip (~0.2 ms on the same
# box or LAN) inside the greenlet's turn, as a SQLite read is: a request and its transaction finish
# in one turn, a worker needs a connection or two, and nothing else of the worker runs meanwhile
# (tap p50 65 ms in the same test).  A host whose database is far away may set PSYCOPG_WAIT_FUNC.
if importlib.util.find_spec("psycopg_binary") or importlib.util.find_spec("psycopg_c"):
    os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_c")


def is_postgres(target) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


def location(db) -> str:
    """Where ``db`` is: its SQLite file's path ('' in memory), or its PostgreSQL URL."""
    if isinstance(db, Postgres):
        return db.url
    return db.execute("pragma database_list").fetchone()[2]


class Busy(Exception):
    """Another writer holds the write lock (``write_lock(wait=False)``)."""


def connect(target, migrate=None):
    """The database at ``target`` (a SQLite file, or a PostgreSQL URL); ``migrate(db)``, if given,
    runs once it is set up (on SQLite under the lock every writer takes).  The store's ``open_db``
    passes the schema's migrations: the engine knows no table."""
    if is_postgres(target):
        db = _postgres(str(target))
        if migrate:
            migrate(db)
        return db
    conn = sqlite3.connect(str(target), timeout=10, check_same_thread=False)
    db = Database(conn)
    db.execute("PRAGMA busy_timeout=10000")
    # a server thread's connection to a file already set up (create_app migrated it) writes
    # nothing, so it waits for no lock (an import's slice, another worker's tap)
    if migrate or db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        _set_up(db, migrate)
    db.execute(f"PRAGMA synchronous={synchronous()}")
    return db


def _set_up(db: Database, migrate) -> None:
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
            migrate(db)
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


def disk_full(exc: BaseException) -> bool:
    """Whether the database refused a write because the disk (or the database's size limit) is full."""
    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc)
    return getattr(exc, "sqlstate", None) == "53100"  # PostgreSQL's disk_full


def refusals() -> tuple[type, ...]:
    """The exception classes a database raises for a refused write (a full disk among them)."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return (sqlite3.OperationalError,)
    return (sqlite3.OperationalError, psycopg.OperationalError)


# --- SQLite's write lock ---------------------------------------------------------------------------
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
        path = db._companion_path = location(db)
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


@contextmanager
def write_lock(db, wait: bool = True, code: str | None = None):
    """A write transaction that takes the lock up front (no upgrade deadlocks between writers).
    ``code``: the table written (on PostgreSQL only that table's writers wait for it; None: a write of
    no one table, which waits for every other such write).  ``wait=False``: raise Busy at once instead
    of waiting for another writer (what a read does that only keeps what it drew: it never waits
    for, nor needs, the write lock; issue 30 item 6)."""
    if isinstance(db, Postgres):
        with db.transaction(code):
            key = f"table {code}" if code else "store"
            if wait:
                db.execute("select pg_advisory_xact_lock(hashtext(?))", [key])
            elif not db.execute("select pg_try_advisory_xact_lock(hashtext(?))", [key]).fetchone()[0]:
                raise Busy
            yield
        return
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


# --- PostgreSQL ----------------------------------------------------------------------------------

@lru_cache(maxsize=2048)
def pg_sql(sql: str) -> tuple[str, bool]:
    """The store's SQL (SQLite's dialect) in PostgreSQL's, and whether its placeholders are numbered
    (``?1``: the parameters then go by name)."""
    text = sql.replace("%", "%%")
    # json_each of an array (the store passes lists as one JSON parameter): its elements as text
    text = re.sub(r"json_each\((\?\d*)\)", r"json_array_elements_text(\1::json)", text)
    text = re.sub(r"\bis (\?\d*)", r"is not distinct from \1", text)
    numbered = re.search(r"\?\d", text) is not None
    text = re.sub(r"\?(\d+)", r"%(p\1)s", text) if numbered else text.replace("?", "%s")
    return text, numbered


class Rows:
    """What a statement gave, read at once (the connection goes back to the pool straight after)."""
    __slots__ = ("rows", "description", "rowcount", "_at")

    def __init__(self, cursor):
        self.description = cursor.description  # (built anew at each read of it: read once)
        self.rows = cursor.fetchall() if self.description else []
        self.rowcount = cursor.rowcount
        self._at = 0

    def fetchone(self):
        if self._at >= len(self.rows):
            return None
        self._at += 1
        return self.rows[self._at - 1]

    def fetchall(self):
        rest, self._at = self.rows[self._at:], len(self.rows)
        return rest

    def __iter__(self):
        return iter(self.fetchall())


class Postgres:
    """A PostgreSQL database as the store uses a ``Database``: ``execute`` (rows as tuples), ``query``
    (rows as dicts), ``conn`` (itself) and ``transaction()``.  One per process and URL (``_postgres``),
    shared by the process's threads or greenlets: a statement outside a transaction borrows a pooled
    connection for itself alone; a transaction holds one, which only its own thread (or greenlet:
    gevent makes ``threading.local`` greenlet-local) sees."""

    def __init__(self, url: str):
        from psycopg_pool import ConnectionPool
        self.url = url
        size = int(os.environ.get("COMPANION_PG_POOL", "10"))
        self.pool = ConnectionPool(url, min_size=1, max_size=max(size, 1), kwargs={"autocommit": True},
                                   open=True, name="companion")
        self._local = threading.local()
        self.conn = self

    @property
    def in_transaction(self) -> bool:
        return getattr(self._local, "tx", None) is not None

    def rollback(self) -> None:
        """(A transaction is rolled back by its own ``transaction()`` block.)"""

    commit = rollback

    def execute(self, sql: str, params=None) -> Rows:
        text, numbered = pg_sql(sql)
        args = {f"p{i + 1}": v for i, v in enumerate(params or [])} if numbered else list(params or [])
        tx = getattr(self._local, "tx", None)
        if tx is not None:
            return Rows(tx.execute(text, args))
        with self.pool.connection() as conn:
            return Rows(conn.execute(text, args))

    def query(self, sql: str, params=None):
        rows = self.execute(sql, params)
        names = [d.name for d in rows.description or []]
        for row in rows.fetchall():
            yield dict(zip(names, row, strict=True))

    @contextmanager
    def transaction(self, code: str | None = None):
        """A transaction; ``code``: the table it writes, announced to every app server once the outermost
        transaction has committed (companion/store/push.py).  Announced after the commit, not by a NOTIFY
        inside it: a NOTIFY holds one lock of the whole database from its commit until that commit is on
        disk, so the moves of every table would commit one at a time (schema m016)."""
        if self.in_transaction:  # (a write inside a write: the outer transaction is the one)
            if code:
                self._local.moved.add(code)
            yield
            return
        with self.pool.connection() as conn:
            self._local.moved = {code} if code else set()
            with conn.transaction():
                self._local.tx = conn
                try:
                    yield
                finally:
                    self._local.tx = None
            held = getattr(self._local, "held", None)
            for moved in sorted(self._local.moved):  # (committed: a rolled-back write is not announced)
                if held is not None:
                    held[moved] = None  # (announced by who ``take_held`` it, else at the end of ``announcements_held``)
                else:
                    self._announce(conn, moved)

    def _announce(self, conn, moved: str, steps: tuple | None = None) -> None:
        """Tell every app server that the table ``moved`` changed (push.py), with the ``steps`` drawn for
        their streams (store/steps.py: (table id, seq, [(view, since, html, outline)])); where the steps
        cannot be written, without them (the streams draw their boards).  Never raises: the write stands,
        and the servers re-read every watched seq each second."""
        log = logging.getLogger(__name__)
        if steps is not None:
            try:
                table_id, seq, rows = steps
                text = json.dumps([dict(zip(("view", "since", "html", "outline"), row, strict=True)) for row in rows],
                                  ensure_ascii=False)
                conn.execute("select companion_announce_steps(%s, %s, %s, %s::json)", [moved, table_id, seq, text])
                return
            except Exception:  # noqa: BLE001 - (autocommit: nothing left half-done; announced without them)
                log.exception("the steps of table %s's change were not shared", moved)
        try:
            conn.execute("select companion_announce(%s)", [moved])
        except Exception:  # noqa: BLE001
            log.exception("the change of table %s was not announced", moved)

    @contextmanager
    def announcements_held(self):
        """The changes committed inside the block are announced at its end, or with their steps before it
        (``take_held``: a tap's answer draws the boards first, store/steps.py)."""
        if getattr(self._local, "held", None) is not None:
            yield
            return
        self._local.held = {}
        try:
            yield
        finally:
            held, self._local.held = self._local.held, None
            for moved in sorted(held):
                self.announce(moved)

    def take_held(self, code: str) -> bool:
        """The held change of table ``code`` is the caller's to announce now (``announce``); False if none
        is held (it was announced at its commit)."""
        held = getattr(self._local, "held", None)
        if held is None or code not in held:
            return False
        del held[code]
        return True

    def announce(self, code: str, steps: tuple | None = None) -> None:
        """Announce the change of table ``code``, with ``steps`` (``_announce``; never raises)."""
        try:
            with self.pool.connection() as conn:
                self._announce(conn, code, steps)
        except Exception:  # noqa: BLE001 - no connection to be had: (as in ``_announce``)
            logging.getLogger(__name__).exception("the change of table %s was not announced", code)

    def close(self) -> None:
        """(The pool is the process's, kept for its life.)"""


_postgres_dbs: dict[tuple[int, str], Postgres] = {}


def _postgres(url: str) -> Postgres:
    # A forked worker makes its own pool (a parent's connections are not its).  No lock around the
    # making: opening a pool waits on the network, and a greenlet must not hold an OS lock meanwhile;
    # two greenlets that both made one keep the first and close the other.
    key = (os.getpid(), url)
    db = _postgres_dbs.get(key)
    if db is None:
        made = Postgres(url)
        db = _postgres_dbs.setdefault(key, made)
        if db is not made:
            made.pool.close()
    return db


def forget(url: str) -> None:
    """Close this process's pool of ``url`` (a test's database, dropped after it)."""
    db = _postgres_dbs.pop((os.getpid(), url), None)
    if db is not None:
        db.pool.close()
