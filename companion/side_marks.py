"""One board for every side: the few bits that show only on one side's phones are marked (issue 14).

A two-sided table drew its board twice after every change: once for the side that tapped, once
more for the first phone of the other side that polled.  The two boards differed only in a few
bits: which side is highlighted as the phone's own ("mine"), which side a form's side select
starts on, a player's name filled in on the phone's own side.  Drawn with the seat's
side as a mark, each such bit is written as "this text, for seats of that side" between marks,
and each phone's answer keeps the bits of its own side (``for_side``), as its CSRF token and seat
name are put back in (companion/drawn.py).

A board may be drawn this way only when nothing else on it depends on the side:

- the table holds no sealed part (hidden information: a side's own orders are in clear only on its
  own board, companion/hidden.py);
- the game's templates read the seat's side in no other way (``Game(reads_side=True)`` otherwise:
  a game that shows a unit's buttons only to its own side).

With ``COMPANION_CHECK_CARDS=1`` (the tests) every board drawn for all sides is drawn for the
phone's own side too, and the two must agree byte for byte once the marks are resolved.
"""
from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

from companion.marks import secret_mark


class SideDrift(AssertionError):
    """A board drawn for every side differs, for one side, from the board drawn for that side."""


def any_side() -> str:
    """What a board drawn for every side has as the seat's side."""
    return secret_mark("side")


def if_side(seat: dict, side: str, text) -> Markup:
    """``text`` on the boards of seats of ``side``, nothing on the others' (in templates:
    ``{{ if_side(seat, s, 'selected') }}``)."""
    mine = (seat or {}).get("side")
    if mine is not None and mine == any_side():
        start, between, end = _marks(any_side())
        return Markup(f"{start}{escape(side)}{between}{escape(text)}{end}")
    return Markup(escape(text)) if mine is not None and side == mine else Markup("")


@lru_cache(maxsize=8)
def _marks(any_side_mark: str) -> tuple[str, str, str]:
    return any_side_mark + "(", any_side_mark + "|", any_side_mark + ")"


@lru_cache(maxsize=8)
def _pattern(any_side_mark: str) -> re.Pattern:
    start, between, end = (re.escape(m) for m in _marks(any_side_mark))
    return re.compile(f"{start}(.*?){between}(.*?){end}", re.S)


def for_side(html: str, side: str | None) -> str:
    """A board drawn for every side as a seat of ``side`` (None: no side) sees it."""
    mark = any_side()
    if mark not in html:
        return html
    own = str(escape(side)) if side else None
    return _pattern(mark).sub(lambda m: m.group(2) if m.group(1) == own else "", html)
