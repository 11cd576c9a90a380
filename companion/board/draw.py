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
import os
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from flask import current_app
from markupsafe import Markup, escape

from companion.board import keep, reads
from companion.board.context import board_context
from companion.board.isolate import drawn_or_stand_in
from companion.board.reads import Watched
from companion.i18n import drawn_in
from companion.said import _
from companion.seat import View, form_token
from companion.web import forms_of, without_indentation

DELTA_BEHIND = 3  # a phone this many changes behind (or fewer) may get a step rather than the board
# the tests set it: every kept part served again is drawn too and must be the same (PartDrift)
CHECK_PARTS = os.environ.get("COMPANION_CHECK_PARTS") == "1"


class Segment(NamedTuple):
    """One segment of a board (a retired board keeps them as plain (key, html, None) tuples)."""
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
    context: dict | None = field(repr=False)  # None once retired
    cards: dict[str, str] = field(default_factory=dict)  # uid -> the unit's card, as its slot is filled
    variants: dict[tuple, str] = field(default_factory=dict)
    steps: dict[int, tuple[str, ...] | None] = field(default_factory=dict)  # since -> changed part ids
    size: int = 0
    version: str = ""  # the templates' and the library's it was drawn with (keep.version)
    parts_key: tuple | None = None  # where its parts are kept (keep.part_key); None: drawn for one answer
    texts: dict = field(default_factory=dict, repr=False)  # what its parts read, printed once a draw (reads.prints)
    pushed: dict[int, str] = field(default_factory=dict, repr=False)  # since -> the step live streams push
    outlined: list[tuple[str, str]] | None = field(default=None, repr=False)  # outline(), worked out once

    def retire(self) -> None:
        """A newer board of the same view is kept: this one is only a step's starting point now (its
        segments), so what it was drawn from goes (the collector need not walk a table's state once
        per kept board: docs/performance.md)."""
        self.context, self.texts, self.variants = None, {}, {}
        # plain tuples of strings: the collector stops walking them (it never does for a NamedTuple)
        self.segments = [(s[0], s[1], None) for s in self.segments]

    def part(self, key: str) -> Segment | None:
        """The part ``key``: its segment, or a split part's (``split``) segments joined as one."""
        spanned = [i for i, s in enumerate(self.segments) if s[0] == key]
        if len(spanned) < 2:
            return self.segments[spanned[0]] if spanned else None
        return Segment(key, "".join(s[1] for s in self.segments[spanned[0]:spanned[-1] + 1]))

    def unit_html(self, segment: Segment, with_card: bool, row_open: bool) -> str:
        # the context read once: another request's thread may retire this board at any moment (a server
        # of threads; a gevent worker never switches inside a draw)
        context, variants = self.context, self.variants
        if not with_card or segment.unit[0] not in self.cards or context is None:
            return segment.html  # (retired meanwhile: the row's slot asks for the card)
        key = (segment.unit[0], row_open)
        if key not in variants:
            with drawn_in(self.view.lang):
                variants[key] = _render_unit(self, segment.unit, with_card=True, row_open=row_open, context=context)
        return variants[key]

    def html_of(self, segment: Segment, open_units: set[str], page_load: bool) -> str:
        if segment[2] is None or not open_units:  # (a retired board's segments are plain tuples)
            return segment[1]
        uid = segment.unit[0]
        opened = uid in open_units or "*" in open_units
        # a page load draws the open rows open; an htmx answer leaves that to static/js (a row the
        # player folded while the request was out stays folded)
        return self.unit_html(segment, opened, opened and page_load and uid in open_units) if opened else segment.html

    def whole(self, open_units: set[str], page_load: bool = False) -> str:
        return self.opening + "".join(self.html_of(s, open_units, page_load) for s in self.segments) + "</section>"

    def step_from(self, old: Board) -> tuple[str, ...] | None:
        """The ids of the parts that changed since ``old`` (same view), or None when the whole board has
        to go (a fixed segment differs, or the parts are not the same ones in the same order)."""
        if old.seq not in self.steps:
            self.steps[old.seq] = _changed([s[:2] for s in old.segments], self, str.__eq__)
        return self.steps[old.seq]

    def outline(self) -> list[tuple[str, str]]:
        """Each segment's key ("" for fixed text) and a digest of its HTML: what another server worker
        needs of this board to work out the step from it (board/shared.py)."""
        if self.outlined is None:
            self.outlined = [(s[0] or "", digest(s[1])) for s in self.segments]
        return self.outlined

    def step_from_outline(self, seq: int, outline: list[tuple[str, str]]) -> tuple[str, ...] | None:
        """``step_from`` the board at ``seq`` that another worker drew, known by its ``outline``."""
        if seq not in self.steps:
            # (``_changed`` compares the segments in order, one by one: this board's own digests, made once)
            mine = iter(self.outline())
            self.steps[seq] = _changed([(k or None, d) for k, d in outline], self, lambda d, _html: d == next(mine)[1])
        return self.steps[seq]

    def step(self, keys: tuple[str, ...], open_units: set[str]) -> str:
        """The changed parts, each marked to be swapped out of band by its id."""
        out = []
        for key in keys:
            segment = self.part(key)
            html = self.html_of(segment, open_units, False)
            tag_end = html.index(" ")  # every part opens "<tag id=...": the swap's mark goes after the tag
            out.append(html[:tag_end] + ' hx-swap-oob="true"' + html[tag_end:])
        return "".join(out)


