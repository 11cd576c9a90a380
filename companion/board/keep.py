"""The boards this server process has drawn, in its memory: (table, seq, view) -> Board.

After a change every phone of a view asks for the same board (or the same step to it) within a poll
interval: it is drawn by the first and served to the rest.  Nothing is written anywhere, so a read never
waits for the write lock and works on a full disk; each server process draws its own (two workers may
each draw a board once; the steps their live streams push are shared: board/shared.py).  A phone a few
changes behind finds its earlier board here to be sent the step; boards are forgotten oldest first past a budget of bytes.
"""
from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from contextlib import contextmanager
from pathlib import Path

from flask import current_app

from companion.seat import View

BUDGET = 64 * 1024 * 1024  # bytes of HTML kept per server process (a board with its cards: 10-100 KB)
# and boards: a view's newest holds its context (the table's state as the view sees it), the ones before
# it only their HTML, kept as the starting points of the steps (a live stream's, a poll's): 250 tables
# of two views, four seqs each
MAX_BOARDS = 2048

_kept: OrderedDict[tuple, object] = OrderedDict()  # -> board.draw.Board
_latest: dict[tuple, object] = {}  # (database, secret, table, view, version) -> its newest kept board
_bytes = 0
_lock = threading.Lock()


# What every live stream of a table reads at one of its changes, and what every view's board drawn at it
# is drawn from (the row, the log, the roster), read once per process and change: on PostgreSQL each
# read is a round trip that holds the worker, and at 600 live phones the streams' seat checks and
# library reads were a third of the workers' time in the database (docs/performance.md).  Read after
# the change's commit by the first stream it wakes, so as true for the others as their own read a
# moment later would be; the table's next change reads afresh.  Only each table's newest seq is kept
# (a row's decoded state is 10-100 KB): a stream a change behind reads its own.
_once: OrderedDict[tuple, tuple[int, object]] = OrderedDict()  # (database, what, table) -> (seq, value)
ONCE_KEPT = 4096  # (table, what) pairs: a few hundred tables


def once_at(what: str, table, seq: int, read):
    """``read()`` for the table (its id: never another table's, store/tables.py ``_new_id``) at ``seq``,
    read once by this process."""
    key = (current_app.config.get("DATABASE"), what, table)
    with _lock:
        found = _once.get(key)
        if found is not None and found[0] == seq:
            return found[1]
    value = read()
    with _lock:
        found = _once.get(key)
        if found is None or found[0] < seq:
            _once[key] = (seq, value)
            _once.move_to_end(key)
            while len(_once) > ONCE_KEPT:
                _once.popitem(last=False)
    return value


