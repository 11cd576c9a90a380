"""Live push (issue 25): a phone holds one Server-Sent Events stream per table and hears of a change
within a few hundredths of a second, instead of at its next poll.

Each change is pushed as the step itself: the parts of the board that changed since the board the
phone holds (companion/board: worked out once per change and view, however many streams carry it),
every changed unit with its card, so an idle phone sends nothing at all.  When the step cannot be
pushed (the stream's first change, when its worker has not kept the phone's board; a phone far
behind; more changed than the named parts) the event says only the new seq and the phone asks for
the step with a poll, the one path the polls take too.  A phone that reconnects sends
``Last-Event-ID`` (the browser does it by itself) and is told at once if the table moved meanwhile.

Across processes: every server worker watches the database itself.  One thread per process asks
SQLite every ``TICK`` whether anything was committed since (``PRAGMA data_version``: a change by any
connection, this process's or another worker's) and, when something was, reads the seqs of the
tables it has streams for in one query and wakes those streams' waiters.  Nothing new to run beside
the app (no broker), and a commit reaches a stream in at most ``TICK`` plus a wake-up.  Measured in
scripts/load.py --live (docs/performance.md).
"""
from __future__ import annotations

import sqlite3
import struct
import threading
import time
import zlib
from collections import OrderedDict

# The stream's first text: how soon the browser reconnects, and an event at once.  A phone takes its
# stream as through (and stops polling) only once an event has come: behind a proxy that passes the
# headers but holds the events back, the phone goes on polling (static/connection.js).
OPENING = "retry: 1000\n\nevent: ping\ndata: \n\n"
TICK = 0.02  # seconds between two looks at the database (the push delay's bound, besides the wake-up)
PING = 20  # seconds between two keep-alive events on an idle stream (issue 25: every 15-30 s)
GONE = -1  # the seq a waiter is told when its table is no longer there
LASTS = 600  # seconds a stream is held before it ends and the browser opens it again (from its last id)


class _Watch:
    """The tables one database has streams for, their last known seqs and their waiters."""

    def __init__(self, path: str):
        self.path = path
        self.seqs: dict[str, int] = {}  # code -> last seq seen
        self.waiters: dict[str, set[threading.Event]] = {}
        self.version: int | None = None
        self.conn: sqlite3.Connection | None = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn, self.version = None, None

    def look(self) -> None:
        """Read what changed (in the watching thread only)."""
        if self.conn is None:
            self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        version = self.conn.execute("pragma data_version").fetchone()[0]
        with _lock:
            codes = [c for c, w in self.waiters.items() if w]
            fresh = [c for c in codes if c not in self.seqs]
        if version == self.version and not fresh:
            return
        self.version = version
        if not codes:
            return
        found = dict(self.conn.execute(
            f"select code, seq from tables where code in ({', '.join('?' * len(codes))})", codes).fetchall())
        with _lock:
            for code in codes:
                seq = found.get(code, GONE)
                if self.seqs.get(code) != seq:
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
            except sqlite3.Error:
                watch.close()  # (the file was replaced, say by the tests): opened again next time


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
    """A change's event: the step ``pushed`` ((since, seq, html)), or the new seq alone."""
    if pushed is None:
        return f"id: {seq}\ndata: {seq}\n\n"
    since_, sent, html = pushed
    lines = "".join(f"data: {line}\n" for line in html.replace("\r", "").split("\n"))
    return f"id: {sent}\nevent: step\ndata: {since_} {sent}\n{lines}\n"


def events(path: str, code: str, since: int, ping: float = PING, lasts: float = LASTS, step=None,
           keep_going=None):
    """The stream's text: ``OPENING``, then an event each time the table moves past the seq last sent, a
    ``ping`` event when idle, and ``gone`` if the table goes.  A change is a ``step`` event when
    ``step(sent, seq)`` gives one ((since, seq, html): its data is "since seq" on a line, then the parts),
    else a plain event whose data is the new seq (the phone then asks for the step itself).  Either
    way the event's id is the new seq.  It ends after ``lasts`` seconds (the browser opens it again at
    once, from the last id): a stream never ties a server thread for ever.  It holds no database
    connection of its own while it waits.  ``keep_going()``, if given, is asked at each turn (each
    change or ping): when it says no, the stream says ``gone`` and ends."""
    yield OPENING
    sent = since
    end = time.monotonic() + lasts
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        seq = wait_past(path, code, sent, min(ping, left))
        if keep_going is not None and not keep_going():
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
_runs_lock = threading.Lock()


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
