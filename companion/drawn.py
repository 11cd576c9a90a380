"""A table's pages drawn once per change and shared by every phone with the same view.

After a change every phone at the table polls and gets the board again; drawn here, the board is
rendered once per (table, seq, view) and kept in the database (so every server worker shares it),
then each phone's answer is the kept page with its own bits put back in:

- the view is what changes the HTML between seats: the role (a spectator's board is read-only)
  and the side (a side's sealed orders are in clear only on its own board, hidden.for_viewer);
- the CSRF token is the phone's own: the page is kept with a placeholder in its place;
- the seat name is drawn as a placeholder too, and whether Undo asks first (it does when the
  move it takes back is another seat's) is decided per phone from the kept Undo label.

The placeholders derive from the server's secret key, so a name typed at the table cannot forge
one.  The view also names the templates' version: a page drawn by older templates is not served.
"""
from __future__ import annotations

import hashlib
import hmac
import os

from flask import current_app, make_response, render_template
from markupsafe import escape

from companion import store
from companion.db import get_db, systems
from companion.web import csrf_token, without_indentation


def _placeholder(what: str) -> str:
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    return "drawn" + hmac.new(key, what.encode(), hashlib.sha256).hexdigest()[:20] + what


def _templates_version() -> str:
    """Changes whenever a template file does (a restart after an upgrade serves no old pages)."""
    app = current_app._get_current_object()
    known = app.extensions.get("companion.drawn")
    if known and not app.jinja_env.auto_reload:
        return known
    digest = hashlib.sha256(str(app.config["POLL_SECONDS"]).encode())
    for folder, _, files in sorted(os.walk(app.template_folder)):
        for name in sorted(files):
            st = os.stat(os.path.join(folder, name))
            digest.update(f"{folder}/{name}:{st.st_mtime_ns}:{st.st_size};".encode())
    app.extensions["companion.drawn"] = digest.hexdigest()[:12]
    return app.extensions["companion.drawn"]


def view_of(seat: dict, page: str, system_version: str = "") -> str:
    """What the HTML of ``page`` depends on besides the table's seq: role and side (not the name)."""
    return f"{page}|{seat.get('role')}|{seat.get('side') or ''}|{_templates_version()}|{system_version}"


def for_phone(html: str, meta: dict, seat: dict) -> str:
    """A kept page with this phone's own CSRF token and seat name, and its own Undo question."""
    name = str(seat.get("name") or "")
    html = html.replace(_placeholder("csrf"), csrf_token()).replace(_placeholder("name"), str(escape(name)))
    undo = meta.get("undo")
    if undo and undo.startswith(name + ": "):
        # the phone's own move: Undo takes it back without asking (issue 10 §5)
        html = html.replace(f' hx-confirm="Undo {escape(undo)}?"', "", 1)
    return html


def draw(template: str, context: dict) -> str:
    """Render ``template`` with the per-phone bits as placeholders."""
    token = csrf_token()
    html = without_indentation(render_template(template, **context))
    return html.replace(token, _placeholder("csrf"))


def kept_answer(code: str, seat: dict, page: str, template: str, context_of, head: tuple | None = None):
    """``template`` for this phone: the page kept for its view at the table's seq, or drawn now
    (``context_of(row, seat)`` gives the context) and kept for the next phone."""
    db = get_db()
    head = head or store.table_head(db, code)
    if head is None:
        return make_response("", 404)
    table_id, seq, slug = head
    system = systems().get(slug)
    # the game's content (decks, unit templates) is on the pages too
    view = view_of(seat, page, system.version if system else "")
    hit = store.drawn(db, table_id, seq, view)
    if hit is None:
        row = store.table(db, code)
        ctx = context_of(row, {**seat, "name": _placeholder("name")})
        hit = (draw(template, ctx), {"undo": (ctx.get("history") or {}).get("undo")})
        store.keep_drawn(db, table_id, row["seq"], view, *hit)
    resp = make_response(for_phone(*hit, seat))
    resp.headers["Vary"] = "HX-Request, Cookie, Accept-Encoding"
    return resp


def board_answer(code: str, seat: dict, head: tuple | None = None):
    """The board fragment (htmx) for this phone, drawn once per change and view."""
    from companion.play import board_context  # play imports this module

    return kept_answer(code, seat, "board", "_board.html",
                       lambda row, s: board_context(code, s, row=row), head)
