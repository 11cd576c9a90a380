"""Pushed steps shared by the server's worker processes on one machine (issue 38).

Each worker draws the boards of its own live streams (companion/board/keep.py), so with two workers a
change's step for a view was drawn twice: once in each worker holding a stream of it (a third of a
worker's time at 600 live phones, py-spy).  Now the first worker to work out a step (table, view,
since -> seq) leaves it in a folder in memory (/dev/shm) that the workers share, and the others take it
from there instead of drawing the board again.

- The worker that draws a view's board leaves its outline there too (each part's key and a digest of
  its HTML), so any worker can work out the step from it, whichever worker drew it.
- A worker claims a step (a file made with O_EXCL: one wins) and draws it; a worker that lost the
  claim waits ``WAIT`` for it, then draws it itself (the claimant may be busy, or gone).  Where
  no worker left the outline of the board at ``since`` (a restart), the phone asks with a poll, as
  before.
- Files are written under a temporary name and renamed, so a reader sees a whole step or none.  Each
  worker sweeps steps and claims older than ``KEEP`` seconds, and a view's outlines once it has been
  idle for ``KEEP_OUTLINE``.

The folder is made by the server's master process (companion/serving.py) and named to its workers in
``COMPANION_STEPS_DIR``; without it (one process: the development server, the tests) nothing is shared.
Steps are keyed by the database, the secret, the table, the view, the templates' and library's
version, since and seq: the same key is the same HTML in every worker.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict

from flask import current_app
from gevent import get_hub
from gevent.monkey import is_module_patched

WAIT = 0.05  # s a worker waits for a step another worker claimed (then draws it itself, if it can)
LOOK_EVERY = 0.002  # s between two looks while waiting
KEEP = 10.0  # s a shared step or claim is kept (a step is pushed within a moment of its change)
KEEP_OUTLINE = 3 * 3600.0  # s a view's outlines are kept after its last board (a long pause in a game)
OUTLINES = 4  # a view's boards whose outlines are kept: a step is from one to three changes back
SWEEP_EVERY = 5.0  # s between two sweeps of a worker
MISSING = object()  # no step shared (yet)
ASK = "-"  # a shared answer that the phone is to ask with a poll (more changed than the named parts)

_taken: OrderedDict[str, tuple | None] = OrderedDict()  # name -> the step, read once per process
_TAKEN_KEPT = 512  # (and outlines, in _outlines)
_outlines: OrderedDict[tuple, list] = OrderedDict()  # (file, seq) -> the outline of that board
_lock = threading.Lock()
_swept = 0.0


def folder() -> str | None:
    return os.environ.get("COMPANION_STEPS_DIR") or None


def _name(kind: str, *key) -> str:
    config = current_app.config
    text = repr((config.get("DATABASE"), config["SECRET_KEY"], *key))
    return kind + hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def step_name(table_id: int, view, version: str, since: int, seq: int) -> str:
    return _name("s", table_id, tuple(view), version, since, seq)


def took(name: str):
    """The step shared under ``name``: (since, seq, html), None (the phone asks), or MISSING."""
    with _lock:
        if name in _taken:
            return _taken[name]
    try:
        with open(os.path.join(folder(), name), encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return MISSING
    if text == ASK:
        step = None
    else:
        head, _, html = text.partition("\n")
        since, seq = head.split()
        step = (int(since), int(seq), html)
    _remember(name, step)
    return step


def _remember(name: str, step) -> None:
    with _lock:
        _taken[name] = step
        if len(_taken) > _TAKEN_KEPT:
            _taken.popitem(last=False)


def put(name: str, step: tuple | None) -> None:
    """Share the step (or None: the phone asks) under ``name``, once per process."""
    with _lock:
        if name in _taken:
            return
    _remember(name, step)
    text = ASK if step is None else f"{step[0]} {step[1]}\n{step[2]}"
    _write(name, text)
    _sweep()


def _write(name: str, text: str) -> None:
    path = os.path.join(folder(), name)
    temporary = f"{path}.{os.getpid()}.{threading.get_ident()}"
    try:
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except OSError:  # the folder gone (the server stopping) or full: this worker draws on alone
        pass


def claim(name: str) -> bool:
    """True for the one worker that is to draw the step ``name`` (or when nothing can be claimed)."""
    try:
        os.close(os.open(os.path.join(folder(), "c" + name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        return True
    except FileExistsError:
        return False
    except OSError:
        return True


def _outline_name(table_id: int, view, version: str, seq: int) -> str:
    # one of OUTLINES files per view, by seq: the last few boards' outlines are there however long the
    # table waits for its next change
    return _name("o", table_id, tuple(view), version) + f"-{seq % OUTLINES}"


def keep_outline(table_id: int, view, version: str, seq: int, outline: list[tuple[str, str]]) -> None:
    """Share the outline of a view's board at ``seq`` (draw.Board.outline): any worker can then work out
    a step from that board."""
    _write(_outline_name(table_id, view, version, seq), f"{seq}\n" + outline_text(outline))


def outline_text(outline: list[tuple[str, str]]) -> str:
    """An outline as it is shared (here, and with other app servers: companion/store/steps.py)."""
    return "\n".join(f"{key}\t{digest}" for key, digest in outline)


def outline_of(text: str) -> list[tuple[str, str]]:
    return [tuple(line.split("\t")) for line in text.split("\n")]


def outline(table_id: int, view, version: str, seq: int) -> list[tuple[str, str]] | None:
    """The outline of the view's board at ``seq``, if a worker shared it (read once per process: a
    board's outline never changes, and a stream asks whether it is there before working from it)."""
    name = _outline_name(table_id, view, version, seq)
    with _lock:
        found = _outlines.get((name, seq))
    if found is not None:
        return found
    try:
        with open(os.path.join(folder(), name), encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    head, _, lines = text.partition("\n")
    if head != str(seq):
        return None
    found = outline_of(lines)
    with _lock:
        _outlines[name, seq] = found
        if len(_outlines) > _TAKEN_KEPT:
            _outlines.popitem(last=False)
    return found


def wait(name: str, seconds: float):
    """The step ``name`` once another worker shares it, or MISSING after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        step = took(name)
        if step is not MISSING or time.monotonic() >= deadline:
            return step
        time.sleep(LOOK_EVERY)  # (gevent's sleep in a gevent worker: the other streams go on)


def _sweep() -> None:
    """Take away steps and claims older than KEEP and outlines older than KEEP_OUTLINE (every worker
    does, at most every SWEEP_EVERY).  In a gevent worker the folder is read in one of the hub's
    threads: at 2,000 live phones it holds thousands of files, and a sweep in the worker's own loop
    held every stream of the worker for 30-60 ms every SWEEP_EVERY (gevent's monitor thread)."""
    global _swept
    now = time.time()
    if now - _swept < SWEEP_EVERY:
        return
    _swept = now
    if is_module_patched("threading"):
        get_hub().threadpool.spawn(_sweep_folder, folder(), now)
    else:
        _sweep_folder(folder(), now)


def _sweep_folder(path: str, now: float) -> None:
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        try:
            if now - entry.stat().st_mtime > (KEEP_OUTLINE if entry.name.startswith("o") else KEEP):
                os.unlink(entry.path)
        except OSError:
            pass  # taken away by another worker's sweep meanwhile