def _changed(old: list[tuple], new: Board, same) -> tuple[str, ...] | None:
    """The keys of ``new``'s parts that differ from ``old``'s [(key, what)], where ``same(what, html)``;
    a split part (``split``) goes whole when its own text around its parts changed, else only those
    of its parts that changed go."""
    if len(old) != len(new.segments):
        return None
    changed: list[str] = []
    for (was_key, was), (key, html, _unit) in zip(old, new.segments, strict=False):  # (new may be retired)
        if was_key != key:
            return None
        if not same(was, html):
            # a fixed segment, or a part carrying out-of-band answers of its own (Dreadnaught's panel
            # carries its tools' result slots): the whole board goes.  A part swapped out of band
            # keeps a copy of what is nested in it, so the slot would be on the page twice.
            if key is None or ' hx-swap-oob="' in html:
                return None
            if key not in changed:
                changed.append(key)
    whole = set(changed)  # (a split part's own text changed: its parts go with it)
    return tuple(k for k in changed if "/" not in k or k.split("/", 1)[0] not in whole)


def draw(row: dict, view: View, errors: dict | None = None, flash: str | None = None, version: str = "") -> Board:
    """The board of ``row`` (a table row at its seq) for ``view``: a pure function of the two (and the
    templates); ``errors``/``flash``: one answer's own sentences (such a board is not kept, nor are its
    parts); ``version``: the templates' and the library's (keep.version), which kept parts are drawn
    from too."""
    with drawn_in(view.lang):  # every phone of the view reads it: drawn in the view's language
        return _draw(row, view, errors, flash, version)


def _draw(row: dict, view: View, errors: dict | None, flash: str | None, version: str) -> Board:
    token = form_token(row["code"], view)
    ctx = board_context(row["code"], view.seat(), errors, flash, row)
    ctx["csrf_token"] = token
    current_app.update_template_context(ctx)  # Flask's and the app's context processors, once
    ctx["csrf_token"] = token
    ctx["code"], ctx["ro"] = row["code"], ctx["readonly"]
    ctx.update(_macros())
    # what a part reads of these is noted key by key (board/reads.py)
    ctx["row"], ctx["state"], ctx["seat"] = (Watched("row", ctx["row"]), Watched("state", ctx["state"]),
                                             Watched("seat", ctx["seat"]))
    ctx["unit_result"] = Watched("unit_result", ctx["unit_result"])  # read unit by unit (context.unit_results)
    board = Board(row["code"], ctx["row"]["seq"], view, "", [], ctx, version=version, texts=reads.Prints(ctx))
    if not (errors or flash):
        board.parts_key = keep.part_key(row["id"], view.role, view.lang, version)
    with forms_of(token):
        board.opening = drawn_or_stand_in(lambda: _render("board/open.html", ctx), "board/open.html", "board",
                                          row["code"], board.seq)
        board.segments = list(_segments(board, ctx))
    board.size = len(board.opening) + sum(len(s.html) for s in board.segments) + sum(map(len, board.cards.values()))
    return board


