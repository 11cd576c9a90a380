"""The database handle for a request lives on ``g`` and is closed on teardown."""
from __future__ import annotations

from flask import current_app, g

from companion import store
from companion.content import default_systems, load_systems


def get_db():
    if "db" not in g:
        g.db = store.open_db(current_app.config["DATABASE"])
    return g.db


def close_db(exc=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def systems() -> dict:
    """The content packs: loaded and validated once per process (at start-up)."""
    return current_app.extensions["companion.systems"]


def init_app(app) -> None:
    app.teardown_appcontext(close_db)
    dirs = app.config.get("CONTENT_DIRS")
    app.extensions["companion.systems"] = load_systems(dirs) if dirs else default_systems()
    with app.app_context():  # migrate once at start-up, not on a request
        get_db()
        close_db()
