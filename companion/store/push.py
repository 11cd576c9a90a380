"""How a server hears that a table changed, whichever process or app server committed it
(companion/live.py wakes its streams from this).

SQLite (one machine): ``PRAGMA data_version`` moves at every commit by any connection, so a look
every tick costs one pragma while nothing happens, and when something did, a read of the events
written since the last look (every change of a table's seq writes its event).  PostgreSQL (several
app servers): every committed write of a table is announced once it has committed (``NOTIFY
companion, 'CODE SEQ'``, by the write: engine.py ``Postgres.transaction``, schema m016); each server
``LISTEN``s on one connection and reads what it heard; the database is asked for the seqs of tables a
stream starts watching, and of every watched table each ``WHOLE_EVERY`` (an announcement lost between
a commit and its NOTIFY, the app server killed in that moment, is made up for within a second).
"""
from __future__ import annotations

import sqlite3
import time

from companion.store.engine import is_postgres

GONE = -1  # the seq of a table that is no longer there
CHANNEL = "companion"
# s between two reads of every watched table's seq, besides the reads of the events since the last look
# (SQLite) or the announcements heard (PostgreSQL): on SQLite a deleted table, or a commit that wrote no
# event (a seat's lock, the library), is seen at the next look that finds no new event, or at the latest
# this long after; on PostgreSQL a change whose announcement was lost
WHOLE_EVERY = 1.0


def changes_of(target: str):
    return PostgresChanges(target) if is_postgres(target) else SQLiteChanges(target)


class SQLiteChanges:
    def __init__(self, path: str):
        self.path = path
        self.conn: sqlite3.Connection | None = None
        self.version: int | None = None
        self.mark: int | None = None  # the newest event's rowid at the last look
        self.whole_at = 0.0  # (time.monotonic) when every watched table's seq is read again

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn, self.version, self.mark = None, None, None

    def seqs(self, codes: list[str], fresh: list[str]) -> dict[str, int] | None:
        """{code: seq (GONE if it is gone)} of the tables that moved if anything was committed since the
        last look (or a code is ``fresh``: not known yet), else None.  Mostly a read of the events
        written since the last look (the tables they moved, watched or not); every watched table's seq
        (a query naming each: 250 codes at 2,000 phones, at every commit, was 5 % of a worker's time)
        at first, for a fresh code, when the version moved but no event was written, and every
        ``WHOLE_EVERY``.  An event's rowid can be taken again once the newest events are deleted (their
        table deleted): those are not past the mark, so that look finds none and reads every seq."""
        if self.conn is None:
            self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        version = self.conn.execute("pragma data_version").fetchone()[0]
        if version == self.version and not fresh:
            return None
        self.version = version
        if not codes:
            return None
        now = time.monotonic()
        if self.mark is not None and not fresh and now < self.whole_at:
            moved = self.conn.execute("select e.rowid, t.code, e.seq from events e join tables t on t.id = e.table_id"
                                      " where e.rowid > ?", [self.mark]).fetchall()
            if moved:
                found: dict[str, int] = {}
                for rowid, code, seq in moved:
                    self.mark = max(self.mark, rowid)
                    found[code] = max(found.get(code, GONE), seq)
                return found
        self.whole_at = now + WHOLE_EVERY
        # the mark first: an event written between the two reads is read again next time, never missed
        self.mark = self.conn.execute("select coalesce(max(rowid), 0) from events").fetchone()[0]
        found = dict(self.conn.execute(
            f"select code, seq from tables where code in ({', '.join('?' * len(codes))})", codes).fetchall())
        return {code: found.get(code, GONE) for code in codes}


class PostgresChanges:
    def __init__(self, url: str):
        self.url = url
        self.conn = None
        self.heard: dict[str, int] = {}
        self.whole_at = 0.0  # (time.monotonic) when every watched table's seq is read again

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def _hear(self, payload: str) -> None:
        code, _, seq = payload.partition(" ")
        seq = int(seq)
        self.heard[code] = GONE if seq == GONE else max(self.heard.get(code, GONE), seq)

    def seqs(self, codes: list[str], fresh: list[str]) -> dict[str, int] | None:
        """As SQLiteChanges.seqs, from the announcements heard since the last look, and a read of the
        ``fresh`` codes' seqs.  It never waits: what the connection's socket holds is read as it is
        (libpq's consume_input), so the watching greenlet never stops its worker (psycopg's own
        ``notifies()`` waits, and waiting in C, companion/store/engine.py, would hold the whole worker)."""
        import psycopg
        if self.conn is None:
            self.conn = psycopg.connect(self.url, autocommit=True)
            self.conn.add_notify_handler(lambda note: self._hear(note.payload))  # (heard during a query)
            self.conn.execute(f"listen {CHANNEL}")
            fresh = codes  # (listening from now on: what was committed before is read once)
        pgconn = self.conn.pgconn
        pgconn.consume_input()
        while (note := pgconn.notifies()) is not None:
            self._hear(note.extra.decode())
        now = time.monotonic()
        if now >= self.whole_at and codes:
            self.whole_at, fresh = now + WHOLE_EVERY, codes
        if fresh:
            found = dict(self.conn.execute("select code, seq from tables where code = any(%s)", [list(fresh)]).fetchall())
            for code in fresh:  # (an announcement heard meanwhile may be newer than the read)
                self._hear(f"{code} {found.get(code, GONE)}")
        heard, self.heard = self.heard, {}
        watched = {code: heard[code] for code in codes if code in heard}
        return watched or None
