"""A phone's answer: the whole board, the step from the board it shows, one unit's card, the page."""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache

import gevent.monkey
from flask import after_this_request, copy_current_request_context, current_app, make_response, render_template, request
from markupsafe import Markup

from companion import store
from companion.board import keep, shared
from companion.board.draw import DELTA_BEHIND, Board, draw, fingerprint
from companion.db import get_db
from companion.seat import view_of
from companion.web import csrf_token, without_indentation

UID = re.compile(r"^[A-Za-z0-9_.:-]{1,60}$")
MAX_OPEN = 60
VARY = "HX-Request, Cookie, Accept-Encoding, X-Open-Units"


def open_units() -> set[str]:
    """The unit rows this request's phone has open: X-Open-Units (htmx), else ``?open=`` (a page
    load; "*" opens every card), else the table's "open" cookie (static/js keeps it, so a page
    loaded again, say after the phone slept, comes with the rows that were open, cards and all);
    ids that cannot be a unit's are ignored."""
    said = request.headers.get("X-Open-Units")
    if said is None:
        said = " ".join(request.args.getlist("open")) or request.cookies.get("open", "")
    return {u for u in re.split(r"[\s,~]+", said)[:MAX_OPEN] if u == "*" or UID.match(u)}


def kept_board(code: str, seat: dict, head: tuple | None = None, row: dict | None = None,
               version: str | None = None, tapped: bool = False) -> Board | None:
    """The board for the seat's view at the table's seq: kept by this process, or drawn now and kept.
    ``head``: (id, seq, system) if the caller has it; ``row``: the table, drawn from if at that seq (the
    whole row as the store gives it, never one view's: every view's board at that seq draws from it);
    ``version``: keep.version if the caller read it; ``tapped``: ``row`` is the one a tap's move has just
    left (its answer: the other views' boards are drawn with it, ``_drawn_at_change``)."""
    db = get_db()
    head = head or store.table_head(db, code)
    if head is None:
        return None
    view, version = view_of(seat), version or keep.version(db)
    board = keep.kept(head[0], head[1], view, version)
    if board is None:
        if row is None or row["seq"] != head[1]:
            # every view's board at a change draws from one read of the row (its state decoded once):
            # the row at a seq never changes (one read late may be a newer seq's: drawn at its own)
            row = keep.once_at("row", head[0], head[1], lambda: store.table(db, code))
        else:  # (a tap's answer: the row its move left is the one the other views' boards draw from, not read again)
            row = keep.once_at("row", head[0], head[1], lambda: row)
        if tapped and row["seq"] == head[1] and (shared.folder() or _servers_share()):
            return _drawn_at_change(row, head, view, version)
        if not shared.folder():  # one process: nothing to share
            board = draw(row, view, version=version)
            keep.keep(row["id"], view, version, board)
        else:  # any worker can work out the steps from it (board/shared.py)
            board = _kept_and_shared(row, head, view, version, None)
            _share_step(board, head)
    return board


