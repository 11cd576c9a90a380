"""The board: one home for drawing it (issue 29).

The board is a pure function of (table, seq, view), where the view is (role, side): every phone of a
view is served the same HTML, drawn once per change by each server process and kept in its memory
(a live stream's step is worked out by one worker and shared with the others: ``shared``).
What belongs to one phone is not in it: the page shell carries the seat's name and side
(``data-seat``/``data-side`` on the body) and its CSRF token (``hx-headers``), and static/js does
the little that needs them (Undo asks first only for another seat's move).  The forms' hidden token is
the view's own (``form_token``): the same for every phone of the view, so a form works without
JavaScript too.

- ``context``: what the board's templates read, from the table row as the view sees it;
- ``draw``: the board as named parts in order (``templates/board/``, ``_unit_box.html``), and the step
  from a board a few changes back (the parts whose HTML changed);
- ``reads``: what each part read while it was drawn, so a part is drawn again only when that changed;
- ``keep``: the boards this process has drawn, by (table, seq, view), and their parts, in memory (a
  read never writes);
- ``shared``: the steps live streams push, shared by the server's workers on one machine (/dev/shm);
- ``answer``: a phone's answer: the whole board, a step, or one unit's card, with its open rows.
"""
from companion.board.answer import board_fragment, board_page, card_answer, kept_board, open_units, pushed_step
from companion.board.context import board_context, has_template, newest_result
from companion.seat import View, form_token, view_of

__all__ = ["View", "board_context", "board_fragment", "board_page", "card_answer", "form_token", "has_template",
           "kept_board", "newest_result", "open_units", "pushed_step", "view_of"]
