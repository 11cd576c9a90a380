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


def save(slug: str, kind: str, name: str, data: dict, code: str) -> int:
    """Save (or replace, by name) an item for the table ``code``; RuleError if another table owns it."""
    return store.library_save(get_db(), slug, kind, name, data, owner=code, host=is_host())


def save_all(slug: str, kind: str, items: list[tuple[str, dict]], code: str) -> None:
    """Save several items (an imported file) only if the table may write every one of them, so a
    refusal leaves the library as it was."""
    saved = {item["name"]: item["id"] for item in store.library_items(get_db(), slug, kind)}
    for name, _ in items:
        if name in saved:
            store.library_owned(store.library_item(get_db(), saved[name]).get("owner"), code, is_host(), name)
    for name, data in items:
        save(slug, kind, name, data, code)


def delete(item_id: int, code: str) -> None:
    """Delete an item, if the table ``code`` (or the host) owns it; RuleError otherwise."""
    store.library_delete(get_db(), item_id, owner=code, host=is_host())
