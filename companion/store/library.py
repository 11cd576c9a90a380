"""The library: fleets, warship cards and decks saved for the next game, whatever the table."""
from __future__ import annotations

import json

from companion.errors import RuleError
from companion.said import _
from companion.store.chain import now
from companion.store.engine import write_lock
from companion.store.tables import NotFound


def library_items(db, system: str, kind: str | None = None) -> list[dict]:
    sql = "select id, system, kind, name, data, updated from library where system = ?"
    params = [system]
    if kind:
        sql += " and kind = ?"
        params.append(kind)
    return [{**r, "data": json.loads(r["data"])} for r in db.query(sql + " order by kind, name", params)]


def library_last(db, system: str, kind: str, owner: str) -> dict | None:
    """The item of this kind the table ``owner`` saved last (a form's start for the next one), or None."""
    rows = list(db.query("select * from library where system = ? and kind = ? and owner = ? "
                         "order by updated desc, id desc limit 1", [system, kind, owner]))
    return {**rows[0], "data": json.loads(rows[0]["data"])} if rows else None


def library_item(db, item_id: int) -> dict:
    rows = list(db.query("select * from library where id = ?", [item_id]))
    if not rows:
        raise NotFound(str(item_id))
    return {**rows[0], "data": json.loads(rows[0]["data"])}


def library_save(db, system: str, kind: str, name: str, data: dict, owner: str | None = None,
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
        made = db.conn.execute(
            "insert into library (system, kind, name, data, created, updated, owner) values (?, ?, ?, ?, ?, ?, ?)"
            " returning id", [system, kind, name, json.dumps(data), now(), now(), owner]).fetchone()[0]
        _library_changed(db)
        return made


def _library_changed(db) -> None:
    """A game's board may list saved items (say, ship classes): a board drawn before a library
    change is not served again (its revision is part of a kept board's key, companion/board/keep.py)."""
    db.conn.execute("update revisions set n = n + 1 where name = 'library'")


def library_revision(db) -> int:
    """How many times the library has changed: boards drawn at another revision are not served."""
    row = db.execute("select n from revisions where name = 'library'").fetchone()
    return row[0] if row else 0


def library_owned(item_owner: str | None, owner: str | None, host: bool, name: str) -> None:
    """An owned item is changed only by its own table or by the host; RuleError otherwise."""
    if item_owner and not host and owner != item_owner:
        raise RuleError(_("%(name)r was saved at another table: only that table's players or the host "
                          "can change or delete it; save yours under another name.", name=name), "name")


def library_delete(db, item_id: int, owner: str | None = None, host: bool = False) -> None:
    with write_lock(db):
        row = db.execute("select owner, name from library where id = ?", [item_id]).fetchone()
        if row:
            library_owned(row[0], owner, host, row[1])
        db.conn.execute("delete from library where id = ?", [item_id])
        _library_changed(db)
