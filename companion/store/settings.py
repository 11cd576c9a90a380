"""What every app server of one database shares besides the tables: its signing key (issue 39)."""
from __future__ import annotations

import secrets

from companion.store.engine import write_lock


def server_key(db) -> str:
    """The server's secret key kept in the database (made once, by whichever app server asks first):
    several app servers behind one address sign and read the same seat cookies and exports, and a
    phone whose next request lands on another server keeps its seat.  (COMPANION_SECRET_KEY, when
    set, is used instead.)"""
    found = db.execute("select value from settings where name = 'secret_key'").fetchone()
    if found:
        return found[0]
    with write_lock(db):
        db.conn.execute("insert into settings (name, value) values ('secret_key', ?) on conflict (name) do nothing",
                        [secrets.token_hex(32)])
    return db.execute("select value from settings where name = 'secret_key'").fetchone()[0]