def _drawn_at_change(row: dict, head: tuple, view, version: str) -> Board:
    """A tap's answer with several server workers or app servers: the tapping phone's board, and the
    board of every other view of the table that a live stream of this process follows
    (keep.following), drawn here (with the answer, or on PostgreSQL as soon as it has gone:
    ``_after_answer``), each step shared before the other workers' and servers' streams wake to it.
    Drawn by the worker that has just drawn one view at this seq, a second view takes most of its parts
    and its context from memory: 0.85 ms a board at 2,000 live phones, against 2.3-2.6 ms when a stream
    of the other worker drew it there (docs/performance.md, session 22).

    - Workers of one machine (board/shared.py): every step is claimed before any board is drawn, so a
      stream of another worker that wakes meanwhile waits for it rather than drawing it too; a step is
      claimed where a worker drew the view's board at the change before (its starting point, the board
      the phones hold).
    - App servers of one PostgreSQL database (store/steps.py): the steps go with the change's
      announcement, which the tap's request holds until they are drawn (companion/play.py), so the
      other servers' streams find them when they wake.

    On PostgreSQL the phone that tapped does not wait for the other views' boards: at 1,000 live phones,
    drawn before its answer they added 3.5-4 ms to its tap's p50 (docs/performance.md, session 24)."""
    since = head[1] - 1
    folder, servers = shared.folder(), _servers_share()
    views = [view] + [v for v in keep.followed(head[0])
                      if v != view and keep.kept(head[0], head[1], v, version) is None]
    claimed = {v: name for v in views
               if folder and _drawn_before(head[0], v, version, since)
               and shared.claim(name := shared.step_name(head[0], v, version, since, head[1]))}
    others = [v for v in views[1:] if v in claimed or servers]
    # (the rest: another worker's stream claimed it first, or no board at since: left to the streams)
    answer = _kept_and_shared(row, head, view, version, claimed.get(view))
    # (the announcement taken only now: where the answer fails, it is still held, and made as the tap ends)
    share = store.steps.taken(get_db(), row["code"]) if servers else None
    steps = [] if share is None else _server_steps_of([answer], head, since)

    def the_others() -> None:  # drawn for the other phones' sake: never fails the tap's answer
        try:
            boards = []
            for other in others:
                try:
                    boards.append(_kept_and_shared(row, head, other, version, claimed.get(other)))
                except Exception:  # noqa: BLE001 - its streams draw it themselves (once the claim's WAIT is
                    # over), and meet the fault there
                    current_app.logger.exception("table %s: the board of %s not drawn with the tap's answer",
                                                 row["code"], other)
            if share is not None:
                steps.extend(_server_steps_of(boards, head, since))
        finally:
            if share is not None:
                share(head[0], head[1], steps)

    # (after the answer on PostgreSQL only: one machine's other workers, woken by the commit, wait on the
    # claims meanwhile: 2,000 phones on SQLite took 3 ms more CPU a phone-minute and 4 ms more sync p50 so)
    if not (others and share) or not _after_answer(the_others):
        the_others()
    return answer


def _served_by_gevent() -> bool:
    return gevent.monkey.is_module_patched("socket")


def _server_steps_of(boards: list[Board], head: tuple, since: int) -> list[tuple]:
    """The rows store/steps.py shares of ``boards`` (a board whose step cannot be worked out is left out:
    its streams on the other servers draw it)."""
    steps = []
    for board in boards:
        try:
            if (step := _server_step(board, head, since)) is not None:
                steps.append(step)
        except Exception:  # noqa: BLE001 - (the other servers' streams draw it themselves)
            current_app.logger.exception("table %s: the step of %s not shared", head[0], board.view)
    return steps


def _after_answer(work) -> bool:
    """Run ``work`` once the answer has gone to the phone that tapped (at its response's close, in the
    request's greenlet, which gunicorn's gevent worker calls after sending the body): the tapping phone
    does not wait for the boards drawn for the others.  False, and nothing run, where the app is not
    served by a gevent worker (the test client and flask's server close a response when it suits
    them): its caller runs ``work`` at once."""
    if not _served_by_gevent():
        return False

    @after_this_request
    def then(response):
        response.call_on_close(copy_current_request_context(work))
        return response
    return True


def _servers_share() -> bool:
    """Whether app servers share the steps their taps draw: on PostgreSQL (store/steps.py)."""
    return store.is_postgres(current_app.config["DATABASE"])


def _server_view(view, version: str) -> str:
    """A view's name in store/steps.py: the same in every app server that draws its boards alike (the same
    templates, code and library, keep.version, and the same signing key: a board's forms carry tokens
    made from it)."""
    return f"{view.role}|{view.side}|{int(view.locked)}|{view.lang}|{version}|{_key_mark(current_app.config['SECRET_KEY'])}"


@lru_cache(maxsize=16)
def _key_mark(key) -> str:
    return hashlib.blake2b(key.encode() if isinstance(key, str) else key, digest_size=8).hexdigest()


def _server_step(board: Board, head: tuple, since: int) -> tuple | None:
    """The row store/steps.py shares of ``board``: (view, since, the step's html or None: the phone
    asks, the board's outline), or None where the step from ``since`` cannot be worked out everywhere."""
    keys, everywhere = _compared(board, head, since)
    if not everywhere:
        return None
    html = None if keys is None else _pushed_html(board, since, keys)
    return _server_view(board.view, board.version), since, html, shared.outline_text(board.outline())


