"""How the app is served: one set of gunicorn settings for `companion serve` and the Procfile.

`companion serve` runs gunicorn rather than waitress: waitress 3 closes the connection after every
answer without a Content-Length, which is every empty 204 a phone's poll gets, so half the polls
paid for a new connection and 300 phones collapsed it (issue 14).  gunicorn keeps those connections
alive and is what the hosted Procfile already runs.

The workers are gevent's (issue 30 item 5): with gunicorn's threads (2 workers x 2 threads) a
connection that started a request and never finished its headers held a thread, so four of them (a
phone whose Wi-Fi dropped mid-request, or anyone on the LAN) stopped every phone's poll for as long
as they stayed open (scripts/load.py --idle 20 --dribble 8: poll p99 20 s, then 11-14 ms with gevent).
A gevent worker gives each connection a greenlet, and reads each request's headers under a deadline
of the keep-alive time (gunicorn's async worker wraps the read in gevent.Timeout(keepalive)), after
which the connection is closed.  The database connection stays one per worker (companion/db.py).
COMPANION_WORKER_CLASS=gthread brings the threads back (for measuring), =gevent gunicorn's own gevent
worker (one new connection per turn of its loop: see Worker).
"""
from __future__ import annotations

import gc
import os
import resource
import shutil
import sys
import tempfile

import gevent
from gevent.server import StreamServer
from gunicorn.workers import ggevent

# Connections a worker takes from the listening socket per turn of its loop (see Worker).
ACCEPT_BATCH = 64

# (For the gthread worker:) two processes of two threads each suit a 2-core box: measured with scripts/load.py at 600 phones
# (2026-11-23, issue 14), p99 of a poll after a change / a tap was 48 / 57 ms with one thread, 40-43 /
# 53 ms with two, 50 / 67 ms with four and 75 / 106 ms with eight (threads of one process share its
# GIL: more of them only queue for it), and three processes were worse than two.  Idle keep-alive
# connections wait in gunicorn's event loop, not in a thread, so two threads still hold every phone.
# A phone polls every 2 s, so an idle connection is kept 10 s (gunicorn's default of 2 s would drop
# most of them).  COMPANION_THREADS overrides the threads for another box.
SETTINGS = {
    "workers": int(os.environ.get("WEB_CONCURRENCY", "2")),
    "threads": int(os.environ.get("COMPANION_THREADS", "2")),
    "worker_class": os.environ.get("COMPANION_WORKER_CLASS", "companion.serving.Worker"),
    "keepalive": 10,
    # open connections per worker: each phone holds its live stream (companion/live.py) and a kept-alive
    # connection or two for its taps, so 2,000 phones are ~5,000 connections over the two workers
    "worker_connections": 4000,
    # a stopping server (Ctrl+C, a restart) waits this long for requests in flight: they are short,
    # and a gevent worker would otherwise wait gunicorn's default 30 s on idle keep-alive connections
    "graceful_timeout": 5,
}


class _AcceptingServer(StreamServer):
    """gevent's server as gunicorn's gevent worker builds it, but taking up to ``ACCEPT_BATCH`` waiting
    connections per turn of the loop where gunicorn sets one (with several workers, to spread the
    connections between them).  A turn of a loop that holds ~1,000 live streams lasts tens of
    milliseconds, so one connection per turn capped a worker at a few dozen new connections a second:
    at 2,000 phones a tap on a new connection (its kept-alive one closed after 10 s idle) waited in
    the kernel's queue for up to 2-3 s (tap p99 1.9-2.8 s; with this, 66 ms: docs/performance.md).
    The workers still share the connections: a busy worker comes back to take them less often."""

    @property
    def max_accept(self) -> int:
        return ACCEPT_BATCH

    @max_accept.setter
    def max_accept(self, value: int) -> None:
        pass  # gunicorn's 1


class Worker(ggevent.GeventWorker):
    """gunicorn's gevent worker (issue 30 item 5) with the accepting server above."""

    def run(self) -> None:
        ggevent.StreamServer = _AcceptingServer  # what run() builds its servers from, in this worker's process
        super().run()