def _drawn(board: Board, key: tuple, render, extra: dict | None = None, context: dict | None = None):
    """One part of the board (``render(ctx)``: its HTML, or a tuple of HTML): a variant drawn before (at
    an earlier seq, or for another side) when the values of everything it read are the same now
    (board/reads.py), else drawn now and kept.  ``extra``: the part's own names (a side, a unit);
    ``context``: the board's, as its caller read it (Board.unit_html)."""
    context = board.context if context is None else context
    ctx = {**context, **extra} if extra else context
    if board.parts_key is None:
        return render(ctx)
    at, texts = board.parts_key + (key,), board.texts
    for read, absent, own, printed, html in keep.parts(at):
        try:
            if reads.same_prints(read, absent, own, printed, ctx, texts):
                if CHECK_PARTS:
                    _check(key, render, ctx, read + own, html)
                return html
        except reads.NotKept:
            pass
    noted = set()
    with reads.recording(noted):
        html = render(ctx)
    read, absent, own = reads.noted(noted, ctx, frozenset(extra or ()))
    try:
        keep.keep_part(at, (read, absent, own, reads.prints(read, ctx, texts) + reads.own_prints(own, ctx, texts),
                            html))
    except reads.NotKept:
        pass  # it read a phone's own things, or a value that cannot be compared: drawn every time
    return html


def _macros() -> dict:
    """The macros the board's templates use, from their modules imported once (a template's own
    ``{% from ... import %}`` runs at each of its renders: ~1 ms of a board's ~2.7 ms, drawn as some
    thirty small templates).  They read only globals (``csrf()``), as imported without context."""
    env = current_app.jinja_env
    macros, trackers = env.get_template("_macros.html").module, env.get_template("_trackers.html").module
    return {"err": macros.err, "form_open": macros.form_open, "seated": macros.seated, "row_numbers": trackers.row_numbers}


class PartDrift(AssertionError):
    """A kept part served again differs from the part drawn now: something it read was not noted."""


def _check(key: tuple, render, ctx: dict, read: tuple, html) -> None:
    """The tests' check (COMPANION_CHECK_PARTS=1): a part served again is the part drawn now."""
    if render(ctx) != html:
        raise PartDrift(f"The kept part {key} is not what it draws now; its reads were {read}")


def _render(name: str, ctx: dict, **extra) -> str:
    template = current_app.jinja_env.get_template(name)
    return without_indentation(template.render({**ctx, **extra} if extra else ctx))


def _segments(board: Board, ctx: dict):
    state = ctx["state"]

    def part(name: str, part_id: str | None = None, **extra) -> str:
        # each part on its own: one that fails is a sentence in its place, the rest of the board works
        return drawn_or_stand_in(lambda: _drawn(board, (name, *sorted(extra.items())), lambda ctx: _render(name, ctx), extra),
                                 name, part_id, board.code, board.seq, PartDrift)
    yield Segment("unit-options", part("board/unit_options.html", "unit-options"))
    yield Segment(None, part("board/top.html"))
    yield Segment("turn", part("board/turn.html", "turn"))
    # the game's panel and the decks are parts of their own (issue 38: as fixed text, a game's change to
    # either sent every phone the whole board, which each then asked for)
    yield from split("game-panel", part("board/panel.html", "game-panel"))
    yield Segment(None, part("board/middle.html"))
    units = state.raw["units"]  # (a unit is a part's own: printed whole, not watched key by key)
    for si, side in enumerate(state["sides"]):
        yield Segment(None, part("board/side_open.html", side=side, si=si))
        for uid in state["unit_order"]:
            unit = units[uid]
            if unit["side"] == side and not unit.get("removed"):
                yield Segment(f"u-{uid}", _render_unit(board, (uid, unit)), (uid, unit))
        yield Segment(None, part("board/side_close.html", side=side, si=si))
    yield from split("board-decks", part("board/decks.html", "board-decks"))
    heading = escape(_("Rolls and draws"))  # (outside the f-string: the catalogs' extraction reads no call inside one)
    yield Segment(None, f'<section class="card"><h2>{heading}</h2>')
    yield Segment("rolls", part("board/rolls.html", "rolls"))
    yield Segment(None, "</section>")
    yield Segment("dock", part("board/dock.html", "dock"))
    yield Segment(None, part("board/bottom.html"))


