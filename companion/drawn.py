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
import json
import os
import re

from flask import current_app, make_response, render_template
from markupsafe import Markup, escape

from companion import hidden, store
from companion.db import get_db, systems
from companion.folded_cards import card_of, fold, folded, keep_only, open_units, unfold
from companion.markup import element_end, first_difference
from companion.marks import secret_mark
from companion.side_marks import SideDrift, any_side, for_side
from companion.web import csrf_token, without_indentation



def templates_version() -> str:
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


def view_of(seat: dict, page: str, system_version: str = "", every_side: bool = False) -> str:
    """What the HTML of ``page`` depends on besides the table's seq: role and side (not the name);
    ``every_side``: a board drawn once for every side (companion/side_marks.py)."""
    # a side's own name is quoted (any text may name a side, "*" and "|" too): it can never read as
    # another side's, nor as the board for every side
    side = "*" if every_side else json.dumps(seat.get("side") or "")
    return f"{page}|{seat.get('role')}|{side}|{templates_version()}|{system_version}"


def views_of(seat: dict, page: str, slug: str) -> tuple[str, ...]:
    """The views a phone may be served ``page`` from: the board drawn for every side first (when the
    seat plays a side and its game's board may be drawn so), then its own side's."""
    system = systems().get(slug)
    version = system.version if system else ""
    own = view_of(seat, page, version)
    if page == "board" and seat.get("role") == "player" and seat.get("side") and not _reads_side(slug):
        return view_of(seat, page, version, every_side=True), own
    return (own,)


def _reads_side(slug: str) -> bool:
    from companion import games
    game = games.declared(slug)
    return bool(game and game.reads_side)


def for_phone(html: str, meta: dict, seat: dict) -> str:
    """A kept page with this phone's own CSRF token and seat name, its own side's bits, and its own
    Undo question."""
    name = str(seat.get("name") or "")
    html = for_side(html, seat.get("side"))  # first: a side's bit may hold the seat name's mark
    html = html.replace(secret_mark("csrf"), csrf_token()).replace(secret_mark("name"), str(escape(name)))
    undo = meta.get("undo")
    if undo and undo.startswith(name + ": "):
        # the phone's own move: Undo takes it back without asking (issue 10 §5)
        html = html.replace(f' hx-confirm="Undo {escape(undo)}?"', "", 1)
    return html


def draw(template: str, context: dict) -> str:
    """Render ``template`` with the per-phone bits as placeholders."""
    token = csrf_token()
    html = without_indentation(render_template(template, **context))
    return html.replace(token, secret_mark("csrf"))


def _kept(db, code: str, seat: dict, page: str, template: str, context_of, head: tuple,
          pending: list | None = None, row: dict | None = None) -> tuple[str, dict, str]:
    """(html, meta, view) of ``template`` for the seat's view at the table's seq: kept, or drawn and
    kept (or, with ``pending``, added to it for the caller to keep in the same write as its own).
    ``row``: the table as the caller has it (an action's answer), drawn from if it is at that seq."""
    table_id, seq, slug = head
    # the game's content (decks, unit templates) is on the pages too
    views = views_of(seat, page, slug)
    hit = store.drawn_any(db, table_id, seq, views)
    if hit is not None:
        return hit
    if row is None or row["seq"] != seq:
        row = store.table(db, code)
    # one board for every side, unless the table holds a side's secrets (companion/side_marks.py)
    every_side = len(views) > 1 and not row["state"].get(hidden.KEY)
    view = views[0] if every_side else views[-1]
    drawn_for = {**seat, "name": secret_mark("name"), **({"side": any_side()} if every_side else {})}
    ctx = context_of(row, drawn_for)
    # kept with the unit cards folded out of their rows, beside it (companion/folded_cards.py)
    html, meta = fold(draw(template, ctx)), {"undo": (ctx.get("history") or {}).get("undo"), "seq": row["seq"]}
    if every_side and current_app.config.get("CHECK_CARDS"):
        _check_every_side(html, fold(draw(template, context_of(row, {**seat, "name": secret_mark("name")}))), seat)
    if pending is None:
        store.keep_drawn(db, table_id, [(row["seq"], view, html, meta)], keep=DELTA_BEHIND)
    else:
        pending.append((row["seq"], view, html, meta))
    return html, meta, view


def _check_every_side(html: str, own: str, seat: dict) -> None:
    """(tests) The board drawn for every side, as the seat's side sees it, is the board drawn for it."""
    seen = for_side(html, seat.get("side"))
    if seen != own:
        raise SideDrift(f"the board drawn for every side differs for {seat.get('side')!r} from its own: does its "
                        f"game read the seat's side other than through if_side (Game.reads_side)?\n"
                        f"{first_difference(own, seen, ('own side', 'every side'))}")


def kept_answer(code: str, seat: dict, page: str, template: str, context_of, head: tuple | None = None,
                row: dict | None = None):
    """``template`` for this phone: the page kept for its view at the table's seq, or drawn now
    (``context_of(row, seat)`` gives the context) and kept for the next phone."""
    db = get_db()
    head = head or store.table_head(db, code)
    if head is None:
        return make_response("", 404)
    html, meta, _ = _kept(db, code, seat, page, template, context_of, head, row=row)
    resp = make_response(for_phone(unfold(html, open_units()), meta, seat))
    resp.headers["Vary"] = "HX-Request, Cookie, Accept-Encoding, X-Open-Units"
    return resp


def board_answer(code: str, seat: dict, context_of, head: tuple | None = None, row: dict | None = None):
    """The board fragment (htmx) for this phone, drawn once per change and view; ``context_of(row,
    seat)`` is the board's template context (play.board_context, passed in: play imports this module)."""
    return kept_answer(code, seat, "board", "_board.html", context_of, head, row)