def on_starting(server) -> None:
    """With several workers, a folder in memory where they share the steps they push (board/shared.py):
    each change's step for a view is then drawn by one worker, not by each (issue 38)."""
    if server.cfg.workers > 1 and not os.environ.get("COMPANION_STEPS_DIR"):
        base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
        _left_behind(base)
        os.environ["COMPANION_STEPS_DIR"] = server.companion_steps = tempfile.mkdtemp(
            prefix=f"{STEPS_PREFIX}{os.getpid()}-", dir=base)


STEPS_PREFIX = "companion-steps-"


def _left_behind(base: str) -> None:
    """Take away the step folders of servers that were killed before they could (their process gone)."""
    for entry in os.scandir(base):
        pid = entry.name[len(STEPS_PREFIX):].split("-")[0]
        if entry.name.startswith(STEPS_PREFIX) and pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def on_exit(server) -> None:
    folder = getattr(server, "companion_steps", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def post_fork(server, worker) -> None:
    # Requests are short; hand the GIL over every 0.5 ms instead of 5 ms so one busy thread
    # does not make the others wait (measured in scripts/benchmark.py: it is the action p99).
    sys.setswitchinterval(0.0005)
    # every open connection is a file: a host's default limit (often 1,024) would refuse phones long
    # before the workers are busy, so the soft limit goes up to the hard one
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# A gevent worker collects its cyclic garbage by the clock (issue 25): the young objects every
# COLLECT_EVERY seconds, all of it every FULL_EVERY-th time (5 minutes).
# CPython 3.11 counts the young generation's size as the objects made minus those freed, old or young
# (gcmodule.c), so where old objects die as fast as new ones are made (a kept board replaced at each
# change) the young generation grows far past its threshold before it is collected: at 2,000 live
# phones a collection of "2,001" young objects took 30-75 ms and one of the middle generation up to
# 110 ms, the push's p99.  By the clock each collection finds at most 50 ms of survivors (sync p99
# 127-131 -> 87-99 ms; the full collection every 5 minutes pauses a worker ~0.2 s at 2,000 phones:
# docs/performance.md, 2026-11-27).  The middle generation is not collected on its own: at 2,000 live
# phones its collection, once a second, took 19-59 ms (2 % of a worker) and found no garbage the young
# one had not (~80 objects either way); without it the sync delay's p90 was 82-106 ms against 222-419
# (docs/performance.md, 2026-11-30).  What outlives a young collection is freed by its reference count,
# or at the full collection.
COLLECT_EVERY = 0.05
FULL_EVERY = 6000


def _collector() -> None:
    turn = 0
    while True:
        gevent.sleep(COLLECT_EVERY)
        turn += 1
        gc.collect(2 if turn % FULL_EVERY == 0 else 0)


def post_worker_init(worker) -> None:
    # What the worker holds from its start (modules, templates, the games' content) is never garbage:
    # out of the collector's sight, so a full collection scans what requests made, not all of it
    # (measured: full collections of 100-250 ms at 1,000 phones were the polls' p99, docs/performance.md).
    gc.collect()
    gc.freeze()
    if isinstance(worker, ggevent.GeventWorker):
        gc.disable()  # (only the automatic collections: _collector runs them by the clock)
        worker.collector = gevent.spawn(_collector)
    else:
        # a thread worker collects as CPython does, less often: most of what requests make is freed as
        # soon as it is let go (reference counts); fewer, larger passes touch fewer requests (1,000
        # phones: poll p99 13.3 -> 12.5 ms, pauses over 10 ms 40 -> 28 in 30 s)
        gc.set_threshold(2000, 20, 100)


def serve(host: str, port: int, workers: int | None = None, threads: int | None = None) -> None:
    """Run gunicorn in this process with the app factory (each worker builds its own app)."""
    from gunicorn.app.base import BaseApplication

    class Companion(BaseApplication):
        def load_config(self):
            for key, value in {**SETTINGS, "bind": f"{host}:{port}", "post_fork": post_fork,
                               "post_worker_init": post_worker_init, "on_starting": on_starting,
                               "on_exit": on_exit,
                               "loglevel": "warning",  # the address and QR code stay on screen
                               **({"workers": workers} if workers else {}),
                               **({"threads": threads} if threads else {})}.items():
                self.cfg.set(key, value)

        def load(self):
            from companion import create_app
            return create_app()

    Companion().run()