# A part's template may mark parts of its own: an element with an id that never changes, between these
# two comments (not nested).  A change to one of them then sends that element, not the whole part
# (issue 38: a broadside's one line of Dreadfleet's panel sent all 7.8 KB of it to every phone).
PART_OPEN, PART_CLOSE = "<!--part-->", "<!--/part-->"
_PART_ID = re.compile(r'<[a-z][a-z0-9]*\s(?:[^>]*?\s)?id="([^"]+)"')  # (its own id, not a data-id)


def split(key: str, html: str) -> list[Segment]:
    """Part ``key`` as segments: its own text around the parts it marks keyed ``key`` (that text
    changed: all of it goes), each marked part ``key/its id``.  Unmarked, or marked amiss (no id,
    no end), the part as one segment without its marks."""
    if PART_OPEN not in html:
        return [Segment(key, html)]
    out, at = [], 0
    while (start := html.find(PART_OPEN, at)) >= 0:
        end = html.find(PART_CLOSE, start)
        found = _PART_ID.match(html, start + len(PART_OPEN))
        if end < 0 or found is None:  # (match: anchored where the mark ends)
            return [Segment(key, html.replace(PART_OPEN, "").replace(PART_CLOSE, ""))]
        out += [Segment(key, html[at:start]), Segment(f"{key}/{found.group(1)}", html[found.start():end])]
        at = end + len(PART_CLOSE)
    return out + [Segment(key, html[at:])]


def digest(html: str) -> str:
    """A segment's HTML in 16 characters (64 bits: two different texts alike once in 10^19)."""
    return hashlib.blake2b(html.encode(), digest_size=8).hexdigest()


def fingerprint(card: str) -> str:
    """A unit's card in a few characters: in its row's slot, and on the card a phone asks for."""
    return hashlib.blake2b(card.encode(), digest_size=5).hexdigest()


def _render_unit(board: Board, unit: tuple, with_card: bool = False, row_open: bool = False,
                 context: dict | None = None) -> str:
    """A unit's part: its row with the card's slot (or the card in it), or its card alone (a game
    without rows).  The card is drawn first: the slot carries its fingerprint, so a change to the card
    alone changes the part too.  Card and row are kept as one part (board.cards keeps the card)."""
    uid, data = unit
    extra = {"uid": uid, "unit": data, "with_card": with_card, "row_open": row_open}
    card = board.cards.get(uid) if with_card else None
    if card is None:
        def render(ctx) -> tuple[str, str]:
            card = _render("_unit_card.html", ctx)
            return card, _render("_unit_box.html", ctx, card_html=Markup(card), card_v=fingerprint(card))
    else:
        # the row with its card in: the card this board drew for the row's slot, not drawn again (a card
        # reads neither with_card nor row_open); the box's own reads then include the card's text
        # (issue 38: each changed unit's card was drawn twice per view and change, once for the pushed step)
        extra.update(card_html=Markup(card), card_v=fingerprint(card))

        def render(ctx) -> tuple[str, str]:
            return card, _render("_unit_box.html", ctx)
    context = board.context if context is None else context

    def drawn() -> tuple[str, str]:
        with forms_of(context["csrf_token"]):
            return _drawn(board, ("unit", uid, with_card, row_open), render, extra, context)
    # a unit that fails to draw is a sentence in its row's place (its card is not offered)
    drawn_unit = drawn_or_stand_in(drawn, "unit", f"u-{uid}", board.code, board.seq, PartDrift)
    if isinstance(drawn_unit, str):
        return drawn_unit
    card, box = drawn_unit
    if context["unit_rows"]:
        board.cards.setdefault(uid, card)
    return box