def board_for_page(code: str, seat: dict, context_of, row: dict | None = None) -> Markup | None:
    """The board for a whole page load, taken from (or drawn into) the boards kept for the seat's
    view, so the phone's first action finds its board kept and gets a step back, not the whole board
    again; the page marks the open rows (folded_cards.for_request).  None if the table is gone."""
    db = get_db()
    head = store.head_of(row) if row else store.table_head(db, code)
    if head is None:
        return None
    html, meta, _ = _kept(db, code, seat, "board", "_board.html", context_of, head, row=row)
    return Markup(for_phone(unfold(html, open_units()), meta, seat))


def card_answer(code: str, seat: dict, context_of, uid: str):
    """One unit's whole card for a phone that has just opened its row (the board it has shows the
    row folded): cut from the board kept for the seat's view, drawn now if none is kept."""
    db = get_db()
    head = store.table_head(db, code)
    if head is None:
        return make_response("", 404)
    html, meta, _ = _kept(db, code, seat, "board", "_board.html", context_of, head)
    card = card_of(html, uid)
    if card is None:  # taken off the table meanwhile (its row goes with the next poll)
        return make_response("That unit is no longer on the table.", 404)
    resp = make_response(for_phone(card, meta, seat))
    resp.headers["Vary"] = "HX-Request, Cookie, Accept-Encoding"
    return resp


# --- a poll a change or two behind: only what changed ------------------------------------------------
# The board's parts that a change usually touches: each unit (div.unitbox), the turn line, the dock
# (bottom bar and result sheet), the rolls and the unit list the forms below the board copy.  A phone
# a few changes behind gets just those of them that differ, as htmx out-of-band swaps, when nothing
# else on its board differs; otherwise (a new unit, a deck, the table's trackers, a game's panel) it
# gets the whole board.
DELTA_BEHIND = 3
PARTS = ("turn", "dock", "rolls", "unit-options")
_UNIT = re.compile(r'<div class="unitbox" id="(u-[^"]+)">')


def parts_of(html: str) -> tuple[dict[str, str], str]:
    """The board's swappable parts by id, and the rest of it with each part's place marked."""
    spans = [(m.start(), "div", m.group(1)) for m in _UNIT.finditer(html)]
    for part in PARTS:
        at = html.find(f' id="{part}"')
        if at >= 0:
            start = html.rfind("<", 0, at)
            spans.append((start, re.match(r"<([a-zA-Z0-9]+)", html[start:]).group(1).lower(), part))
    # the board's own tag names the seq it shows: a delta moves that on itself (X-Board-Seq)
    pos = html.index(">") + 1 if html.startswith('<section id="board"') else 0
    parts, rest = {}, []
    for start, tag, pid in sorted(spans):
        if start < pos:
            raise ValueError(f"#{pid} lies inside another part")
        end = element_end(html, start, tag)
        parts[pid] = html[start:end]
        rest += [html[pos:start], f"\x00{pid}\x00"]
        pos = end
    return parts, "".join(rest) + html[pos:]


def board_delta(code: str, seat: dict, context_of, head: tuple, since: int, row: dict | None = None):
    """For a phone showing the board at ``since`` (a few changes behind): the parts that changed,
    out of band, or None when the whole board has to come (too far behind, or more changed).

    After a change every other phone at the table asks for the same step (since -> seq) within a
    poll interval, so the step is worked out once per view and kept beside the boards (in the
    database, shared by every worker); each phone then only gets its own bits put back in."""
    if not 0 < head[1] - since <= DELTA_BEHIND:
        return None
    db = get_db()
    table_id, seq, slug = head
    views = views_of(seat, "board", slug)
    hit = store.drawn_any(db, table_id, seq, tuple(f"since {since}|{view}" for view in views))
    if hit is None:
        old = store.drawn_any(db, table_id, since, views)
        if old is None:
            return None  # no board of that seq was kept for this view: nothing to compare with
        pages: list = []  # the board drawn for this seq and the step to it, kept in one write
        html, meta, view = _kept(db, code, seat, "board", "_board.html", context_of, head, pages, row)
        # a board for every side and one for a side alone (a part was sealed) hold the side's bits
        # differently: the whole board goes
        changed = _changed(folded(old[0]), folded(html)) if old[2] == view else None
        hit = (keep_only(changed, html) if changed else "", {**meta, "whole": changed is None})
        store.keep_drawn(db, table_id, pages + [(meta.get("seq", seq), f"since {since}|{view}", *hit)],
                         keep=DELTA_BEHIND)
    changed, meta = hit[0], hit[1]
    if meta.get("whole"):
        return None
    resp = make_response(for_phone(unfold(changed, open_units()), meta, seat))
    resp.headers["HX-Reswap"] = "none"  # the board stays; only the parts sent out of band change
    resp.headers["X-Board-Seq"] = str(meta.get("seq", seq))
    resp.headers["Vary"] = "HX-Request, Cookie, Accept-Encoding, X-Open-Units"
    return resp


def _changed(old: str, new: str) -> str | None:
    """The parts of board ``new`` that differ from board ``old``, marked for an out-of-band swap;
    None when something outside those parts differs too (the whole board has to go)."""
    try:
        (was, was_rest), (now, now_rest) = parts_of(old), parts_of(new)
    except ValueError:
        return None
    if was_rest != now_rest:
        return None
    return "".join(re.sub(r"^<([a-zA-Z0-9]+)", r'<\1 hx-swap-oob="true"', part)
                   for pid, part in now.items() if was.get(pid) != part)
