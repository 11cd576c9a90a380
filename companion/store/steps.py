"""The steps a tap's app server drew for the others' live streams (PostgreSQL, schema m017).

With several app servers, a change's step for a view (the parts of the board that changed since the
change before) was drawn by every server holding a stream of the view, and by the tap's server for its
answer.  Now the tap's server draws the boards of the views its own streams follow with its answer, and
writes each step, with the outline of the board it leads to, in the call that announces the change:
another server's streams, woken by that announcement, find them there and push them without drawing
(companion/board/answer.py).  A view nobody drew them for is drawn by the streams themselves, as before.
"""
from __future__ import annotations

from contextlib import contextmanager

from companion.store.engine import Postgres


@contextmanager
def announced_after(db):
    """The changes written in the block are announced with their steps (``share``), or when it ends
    (nothing to hold on SQLite: its servers hear a commit by ``data_version``, store/push.py)."""
    if not isinstance(db, Postgres):
        yield
        return
    with db.announcements_held():
        yield


def taken(db, code: str):
    """The held announcement of the table's change (``announced_after``), now the caller's to make: a
    function ``share(table_id, seq, rows)`` that makes it, writing ``rows`` [(view, since, html or None,
    outline)] of the table's boards at ``seq`` (if any) in the same call; None where nothing is held (it
    was announced at its commit).  The caller makes it once, whatever happens: until then the other
    servers' streams hear of the change only by their each-second check (store/push.py)."""
    if not isinstance(db, Postgres) or not db.take_held(code):
        return None

    def share(table_id: int, seq: int, rows: list[tuple]) -> None:
        db.announce(code, (table_id, seq, rows) if rows else None)
    return share


def at(db, table_id: int, seq: int) -> dict[str, tuple[int, str | None, str]]:
    """{view: (since, html or None, outline)} shared for the table's boards at ``seq``."""
    if not isinstance(db, Postgres):
        return {}
    rows = db.execute("select view, since, html, outline from board_steps where table_id = ? and seq = ?",
                      [table_id, seq]).fetchall()
    return {view: (since, html, outline) for view, since, html, outline in rows}
