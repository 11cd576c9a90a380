"""One part of a board that fails to draw never takes the whole board down (issue 43).

A board is drawn as some thirty parts (board/draw.py); a part whose template or game code raises is
drawn as a sentence in its place, with its element's id (a later step still swaps it), and the
error is logged with its traceback.  The rest of the board works: Next ▶ and Undo are in other
parts, so the table can go on (or undo its way out of the state that broke the part).

Under the tests (COMPANION_CHECK_PARTS=1, tests/conftest.py) a failing part raises as before, so no
test passes over a broken part without seeing it; a test of this isolation turns ``STRICT`` off.
"""
from __future__ import annotations

import logging
import os

from markupsafe import escape

log = logging.getLogger(__name__)

STRICT = os.environ.get("COMPANION_CHECK_PARTS") == "1"
SENTENCE = "This part of the board could not be drawn."
MARK = "data-broken-part"  # on every stand-in: the random-play test looks for it on every page

# the stand-in of a part that opens or closes an element of the board keeps the page's nesting
_OPENS = {"board/open.html": '<section id="board" data-seq="{seq}">',
          "board/side_open.html": '<section class="side">'}
_CLOSES = {"board/side_close.html": "</section>"}


def stand_in(name: str, part_id: str | None, seq: int) -> str:
    """What is drawn in place of the part ``name`` (a template, or "unit"), whose element is
    ``part_id`` (None for the fixed text between named parts)."""
    if part_id == "unit-options":  # a hidden list the forms copy: an empty one keeps the script working
        return f'<select id="unit-options" hidden disabled aria-hidden="true" {MARK}></select>'
    tag = "section" if part_id is None else "div"
    own = f' id="{escape(part_id)}"' if part_id else ""
    sentence = f'<{tag}{own} class="flash" role="alert" {MARK}>{SENTENCE}</{tag}>'
    return _OPENS.get(name, "").format(seq=seq) + sentence + _CLOSES.get(name, "")


def drawn_or_stand_in(draw, name: str, part_id: str | None, code: str, seq: int, keep_raising=()):
    """``draw()``, or the part's stand-in when it raises (logged with the traceback); ``keep_raising``:
    errors that are not the part's own (the tests' PartDrift) and always go up."""
    try:
        return draw()
    except keep_raising:
        raise
    except Exception:
        if STRICT:
            raise
        log.exception("Part %s (%s) of table %s at seq %s could not be drawn", part_id or "-", name, code, seq)
        return stand_in(name, part_id, seq)
