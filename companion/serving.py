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
COMPANION_WORKER_CLASS=gthread brings the threads back (for measuring).
"""
from __future__ import annotations

import gc
import os
import resource
import sys

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
    "worker_class": os.environ.get("COMPANION_WORKER_CLASS", "gevent"),
    "keepalive": 10,
    # open connections per worker: each phone holds its live stream (companion/live.py) and a kept-alive
    # connection or two for its taps, so 2,000 phones are ~5,000 connections over the two workers
    "worker_connections": 4000,
    # a stopping server (Ctrl+C, a restart) waits this long for requests in flight: they are short,
    # and a gevent worker would otherwise wait gunicorn's default 30 s on idle keep-alive connections
    "graceful_timeout": 5,
}


def post_fork(server, worker) -> None:
    # Requests are short; hand the GIL over every 0.5 ms instead of 5 ms so one busy thread
    # does not make the others wait (measured in scripts/benchmark.py: it is the action p99).
    sys.setswitchinterval(0.0005)
    # every open connection is a file: a host's default limit (often 1,024) would refuse phones long
    # before the workers are busy, so the soft limit goes up to the hard one
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def post_worker_init(worker) -> None:
    # What the worker holds from its start (modules, templates, the games' content) is never garbage:
    # out of the collector's sight, so a full collection scans what requests made, not all of it
    # (measured: full collections of 100-250 ms at 1,000 phones were the polls' p99, docs/performance.md).
    gc.collect()
    gc.freeze()
    # and what requests make is collected less often: most of it is freed as soon as it is let go
    # (reference counts), and a kept board lives until its table's next change; fewer, larger passes
    # touch fewer requests (1,000 phones: poll p99 13.3 -> 12.5 ms, pauses over 10 ms 40 -> 28 in 30 s)
    gc.set_threshold(2000, 20, 100)


def serve(host: str, port: int, workers: int | None = None, threads: int | None = None) -> None:
    """Run gunicorn in this process with the app factory (each worker builds its own app)."""
    from gunicorn.app.base import BaseApplication

    class Companion(BaseApplication):
        def load_config(self):
            for key, value in {**SETTINGS, "bind": f"{host}:{port}", "post_fork": post_fork,
                               "post_worker_init": post_worker_init,
                               "loglevel": "warning",  # the address and QR code stay on screen
                               **({"workers": workers} if workers else {}),
                               **({"threads": threads} if threads else {})}.items():
                self.cfg.set(key, value)

        def load(self):
            from companion import create_app
            return create_app()

    Companion().run()
