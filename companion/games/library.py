"""The games' saved items (warships, deck lists, fleets, ship cards, classes) with their owner.

A saved item belongs to the table that saved it (issue 15): a player at another table of the
same game may use it, but only its own table's players or the host may overwrite or delete it
(``store.library_owned`` says so in one sentence).  The games' views save and delete through here,
so each passes the owner the same way.  Not a game package (``companion.games.discover`` skips
plain modules); it needs a request (who is the host), so only views import it.
"""
from __future__ import annotations

from companion import store
from companion.db import get_db
from companion.web import is_host


def save(slug: str, kind: str, name: str, data: dict, code: str, keep_same: bool = False) -> int:
    """Save (or replace, by name) an item for the table ``code``; RuleError if another table owns it.
    ``keep_same`` (an import): an item saved already with the same data is left as it is, whoever owns
    it (a fleet shared between two tables of one server is there already, issue 28 §6)."""
    if keep_same:
        same = [i for i in store.library_items(get_db(), slug, kind) if i["name"] == name and i["data"] == data]
        if same:
            return same[0]["id"]
    return store.library_save(get_db(), slug, kind, name, data, owner=code, host=is_host())


def save_all(slug: str, kind: str, items: list[tuple[str, dict]], code: str) -> None:
    """Save several items (an imported file) only if the table may write every one of them, so a
    refusal leaves the library as it was."""
    saved = {item["name"]: item["id"] for item in store.library_items(get_db(), slug, kind)}
    for name, data in items:
        if name in saved:
            item = store.library_item(get_db(), saved[name])
            if item["data"] != data:  # the same item again is no change (save keeps it)
                store.library_owned(item.get("owner"), code, is_host(), name)
    for name, data in items:
        save(slug, kind, name, data, code, keep_same=True)


def delete(item_id: int, code: str) -> None:
    """Delete an item, if the table ``code`` (or the host) owns it; RuleError otherwise."""
    store.library_delete(get_db(), item_id, owner=code, host=is_host())


def last_saved(slug: str, kind: str, code: str) -> dict | None:
    """The data of the item the table ``code`` saved last: the set-up forms start the next ship from it
    (issue 28 §6), so a player changes only what differs on the next card."""
    item = store.library_last(get_db(), slug, kind, code)
    return item["data"] if item else None