def _server_steps(table_id: int, seq: int) -> dict:
    """What the app servers shared of the table's boards at ``seq`` (read once per process and change)."""
    return keep.once_at("steps", table_id, seq, lambda: store.steps.at(get_db(), table_id, seq))


def _kept_and_shared(row: dict, head: tuple, view, version: str, name: str | None) -> Board:
    """The view's board drawn, kept, its outline shared with this machine's other workers (if any), and
    its step shared under ``name`` (claimed)."""
    board = draw(row, view, version=version)
    keep.keep(row["id"], view, version, board)
    if shared.folder():
        shared.keep_outline(row["id"], view, version, board.seq, board.outline())
    if name is not None:
        _put_step(name, board, head, head[1] - 1)
    return board


def _drawn_before(table_id: int, view, version: str, seq: int) -> bool:
    """Whether a worker drew the view's board at ``seq`` (this one, or another that shared its outline)."""
    return keep.kept(table_id, seq, view, version) is not None or shared.outline(table_id, view, version, seq) is not None


def _share_step(board: Board, head: tuple) -> None:
    """A board drawn at a change (a tap's answer, say) is the one the view's streams in every worker
    push next: its step from the board before it is shared at once, before another worker, waking
    to the change, claims it and draws the same board again."""
    since = board.seq - 1
    name = shared.step_name(head[0], board.view, board.version, since, board.seq)
    if _drawn_before(head[0], board.view, board.version, since) and shared.claim(name):
        _put_step(name, board, head, since)  # (a claim is only made by who can share the step at once)


def _put_step(name: str, board: Board, head: tuple, since: int) -> None:
    """Share the step to ``board`` from the view's board at ``since`` under the claimed ``name``."""
    keys, everywhere = _compared(board, head, since)
    if everywhere:
        shared.put(name, None if keys is None else (since, board.seq, _pushed_html(board, since, keys)))


def _pushed_html(board: Board, since: int, keys: tuple[str, ...]) -> str:
    html = board.pushed.get(since)
    if html is None:
        html = board.pushed[since] = board.step(keys, {"*"})
    return html


def board_fragment(code: str, seat: dict, since: int | None = None, head: tuple | None = None,
                   row: dict | None = None):
    """The board for an htmx request: for a phone showing the board at ``since`` (one to three changes
    behind) only the parts that changed, out of band, when nothing else did; else the whole board."""
    head = head or (store.head_of(row) if row else store.table_head(get_db(), code))
    board = kept_board(code, seat, head, row, tapped=row is not None)
    if board is None:
        return make_response("", 404)
    opened = open_units()
    keys = _changed_since(board, head, since)
    if keys is not None:
        resp = make_response(board.step(keys, opened))
        resp.headers["HX-Reswap"] = "none"  # the board stays; only the parts sent out of band change
        resp.headers["X-Board-Seq"] = str(board.seq)
        resp.headers["Vary"] = VARY
        return resp
    resp = make_response(board.whole(opened))
    resp.headers["Vary"] = VARY
    return resp


def _changed_since(board: Board, head: tuple, since: int | None) -> tuple[str, ...] | None:
    """The parts that changed since the view's board at ``since`` (one to three changes back, and kept
    by this process), or None when the whole board has to go: what a poll's step and a pushed one send."""
    return _compared(board, head, since)[0]


def _compared(board: Board, head: tuple, since: int | None) -> tuple[tuple[str, ...] | None, bool]:
    """(``_changed_since``, whether that is so in every worker: False when only the board at ``since``
    was not found here)."""
    if since is None or not 0 < board.seq - since <= DELTA_BEHIND:
        return None, True
    if since in board.steps:  # (worked out before, from a board or an outline every worker can read)
        return board.steps[since], True
    old = keep.kept(head[0], since, board.view, board.version)
    if old is not None:
        return board.step_from(old), True
    if shared.folder():  # another worker drew the board at since (board/shared.py)
        outline = shared.outline(head[0], board.view, board.version, since)
        if outline is not None:
            return board.step_from_outline(since, outline), True
    if _servers_share():  # another app server drew it (store/steps.py)
        found = _server_steps(head[0], since).get(_server_view(board.view, board.version))
        if found is not None:
            return board.step_from_outline(since, shared.outline_of(found[2])), True
    return None, False