def templates_version() -> str:
    """Changes whenever a template file does: a board drawn by older templates is not served.  A server
    run with templates reloading (development) reads the files' times at each call; else the contents of
    the templates, the app's code and the games' content are read once, so app servers of one release on
    other machines give the same version (they share the steps their taps draw: store/steps.py)."""
    app = current_app._get_current_object()
    known = app.extensions.get("companion.templates_version")
    reloading = app.jinja_env.auto_reload
    if known and not reloading:
        return known
    digest = hashlib.sha256(str(app.config["POLL_SECONDS"]).encode())
    roots = list(app.extensions["companion.template_dirs"])
    if not reloading:
        from companion.content import CONTENT_DIR
        roots += [Path(__file__).parents[1], Path(CONTENT_DIR)]
    for root in roots:
        for folder, dirs, files in sorted(os.walk(root)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in sorted(files):
                path = os.path.join(folder, name)
                named = f"{os.path.relpath(path, root)};".encode()
                if reloading:
                    st = os.stat(path)
                    digest.update(named + f"{st.st_mtime_ns}:{st.st_size};".encode())
                else:
                    with open(path, "rb") as f:
                        digest.update(named + hashlib.sha256(f.read()).digest())
    app.extensions["companion.templates_version"] = digest.hexdigest()[:12]
    return app.extensions["companion.templates_version"]


def version(db) -> str:
    """What a kept board was drawn from besides its table, seq and view: the templates and the library
    (a game's board may list saved items, say ship classes)."""
    from companion import store
    return f"{templates_version()}|{store.library_revision(db)}"


# The views of each table that this process's live streams follow now: a tap's answer draws their boards
# at once (board/answer.py ``_drawn_at_change``).  (database, secret, table) -> {view: open streams}
_followed: dict[tuple, dict[View, int]] = {}


@contextmanager
def following(table_id: int, view: View):
    """``with following(table, view):`` while a live stream of the view is open in this process."""
    key = _table_key(table_id)
    with _lock:
        views = _followed.setdefault(key, {})
        views[view] = views.get(view, 0) + 1
    try:
        yield
    finally:
        with _lock:
            views = _followed.get(key, {})
            views[view] = views.get(view, 1) - 1
            if views[view] <= 0:
                views.pop(view, None)
                if not views:
                    _followed.pop(key, None)


def followed(table_id: int) -> list[View]:
    """The views of the table that live streams of this process follow now."""
    with _lock:
        return list(_followed.get(_table_key(table_id), ()))


def _table_key(table_id: int) -> tuple:
    return _key(table_id, 0, None, "")[:3]  # (database, secret, table)


def _key(table_id: int, seq: int, view: View, version: str) -> tuple:
    # the database and the secret too: one process may serve several apps (the tests make one each)
    config = current_app.config
    return (config.get("DATABASE"), config["SECRET_KEY"], table_id, seq, view, version)


# (table, role, version, part) -> [(reads, absent names, own reads, prints, html)]
_parts: OrderedDict[tuple, list] = OrderedDict()
_part_bytes = 0
PART_BUDGET = 32 * 1024 * 1024  # bytes of parts' HTML kept per server process
VARIANTS = 8  # of one part (a side's own, a row drawn open ...), newest first


def part_key(table_id: int, role: str, lang: str, version: str) -> tuple:
    """Where the parts of a table's boards for ``role`` in ``lang`` are kept (a part's own key is added to it)."""
    return _key(table_id, 0, View(role, "", False, lang), version)


def parts(key: tuple) -> list:
    """The drawn variants of one part (board/reads.py says when one may be served again)."""
    with _lock:
        found = _parts.get(key)
        if found is not None:
            _parts.move_to_end(key)
        return list(found) if found else []


def _size(html) -> int:
    return len(html) if isinstance(html, str) else sum(map(len, html))


def keep_part(key: tuple, variant: tuple) -> None:
    """Keep one drawn variant ``(reads, absent names, own reads, prints, html)`` of a part, forgetting
    the oldest past the budget."""
    global _part_bytes
    with _lock:
        variants = _parts.setdefault(key, [])
        _parts.move_to_end(key)
        variants.insert(0, variant)
        _part_bytes += _size(variant[-1])
        while len(variants) > VARIANTS:
            _part_bytes -= _size(variants.pop()[-1])
        while _part_bytes > PART_BUDGET and len(_parts) > 1:
            _, old = _parts.popitem(last=False)
            _part_bytes -= sum(_size(v[-1]) for v in old)


def _view_of(key: tuple) -> tuple:
    """A kept board's key without its seq: the table's view, whose newest board ``_latest`` holds."""
    return key[:3] + key[4:]


def kept(table_id: int, seq: int, view: View, version: str):
    with _lock:
        board = _kept.get(_key(table_id, seq, view, version))
        if board is not None:
            _kept.move_to_end(_key(table_id, seq, view, version))
        return board


def keep(table_id: int, view: View, version: str, board) -> None:
    global _bytes
    key = _key(table_id, board.seq, view, version)
    with _lock:
        if key in _kept:
            return
        _kept[key] = board
        _bytes += board.size
        # the view's board before this one is only a step's starting point now
        latest = _latest.get(_view_of(key))
        if latest is not None and latest is not board and latest.seq < board.seq:
            latest.retire()
        if latest is None or latest.seq < board.seq:
            _latest[_view_of(key)] = board
        while (_bytes > BUDGET or len(_kept) > MAX_BOARDS) and len(_kept) > 1:
            old_key, old = _kept.popitem(last=False)
            _bytes -= old.size
            if _latest.get(_view_of(old_key)) is old:
                del _latest[_view_of(old_key)]


def forget() -> None:
    """Drop every kept board (tests)."""
    global _bytes, _part_bytes
    with _lock:
        _kept.clear()
        _latest.clear()
        _parts.clear()
        _once.clear()
        _bytes = _part_bytes = 0
