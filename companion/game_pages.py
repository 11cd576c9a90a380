"""What every game's own pages share: the one core module a game's views import (the core names no game).

The table a page belongs to, as the seat may see it (other sides' sealed parts redacted, so a
game's page can never show what its board would not); a refusal shown next to its control; a JSON
file to download; a JSON document uploaded as a file or pasted as text.
"""
from __future__ import annotations

import json

from flask import abort, request

from companion import hidden, share, store
from companion.actions import read_as  # noqa: F401  (for the games' pages)
from companion.db import get_db, systems  # noqa: F401  (for the games' pages)
from companion.errors import RuleError
from companion.games import library  # noqa: F401  (for the games' pages)
from companion.play import form_args  # noqa: F401  (for the games' pages)
from companion.said import _
from companion.share import json_file  # noqa: F401  (for the games' pages)
from companion.validate import CONTROL_RE
from companion.web import ctx_for, error_fragment, page_or_partial, require_player, seat_for, status_of  # noqa: F401

# A game's pages import from the core only this module (issue 29): besides what is defined below,
# the names they use are re-exported here, so the core can move them without touching a game:
# ``store`` (library_item(s), act, NotFound), ``get_db``, ``systems``, ``library`` (save, delete), ``share``,
# ``form_args``, ``read_as``, ``RuleError``, ``ctx_for``, ``page_or_partial``, ``error_fragment``,
# ``require_player``, ``status_of``.


def game_table(code: str, slug: str, write: bool = False) -> tuple[dict, dict]:
    """(seat, row) of a table of game ``slug``; 404 for another game's table, 403 for a spectator
    when ``write``; the row's state is redacted for the seat's side."""
    seat = seat_for(code)
    if write:
        require_player(seat)
    row = store.state_for(store.table(get_db(), code), hidden.viewer_side(seat))
    if row["system"] != slug:
        abort(404)
    return seat, row


def board_page(code: str, seat: dict, **kw):
    """The table's board after a game's page changed it: the whole page, or the board htmx swaps in
    (``kw``: ``flash``, ``errors``, ``status``: companion/board)."""
    from companion.board import board_page as page
    return page(code, seat, **kw)


def refusal(exc: RuleError, control: str):
    """A 400 whose one sentence lands in the control's own error slot (a posted ``_control`` only
    if it is an element id: it goes into the HX-Retarget header, which must stay ASCII)."""
    posted = request.form.get("_control") or ""
    return error_fragment(exc, posted if CONTROL_RE.match(posted) else control, 400)


def uploaded_json(what: str, field: str = "file", text_field: str = "text"):
    """The JSON document in the upload ``file`` (or pasted in ``text_field``); a sentence if it is
    not one (a file nested too deep for the parser included).  Every game's import reads its file
    here."""
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else request.form.get(text_field, "")
    data = share.link_data(text)
    if data is not None:  # a share link (issue 28 §6), pasted or scanned: it carries the same document
        return share.unpack(data, field)
    try:
        return json.loads(text or "null")
    except (ValueError, RecursionError):
        raise RuleError(_("That is not an export of %(what)s (JSON) nor a share link.", what=_(what)), field) from None


def uploaded_list(what: str, key: str, most: int, field: str = "file") -> list[dict]:
    """The entries of an uploaded export: the document's ``key`` list (or the document itself if it
    is a list) of 1 to ``most`` JSON objects; a sentence naming the entry that is not one."""
    return listed(uploaded_json(what, field), what, key, most, field)


def listed(doc, what: str, key: str, most: int, field: str = "file") -> list[dict]:
    """The entries of an exported document (uploaded, or carried by a share link)."""
    found = doc.get(key) if isinstance(doc, dict) else doc
    if not isinstance(found, list) or not 1 <= len(found) <= most:
        raise RuleError(_("The file needs 1 to %(most)s %(what)s.", most=most, what=_(what)), field)
    for i, entry in enumerate(found, start=1):
        if not isinstance(entry, dict):
            raise RuleError(_("Entry %(n)s of the file is not one of the %(what)s (a JSON object with its fields).", n=i,
                              what=_(what)), field)
    return found
