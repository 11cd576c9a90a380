"""The board of one table at one seq, for one view, as named parts in order.

A board is a list of segments: the parts a change usually touches (the turn line, the dock, the
rolls, the unit list the forms copy, and each unit) are named; the rest (the game's panel, the
table's trackers, the decks, each side's heading) is fixed text between them.  The whole board is
the segments joined; the step from an earlier board of the same view is the named parts whose HTML
differs, sent out of band, when every fixed segment is the same (else the whole board goes).

Each segment is a small template (``templates/board/``, ``_unit_box.html``) rendered with the board's
one context: the order of the board lives here, once (``_segments``).
"""
from __future__ import annotations

import hashlib
import json
from contextlib import contextmanager
from dataclasses import dataclass, field

from flask import current_app, g
from markupsafe import Markup

from companion.board import keep
from companion.board.context import board_context
from companion.seat_view import View, form_token
from companion.web import without_indentation

DELTA_BEHIND = 3  # a phone this many changes behind (or fewer) may get a step rather than the board


@contextmanager
def _forms_of(token: str):
    """While a board is drawn, ``csrf()`` (the macros' global) answers the view's token."""
    before = g.get("form_token")
    g.form_token = token
    try:
        yield
    finally:
        g.form_token = before


@dataclass
class Segment:
    key: str | None  # a part's id (the element it is), None for fixed text
    html: str
    unit: tuple | None = None  # (uid, unit) of a unit's part: drawn again with its card in on demand


@dataclass
class Board:
    """One drawn board.  ``variants`` holds a unit's part drawn with its card in (and open), drawn the
    first time a phone with that row open asks."""
    code: str
    seq: int
    view: View
    opening: str  # the board's own tag (its seq): not compared between boards
    segments: list[Segment]
    context: dict = field(repr=False)
    cards: dict[str, str] = field(default_factory=dict)  # uid -> the unit's card, as its slot is filled
    variants: dict[tuple, str] = field(default_factory=dict)
    steps: dict[int, tuple[str, ...] | None] = field(default_factory=dict)  # since -> changed part ids
    size: int = 0
    version: str = ""  # the templates' and the library's it was drawn with (keep.version)
    shared: dict | None = field(default=None, repr=False)  # parts drawn without reading the side (keep.shared)

    def part(self, key: str) -> Segment | None:
        return next((s for s in self.segments if s.key == key), None)

    def unit_html(self, segment: Segment, with_card: bool, row_open: bool) -> str:
        if not with_card or segment.unit[0] not in self.cards:
            return segment.html
        key = (segment.unit[0], row_open)
        if key not in self.variants:
            self.variants[key] = _render_unit(self, segment.unit, with_card=True, row_open=row_open)
        return self.variants[key]

    def html_of(self, segment: Segment, open_units: set[str], page_load: bool) -> str:
        if segment.unit is None or not open_units:
            return segment.html
        uid = segment.unit[0]
        opened = uid in open_units or "*" in open_units
        # a page load draws the open rows open; an htmx answer leaves that to companion.js (a row the
        # player folded while the request was out stays folded)
        return self.unit_html(segment, opened, opened and page_load and uid in open_units) if opened else segment.html

    def whole(self, open_units: set[str], page_load: bool = False) -> str:
        return self.opening + "".join(self.html_of(s, open_units, page_load) for s in self.segments) + "</section>"

    def step_from(self, old: Board) -> tuple[str, ...] | None:
        """The ids of the parts that changed since ``old`` (same view), or None when the whole board has
        to go (a fixed segment differs, or the parts are not the same ones in the same order)."""
        if old.seq not in self.steps:
            self.steps[old.seq] = _changed(old, self)
        return self.steps[old.seq]

    def step(self, keys: tuple[str, ...], open_units: set[str]) -> str:
        """The changed parts, each marked to be swapped out of band by its id."""
        out = []
        for key in keys:
            segment = self.part(key)
            html = self.html_of(segment, open_units, False)
            tag_end = html.index(" ")  # every part opens "<tag id=...": the swap's mark goes after the tag
            out.append(html[:tag_end] + ' hx-swap-oob="true"' + html[tag_end:])
        return "".join(out)


def _changed(old: Board, new: Board) -> tuple[str, ...] | None:
    if len(old.segments) != len(new.segments):
        return None
    changed = []
    for was, now in zip(old.segments, new.segments, strict=False):
        if was.key != now.key:
            return None
        if was.html != now.html:
            if now.key is None:
                return None
            changed.append(now.key)
    return tuple(changed)


