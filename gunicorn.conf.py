"""gunicorn settings for companion (read automatically from the working directory)."""
import os
import sys

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = 4
worker_class = "gthread"


def post_fork(server, worker):
    # Requests are short; hand the GIL over every 0.5 ms instead of 5 ms so one busy thread
    # does not make the others wait (measured in scripts/benchmark.py: it is the action p99).
    sys.setswitchinterval(0.0005)
