"""The floor for scripts/load.py (not part of the product): a bare Flask app on the same URLs a
phone uses, served by the same gunicorn settings, so the load test can print the companion's
times as ratios to what this box, this server and this client cost with no app at all.

- ``GET /t/<code>/poll``: an empty 204, as the companion's no-change poll answers.
- ``POST /t/<code>/act``: one SQLite insert committed (WAL, ``BEGIN IMMEDIATE`` as the store
  does), then an empty 204: the floor of an action (a commit and Flask, no rules, no render).

Run: ``gunicorn -c gunicorn.conf.py "scripts.floor_app:create_app()"`` (FLOOR_DB names the file).
"""
from __future__ import annotations

import os
import sqlite3
import tempfile
import threading

from flask import Flask, Response, request

from companion.store import synchronous


def create_app() -> Flask:
    app = Flask(__name__)
    path = os.environ.get("FLOOR_DB") or os.path.join(tempfile.mkdtemp(), "floor.sqlite")
    local = threading.local()

    def db() -> sqlite3.Connection:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = sqlite3.connect(path, isolation_level=None, timeout=10)
            conn.execute("pragma journal_mode=wal")
            conn.execute(f"pragma synchronous={synchronous()}")  # as the store commits
            conn.execute("create table if not exists events (id integer primary key, code text, body text)")
        return conn

    @app.get("/t/<code>/poll")
    def poll(code: str):
        return Response(status=204)

    @app.post("/t/<code>/act")
    def act(code: str):
        conn = db()
        conn.execute("begin immediate")
        conn.execute("insert into events (code, body) values (?, ?)", [code, request.get_data(as_text=True)])
        conn.execute("commit")
        return Response(status=204)

    return app