def draw(row: dict, view: View, errors: dict | None = None, flash: str | None = None, version: str = "") -> Board:
    """The board of ``row`` (a table row at its seq) for ``view``: a pure function of the two (and the
    templates); ``errors``/``flash``: one answer's own sentences (such a board is not kept, nor shared);
    ``version``: the templates' and the library's (keep.version), which the parts shared between views
    are drawn from too."""
    token = form_token(row["code"], view)
    seat = _Seat(view.seat())
    ctx = board_context(row["code"], seat, errors, flash, row)
    ctx["csrf_token"] = token
    current_app.update_template_context(ctx)  # the games' helpers (their context processors), once
    ctx["csrf_token"] = token
    ctx["code"], ctx["ro"] = row["code"], ctx["readonly"]
    ctx.update(_macros())
    board = Board(row["code"], ctx["row"]["seq"], view, "", [], ctx, version=version)
    # what another view of the same role drew at this seq from the same data, without reading the
    # seat's side (a side's own highlight, a game's own-side buttons do), is this view's too
    board.shared = None if errors or flash else keep.shared(row["id"], board.seq, view.role,
                                                            f"{version}|{_data_digest(ctx)}")
    with _forms_of(token):
        board.opening = _render("board/open.html", ctx)
        board.segments = list(_segments(board, ctx))
    board.size = len(board.opening) + sum(len(s.html) for s in board.segments) + sum(map(len, board.cards.values()))
    return board


class _Seat(dict):
    """The view's seat, noting whether a template read its side (the part is then the side's own)."""
    read_side = False

    def __getitem__(self, key):
        if key == "side":
            self.read_side = True
        return super().__getitem__(key)

    def get(self, key, default=None):
        if key == "side":
            self.read_side = True
        return super().get(key, default)


def _data_digest(ctx: dict) -> str:
    """What the board is drawn from besides the view, as the view sees it (another side's sealed parts
    redacted): two views with the same digest and role differ only where a template reads the side."""
    data = [ctx["state"], ctx["history"], ctx["rolls"], ctx["result"], ctx["readonly"], ctx["roster"]]
    return hashlib.blake2b(json.dumps(data, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


def _once(board: Board, key, render):
    """``render()``, or what another view drew for ``key`` from the same data without reading the side."""
    pool = board.shared
    if pool is not None and key in pool:
        return pool[key]
    seat = board.context["seat"]
    seat.read_side = False
    out = render()
    if pool is not None and not seat.read_side:
        pool[key] = out
    return out


def _macros() -> dict:
    """The macros the board's templates use, from their modules imported once (a template's own
    ``{% from ... import %}`` runs at each of its renders: ~1 ms of a board's ~2.7 ms, drawn as some
    thirty small templates).  They read only globals (``csrf()``), as imported without context."""
    env = current_app.jinja_env
    macros, trackers = env.get_template("_macros.html").module, env.get_template("_trackers.html").module
    return {"err": macros.err, "form_open": macros.form_open, "row_numbers": trackers.row_numbers}


def _render(name: str, ctx: dict, **extra) -> str:
    template = current_app.jinja_env.get_template(name)
    return without_indentation(template.render({**ctx, **extra} if extra else ctx))


def _segments(board: Board, ctx: dict):
    state = ctx["state"]

    def part(name: str, **extra) -> str:
        return _once(board, (name, tuple(sorted(extra.items()))), lambda: _render(name, ctx, **extra))
    yield Segment("unit-options", part("board/unit_options.html"))
    yield Segment(None, part("board/top.html"))
    yield Segment("turn", part("board/turn.html"))
    yield Segment(None, part("board/middle.html"))
    for si, side in enumerate(state["sides"]):
        yield Segment(None, part("board/side_open.html", side=side, si=si))
        for uid in state["unit_order"]:
            unit = state["units"][uid]
            if unit["side"] == side and not unit.get("removed"):
                yield Segment(f"u-{uid}", _unit_part(board, (uid, unit)), (uid, unit))
        yield Segment(None, part("board/side_close.html", side=side, si=si))
    yield Segment(None, part("board/decks.html") + '<section class="card"><h2>Rolls and draws</h2>')
    yield Segment("rolls", part("board/rolls.html"))
    yield Segment(None, "</section>")
    yield Segment("dock", part("board/dock.html"))
    yield Segment(None, part("board/bottom.html"))


def _unit_part(board: Board, unit: tuple) -> str:
    """A unit's part (and its card), shared with the other views like any part."""
    uid = unit[0]

    def render():
        html = _render_unit(board, unit)
        return html, board.cards.get(uid)
    html, card = _once(board, ("unit", uid), render)
    if card is not None:
        board.cards[uid] = card
    return html


def fingerprint(card: str) -> str:
    """A unit's card in a few characters: in its row's slot, and on the card a phone asks for."""
    return hashlib.blake2b(card.encode(), digest_size=5).hexdigest()


def _render_unit(board: Board, unit: tuple, with_card: bool = False, row_open: bool = False) -> str:
    """A unit's part: its row with the card's slot (or the card in it), or its card alone (a game
    without rows).  The card is drawn first: the slot carries its fingerprint, so a change to the card
    alone changes the part too."""
    uid, data = unit
    ctx = board.context
    with _forms_of(ctx["csrf_token"]):
        card = board.cards.get(uid)
        if card is None:
            card = _render("_unit_card.html", ctx, uid=uid, unit=data)
            if ctx["unit_rows"]:
                board.cards[uid] = card
        return _render("_unit_box.html", ctx, uid=uid, unit=data, card_html=Markup(card), card_v=fingerprint(card),
                       with_card=with_card, row_open=row_open)