def pushed_step(code: str, seat: dict, since: int, head: tuple | None = None) -> tuple[int, int, str] | None:
    """What a live stream pushes to a phone whose board is at ``since`` (companion/live.py): (since, the
    table's seq, the parts that changed), every changed unit with its card in (the stream does not know
    which rows the phone has open; static/js keeps each row folded or open as the player left it).
    Worked out once per view and ``since`` however many streams push it, and with several server workers
    by one of them (board/shared.py).  None when the phone is to ask with a poll instead: no worker kept
    the board at ``since`` (the stream's first change after a restart), it is too far behind, or more
    than the named parts changed.  ``head``: (id, seq, system) when the
    stream knows it (its watcher read the seq: no query per stream)."""
    head = head or store.table_head(get_db(), code)
    if head is None:
        return None
    name = None
    version = keep.once_at("version", head[0], head[1], lambda: keep.version(get_db()))  # (every stream's)
    view = view_of(seat)
    if _servers_share() and keep.kept(head[0], head[1], view, version) is None:
        found = _server_steps(head[0], head[1]).get(_server_view(view, version))
        if found is not None and found[0] == since:  # drawn with the tap's answer by its app server
            return None if found[1] is None else (since, head[1], found[1])
    if shared.folder():  # several workers: one draws the step, the others take it (board/shared.py)
        name = shared.step_name(head[0], view, version, since, head[1])
        step = shared.took(name)
        if step is not shared.MISSING:
            return step
        if keep.kept(head[0], since, view, version) is None and shared.outline(head[0], view, version, since) is None:
            step = shared.wait(name, shared.WAIT)  # this worker cannot work it out: another may
            return None if step is shared.MISSING else step
        if keep.kept(head[0], head[1], view, version) is None and not shared.claim(name):
            step = shared.wait(name, shared.WAIT)  # another worker is drawing it
            if step is not shared.MISSING:
                return step
    board = kept_board(code, seat, head, version=version)
    keys, everywhere = (None, False) if board is None else _compared(board, head, since)
    step = None if keys is None else (since, board.seq, _pushed_html(board, since, keys))
    if name is not None and everywhere:
        shared.put(name, step)
    return step


def fresh_board(code: str, seat: dict, errors: dict | None = None, flash: str | None = None) -> Board:
    """A board drawn for one answer (with its sentences on it): not kept."""
    return draw(store.table(get_db(), code), view_of(seat), errors, flash)


def board_page(code: str, seat: dict, errors: dict | None = None, flash: str | None = None, status: int = 200,
               row: dict | None = None):
    """The board as the request wants it: the fragment for htmx, else the whole page; with one
    answer's sentences (``errors``, ``flash``) drawn on it."""
    if errors or flash:
        board = fresh_board(code, seat, errors, flash)
    else:
        board = kept_board(code, seat, store.head_of(row) if row else None, row)
        if board is None:
            return make_response("", 404)
    drawn_from = board.context  # read once: a newer board may retire this one meanwhile (Board.unit_html)
    if drawn_from is None:  # retired by a newer board already: this answer draws its own
        board = fresh_board(code, seat)
        drawn_from = board.context
    html = board.whole(open_units(), page_load=not request.htmx)
    if not request.htmx:
        context = {**drawn_from, "seat": seat, "csrf_token": csrf_token(), "errors": errors or {}}
        html = without_indentation(render_template("board.html", board_html=Markup(html), **context))
    resp = make_response(html, status)
    resp.headers["Vary"] = VARY
    return resp


def card_answer(code: str, seat: dict, uid: str):
    """One unit's whole card for a phone that has just opened its row (the board it has shows the
    row with an empty slot): from the board kept for the seat's view."""
    board = kept_board(code, seat)
    if board is None:
        return make_response("", 404)
    card = board.cards.get(uid)
    if card is None:  # taken off the table meanwhile (its row goes with the next poll)
        return make_response("That unit is no longer on the table.", 404)
    resp = make_response(render_template("board/card_slot.html", uid=uid, card_v=fingerprint(card), card_html=Markup(card)))
    resp.headers["Vary"] = "HX-Request, Cookie, Accept-Encoding"
    return resp
