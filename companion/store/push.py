"""How a server hears that a table changed, whichever process or app server committed it
(companion/live.py wakes its streams from this).

SQLite (one machine): ``PRAGMA data_version`` moves at every commit by any connection, so a look
every tick costs one pragma while nothing happens, and a query of the watched tables' seqs when
something did.  PostgreSQL (several app servers): every committed change of a table's seq is announced
by the database itself (the trigger of migration m013: ``NOTIFY companion, 'CODE SEQ'``); each server
``LISTEN``s on one connection and reads what it heard; the database is asked only for the seqs of
tables a stream starts watching.
"""
from __future__ import annotations

import sqlite3

from companion.store.engine import is_postgres

GONE = -1  # the seq of a table that is no longer there
CHANNEL = "companion"


def changes_of(target: str):
    return PostgresChanges(target) if is_postgres(target) else SQLiteChanges(target)


class SQLiteChanges:
    def __init__(self, path: str):
        self.path = path
        self.conn: sqlite3.Connection | None = None
        self.version: int | None = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn, self.version = None, None

    def seqs(self, codes: list[str], fresh: list[str]) -> dict[str, int] | None:
        """{code: seq (GONE if it is gone)} of the watched ``codes`` if anything was committed since
        the last look (or a code is ``fresh``: not known yet), else None."""
        if self.conn is None:
            self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        version = self.conn.execute("pragma data_version").fetchone()[0]
        if version == self.version and not fresh:
            return None
        self.version = version
        if not codes:
            return None
        found = dict(self.conn.execute(
            f"select code, seq from tables where code in ({', '.join('?' * len(codes))})", codes).fetchall())
        return {code: found.get(code, GONE) for code in codes}


class PostgresChanges:
    def __init__(self, url: str):
        self.url = url
        self.conn = None
        self.heard: dict[str, int] = {}

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
        if fresh:
            found = dict(self.conn.execute("select code, seq from tables where code = any(%s)", [list(fresh)]).fetchall())
            self.heard.update({code: found.get(code, GONE) for code in fresh})
        heard, self.heard = self.heard, {}
        watched = {code: heard[code] for code in codes if code in heard}
        return watched or None
