"""companion: a table-side companion for naval and space miniature games."""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from flask import Flask
from htmx_flask import Htmx

from companion.assets import asset_dir


def _secret_key(instance: Path) -> str:
    """A signing key kept in the instance folder, so seats survive a server restart."""
    path = instance / "secret_key"
    try:  # created once, atomically: workers starting together must all sign with the same key
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    for _ in range(100):
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.01)  # another process has created it and is writing it
    raise RuntimeError(f"{path} is empty")


def _database(instance: Path) -> str:
    """Where the tables live: COMPANION_DB (a SQLite file, or a PostgreSQL URL), else DATABASE_URL when
    it is PostgreSQL's (what a hosting platform sets, issue 39), else the SQLite file in the instance
    folder (the table-side laptop: nothing to install)."""
    from companion.store import is_postgres
    if os.environ.get("COMPANION_DB"):
        return os.environ["COMPANION_DB"]
    if is_postgres(os.environ.get("DATABASE_URL", "")):
        return os.environ["DATABASE_URL"]
    return str(instance / "companion.sqlite")


def _proxies() -> int:
    """COMPANION_PROXIES: how many reverse proxies stand in front of the app (0: none, the table's laptop)."""
    text = os.environ.get("COMPANION_PROXIES", "0")
    if not text.isdecimal() or int(text) > 5:
        raise SystemExit(f"COMPANION_PROXIES must be the number of reverse proxies in front (0-5), not {text!r}")
    return int(text)


# The settings a host may set as COMPANION_<NAME> in seconds (README, Settings): how often a phone without a
# live stream polls, a live stream's keep-alive and length, and an event feed's length.
TIMINGS = ("POLL_SECONDS", "LIVE_PING", "LIVE_SECONDS", "FEED_SECONDS")


def _seconds(key: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not 0 < value < 86400:
        raise SystemExit(f"COMPANION_{key} must be a number of seconds above 0 and below 86400, not {text!r}")
    return int(value) if value == int(value) else value


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: defaults, then environment, then ``test_config``; register blueprints."""
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(asset_dir("templates")), static_folder=str(asset_dir("static")))
    from jinja2 import ChoiceLoader, FileSystemLoader

    from companion import games
    from companion.board.reads import BoardEnvironment
    from companion.template_words import ByLanguage

    class AppEnvironment(ByLanguage, BoardEnvironment):
        """The board's reads noted (board/reads.py); templates compiled once per language (template_words)."""
    app.jinja_environment = AppEnvironment  # before anything builds app.jinja_env
    # the app's templates, then those a game package brings along (a game kept outside the repository)
    app.extensions["companion.template_dirs"] = games.template_dirs(Path(app.template_folder))
    app.jinja_loader = ChoiceLoader([FileSystemLoader(str(d)) for d in app.extensions["companion.template_dirs"]])
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=_database(instance),
        PUBLIC_URL=os.environ.get("COMPANION_PUBLIC_URL", ""),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        SESSION_REFRESH_EACH_REQUEST=False,  # a poll must not resend the cookie every 2 s
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        POLL_SECONDS=2,
        LIVE_PING=20,  # seconds between keep-alive events on an idle live stream (companion/live.py)
        LIVE_SECONDS=600,  # how long one live stream is held before the browser opens it again
        # an event stream ends after this long and its client comes back from the last event it had
        # (companion/feed.py): a connection a client forgot is not held for ever
        FEED_SECONDS=300,
    )
    for key in TIMINGS:  # a host's own timings (and the browser tests' quicker ones) from the environment
        if f"COMPANION_{key}" in os.environ:
            app.config[key] = _seconds(key, os.environ[f"COMPANION_{key}"])
    if test_config:
        app.config.update(test_config)
    # the seat cookie is the seat: over https it never travels in the clear (issue 37 §5)
    if app.config["PUBLIC_URL"].startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
    if not app.config.get("SECRET_KEY") and os.environ.get("COMPANION_SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["COMPANION_SECRET_KEY"]
    proxies = _proxies()
    if proxies:
        # behind a reverse proxy (docs/deploying.md): the client's address is the one the proxies say,
        # and no request is the host's own device (every request reaches us from the proxy's address)
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
        app.config["PROXIES"] = proxies
    Htmx(app)
    from companion.seat import KeptSeatCookies
    app.session_interface = KeptSeatCookies()  # a phone's cookie is checked once, not every poll

    from companion import api, db, disk, display, i18n, lobby, lookup, play, share, tracker_view, web
    from companion.actions import _load_all
    i18n.init_app(app)  # before any template is loaded: the templates' _() comes with it
    db.init_app(app)
    if not app.config.get("SECRET_KEY"):
        # one key for every app server behind the address: the database's own when it is shared
        # (PostgreSQL), else the instance folder's file (a phone's seat and the exports' signatures
        # survive a restart either way)
        from companion import store
        target = app.config["DATABASE"]
        app.config["SECRET_KEY"] = (store.server_key(store.open_db(target, migrate=False)) if store.is_postgres(target)
                                    else _secret_key(instance))
    web.init_app(app)
    disk.init_app(app)
    tracker_view.init_app(app)
    _load_all()  # core and game action types, before a game's views import them
    app.add_template_global(games.declared, "game_declared")  # a game's own styles and scripts (game_head)
    # core areas, then each game's own pages (designers, editors, live previews)
    for bp in (lobby.bp, play.bp, lookup.bp, api.bp, share.bp, display.bp, *games.blueprints()):
        app.register_blueprint(bp)
    return app
