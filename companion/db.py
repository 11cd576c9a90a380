"""The database handle for a request lives on ``g``.

Opening SQLite, setting WAL and checking migrations cost more than a whole poll, so each server
thread keeps one connection and reuses it; migrations run once, when the app starts.
"""
from __future__ import annotations

import threading

from flask import current_app, g

from companion import store
from companion.content import default_systems, load_systems

_local = threading.local()


def get_db():
    if "db" not in g:
        path = current_app.config["DATABASE"]
        pool = getattr(_local, "connections", None)
        if pool is None:
            pool = _local.connections = {}
        if path not in pool:
            pool[path] = store.open_db(path, migrate=False)
        g.db = pool[path]
    return g.db


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
