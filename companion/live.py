"""Live push (issue 25): a phone holds one Server-Sent Events stream per table and hears of a change
within a few hundredths of a second, instead of at its next poll.

Each change is pushed as the step itself: the parts of the board that changed since the board the
phone holds (companion/board: worked out once per change and view, however many streams carry it),
every changed unit with its card, so an idle phone sends nothing at all.  When the step cannot be
pushed (the stream's first change, when its worker has not kept the phone's board; a phone far
behind; more changed than the named parts) the event says only the new seq and the phone asks for
the step with a poll, the one path the polls take too.  A phone that reconnects sends
``Last-Event-ID`` (the browser does it by itself) and is told at once if the table moved meanwhile.

Across processes (and app servers): every server worker watches the database itself.  One thread per
process looks every ``TICK`` at what was committed since (companion/store/push.py: SQLite's
``PRAGMA data_version`` and a read of the events since its last look; PostgreSQL's ``NOTIFY``, heard on
one connection) and wakes the waiters of the tables that moved.  Nothing new to run beside
the app (no broker), and a commit reaches a stream in at most ``TICK`` plus a wake-up.  Measured in
scripts/load.py --live (docs/performance.md).
"""
from __future__ import annotations

import struct
import threading
import time
import zlib
from collections import OrderedDict

from companion.store import push

# The stream's first text: how soon the browser reconnects, and an event at once.  A phone takes its
# stream as through (and stops polling) only once an event has come: behind a proxy that passes the
# headers but holds the events back, the phone goes on polling (static/js/push.js).
OPENING = "retry: 1000\n\nevent: ping\ndata: \n\n"
TICK = 0.02  # seconds between two looks at the database (the push delay's bound, besides the wake-up)
PING = 20  # seconds between two keep-alive events on an idle stream (issue 25: every 15-30 s)
GONE = push.GONE  # the seq a waiter is told when its table is no longer there
LASTS = 600  # seconds a stream is held before it ends and the browser opens it again (from its last id)


class _Watch:
    """The tables one database has streams for, their last known seqs and their waiters."""

    def __init__(self, target: str):
        self.changes = push.changes_of(target)
        self.seqs: dict[str, int] = {}  # code -> last seq seen
        self.waiters: dict[str, set[threading.Event]] = {}

    def close(self) -> None:
        self.changes.close()

    def look(self) -> None:
        """Read what changed (in the watching thread only)."""
        with _lock:
            codes = [c for c, w in self.waiters.items() if w]
            fresh = [c for c in codes if c not in self.seqs]
        found = self.changes.seqs(codes, fresh)
        if not found:
            return
        with _lock:
            for code, seq in found.items():
                if self.seqs.get(code) != seq and code in self.waiters:
                    self.seqs[code] = seq
                    for event in self.waiters.get(code, ()):
                        event.set()


_lock = threading.Lock()
_watches: dict[str, _Watch] = {}
_thread: threading.Thread | None = None


def _run() -> None:
    while True:
        time.sleep(TICK)
        with _lock:
            idle = [path for path, w in _watches.items() if not w.waiters]
            watches = [_watches.pop(path) for path in idle] + [w for w in _watches.values()]
        for watch in watches:
            if not watch.waiters:  # no stream of this database now: let its connection go
                watch.close()
                continue
            try:
                watch.look()
            except Exception:  # noqa: BLE001 - the file replaced (say by the tests), the database server restarted
                watch.close()  # opened again next time, and every watched table read afresh
                with _lock:
                    watch.seqs.clear()


def _watching(path: str, code: str, event: threading.Event) -> tuple[_Watch, int | None]:
    """Add a waiter for ``code`` (in one step with finding its database's watch, which the watching
    thread lets go once it has no waiter): the watch and the seq known so far."""
    global _thread
    with _lock:
        watch = _watches.get(path)
        if watch is None:
            watch = _watches[path] = _Watch(path)
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_run, name="companion-live", daemon=True)
            _thread.start()
        watch.waiters.setdefault(code, set()).add(event)
        return watch, watch.seqs.get(code)


def wait_past(path: str, code: str, seq: int, timeout: float) -> int | None:
    """The table's seq once it is past ``seq`` (at once if it already is), ``GONE`` if the table is
    gone, or None after ``timeout`` seconds with no change."""
    event = threading.Event()
    watch, known = _watching(path, code, event)
    try:
        deadline = time.monotonic() + timeout
        while known is None or (known != GONE and known <= seq):
            left = deadline - time.monotonic()
            if left <= 0 or not event.wait(left):
                return None
            event.clear()
            with _lock:
                known = watch.seqs.get(code)
        return known
    finally:
        with _lock:
            waiters = watch.waiters.get(code)
            if waiters is not None:
                waiters.discard(event)
                if not waiters:
                    del watch.waiters[code]
                    watch.seqs.pop(code, None)  # not watched now: read afresh when watched again


