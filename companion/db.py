"""The database handle for a request lives on ``g``.

Opening SQLite, setting WAL and checking migrations cost more than a whole poll, so each server
thread keeps one connection and reuses it; migrations run once, when the app starts.  Under
gunicorn's gevent worker (companion/serving.py) that is one connection per worker process, shared by
its greenlets: a greenlet never yields inside a transaction (SQLite and the write lock's flock are
not cooperative, and no transaction does network I/O), so no two requests interleave in one.  A
greenlet-local connection instead would open SQLite again for every phone's connection and keep a
page cache for each.
"""
from __future__ import annotations

from flask import current_app, g
from gevent.monkey import get_original

from companion import store
from companion.content import default_systems, load_systems

_local = get_original("threading", "local")()  # the OS thread's own, even where gevent patched threading


def get_db():
    if "db" not in g:
        g.db = connection_for(current_app.config["DATABASE"])
    return g.db


def connection_for(path: str):
    """This OS thread's connection to ``path`` (what ``get_db`` hands a request); also for code that
    runs outside a request, e.g. an event stream between its writes (companion/feed.py).  On
    PostgreSQL, the process's pool (companion/store/engine.py: each statement or transaction
    borrows a connection of its own, so greenlets never share one mid-transaction)."""
    if store.is_postgres(path):
        return store.open_db(path, migrate=False)
    pool = getattr(_local, "connections", None)
    if pool is None:
        pool = _local.connections = {}
    if path not in pool:
        pool[path] = store.open_db(path, migrate=False)
    return pool[path]


def release_db(exc=None) -> None:
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:  # never hand an open transaction to the next request
        db.conn.rollback()


def systems() -> dict:
    """The content packs: loaded and validated once per process (at start-up)."""
    return current_app.extensions["companion.systems"]


def init_app(app) -> None:
    app.teardown_appcontext(release_db)
    dirs = app.config.get("CONTENT_DIRS")
    app.extensions["companion.systems"] = load_systems(dirs) if dirs else default_systems()
    store.open_db(app.config["DATABASE"]).close()  # create / migrate once at start-up
    private(app.config["DATABASE"])


def private(path: str) -> None:
    """The database holds the tables' secrets and sealed texts: readable by the server's user only
    (its WAL and shared-memory files too, issue 37 §5).  (A PostgreSQL server keeps its own files.)"""
    import os
    if store.is_postgres(path):
        return
    for name in (path, path + "-wal", path + "-shm"):
        try:
            os.chmod(name, 0o600)
        except OSError:
            pass  # not there (yet), or not ours to change (":memory:")