def event_text(pushed: tuple[int, int, str] | None, seq: int) -> str:
    """A change's event: the step ``pushed`` ((since, seq, html)), or the new seq alone.  A step's text is
    made once and handed to every stream that sends it: the same text object, whose hash Python keeps,
    is then the gzip run's key too (``_run_of``); made per stream it was 3.5 % of a worker's time at
    600 live phones (py-spy)."""
    if pushed is None:
        return f"id: {seq}\ndata: {seq}\n\n"
    with _runs_lock:
        text = _texts.get(pushed)
        if text is not None:
            _texts.move_to_end(pushed)
            return text
    since_, sent, html = pushed
    lines = "".join(f"data: {line}\n" for line in html.replace("\r", "").split("\n"))
    text = f"id: {sent}\nevent: step\ndata: {since_} {sent}\n{lines}\n"
    with _runs_lock:
        _texts[pushed] = text
        if len(_texts) > _TEXTS_KEPT:
            _texts.popitem(last=False)
    return text


def events(path: str, code: str, since: int, ping: float = PING, lasts: float = LASTS, step=None,
           keep_going=None):
    """The stream's text: ``OPENING``, then an event each time the table moves past the seq last sent, a
    ``ping`` event when idle, and ``gone`` if the table goes.  A change is a ``step`` event when
    ``step(sent, seq)`` gives one ((since, seq, html): its data is "since seq" on a line, then the parts),
    else a plain event whose data is the new seq (the phone then asks for the step itself).  Either
    way the event's id is the new seq.  It ends after ``lasts`` seconds (the browser opens it again at
    once, from the last id): a stream never ties a server thread for ever.  It holds no database
    connection of its own while it waits.  ``keep_going(seq)``, if given, is asked at each turn (the
    table's new seq, or None at a ping): when it says no, the stream says ``gone`` and ends."""
    yield OPENING
    sent = since
    end = time.monotonic() + lasts
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        seq = wait_past(path, code, sent, min(ping, left))
        if keep_going is not None and not keep_going(None if seq == GONE else seq):
            yield "event: gone\ndata: \n\n"
            return
        if seq is None:
            if time.monotonic() < end:
                yield "event: ping\ndata: \n\n"
        elif seq == GONE:
            yield "event: gone\ndata: \n\n"
            return
        else:
            pushed = step(sent, seq) if step is not None else None
            text = event_text(pushed, seq)
            sent = seq if pushed is None else pushed[1]
            yield text


# --- gzip on the stream (issue 38) --------------------------------------------------------------------
# A phone whose browser accepts gzip (Chromium's EventSource asks with Accept-Encoding: gzip) gets the
# stream as one gzip member whose deflate data is a run of blocks per event, each run flushed to a byte
# boundary (Z_SYNC_FLUSH) so the browser reads the event at once.  A step's run is compressed with the
# event before it as its dictionary when that event is the last thing the stream sent (the browser's
# window holds it: a move's step and its Undo's are mostly the same cards), else with none; either way
# it depends only on (the event before, the event), both the same for every phone of a view at a change,
# so it is made once per process and handed to every stream that sends it (``_runs``).  No compressor is
# held per stream (one is ~256 KB; 2,000 streams), only the last event, a CRC and a length.
GZIP_LEVEL = 6  # once per change and view, not per phone: the smaller text is worth it
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # gzip, deflate, no name, no time, OS unknown
WINDOW = 32768  # what a deflate run may refer back to
_runs: OrderedDict[tuple, bytes] = OrderedDict()
_RUNS_KEPT = 256  # runs of the last changes (a change is pushed within a moment of its commit)
_runs_lock = threading.Lock()  # (guards _texts too)
_texts: OrderedDict[tuple, str] = OrderedDict()  # a step's event text, made once per process (event_text)
_TEXTS_KEPT = 256


def deflate_run(text: bytes, before: bytes | None = None) -> bytes:
    """``text`` as raw deflate blocks ending on a byte boundary (not the last block: more may follow),
    referring to nothing but ``before``, which must be the last bytes the reader decompressed."""
    if before:
        packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -15, zdict=before[-WINDOW:])
    else:
        packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -15)
    return packer.compress(text) + packer.flush(zlib.Z_SYNC_FLUSH)


def _run_of(text: str, before: str | None = None) -> tuple[bytes, bytes]:
    """(the text's bytes, their deflate run after ``before``), a step's run made once per process."""
    raw = text.encode()
    if len(text) < 256:  # a ping, a seq: not worth keeping (nor a dictionary)
        return raw, deflate_run(raw)
    key = (before, text)
    with _runs_lock:
        run = _runs.get(key)
        if run is not None:
            _runs.move_to_end(key)
            return raw, run
    run = deflate_run(raw, before.encode() if before else None)
    with _runs_lock:
        _runs[key] = run
        if len(_runs) > _RUNS_KEPT:
            _runs.popitem(last=False)
    return raw, run


def gzipped(texts):
    """The stream ``texts`` (events' text) as one gzip member, sent event by event."""
    crc, size = 0, 0
    last = None  # the event sent just before, when it is a step's (a dictionary for the next)
    yield GZIP_HEADER
    try:
        for text in texts:
            raw, run = _run_of(text, last)
            crc, size = zlib.crc32(raw, crc), size + len(raw)
            last = text if len(text) >= 256 else None
            yield run
    finally:
        close = getattr(texts, "close", None)
        if close is not None:
            close()
    yield b"\x03\x00" + struct.pack("<II", crc, size & 0xFFFFFFFF)  # an empty last block, then the trailer
