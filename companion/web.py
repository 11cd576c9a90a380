"""Web plumbing shared by the blueprints: seats and credentials, CSRF, page-or-partial, errors."""
from __future__ import annotations

import gzip
import hashlib
import hmac
import os
import re
import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from urllib.parse import quote

from flask import abort, current_app, g, jsonify, make_response, render_template, request, session
from jinja2 import BaseLoader, TemplateNotFound
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from companion import assets, export_signature, roster, store, validate, words
from companion.actions import Ctx
from companion.db import get_db, systems
from companion.errors import Conflict, Finished, InputError, RuleError, Stale
from companion.roster import MAX_SEAT_NAME  # noqa: F401  (the lobby's limit, one place)
from companion.said import _
from companion.seat import form_token, view_of


def init_app(app) -> None:
    app.before_request(_gate)
    app.before_request(_csrf_protect)
    app.after_request(_headers)
    app.url_defaults(_static_version)
    app.extensions["companion.csp"] = content_security_policy()
    app.errorhandler(HTTPException)(_http_error)
    app.context_processor(lambda: {"csrf_token": csrf_token()})
    app.jinja_env.trim_blocks = True  # block tags leave no blank lines: the board is sent every change
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["do"] = do_value
    app.jinja_env.filters["for_players"] = words.for_players  # a rule's sentence without our source notes
    app.jinja_env.globals["csrf"] = form_csrf
    app.jinja_env.globals["roster_of"] = roster_of
    # who sits on a side, as the players read it: "Ann & Ben", "Defender (Ben)" (companion/roster.py)
    app.jinja_env.globals["names_on"] = roster.names_on
    app.jinja_env.globals["side_called"] = roster.called
    # where an imported table came from: this server's own export, or an edited / foreign file
    app.jinja_env.globals["import_note"] = lambda row: export_signature.sentence(row.get("imported"))
    app.jinja_env.loader = MissRemembered(app.jinja_env.loader)
    app.jinja_env.globals["url_for"] = url_for_once
    app.jinja_env.globals["module_url"] = assets.module_url  # the phone's modules (static/js), versioned
    app.add_url_rule("/static/m/<version>/<name>", "module", assets.send_module)
    app.errorhandler(404)(lambda e: _api_error(e, _("Not found.")) or (
        render_template("error.html", status=404, message=_("Nothing here.")), 404))
    app.errorhandler(403)(lambda e: _api_error(e, e.description) or (
        render_template("error.html", status=403, message=e.description), 403))
    app.errorhandler(413)(lambda e: _api_error(e, _("That request is too large (4 MB at most).")) or (
        render_template("error.html", status=413, message=_("That file is too large (4 MB at most).")), 413))


class MissRemembered(BaseLoader):
    """The template loader, remembering which names are not there: a board looks for a game's
    optional templates (``_panel.html``, ``_unit.html`` per unit card, ``_tools.html``, ``_row.html``)
    about ten times per render, and Jinja caches only the templates it finds, so each miss searched
    the folders again.  Like Jinja's own cache, this holds until restart unless templates auto-reload."""

    def __init__(self, inner: BaseLoader):
        self.inner = inner
        self.missing: set[str] = set()

    def get_source(self, environment, template):
        if template in self.missing and not environment.auto_reload:
            raise TemplateNotFound(template)
        try:
            return self.inner.get_source(environment, template)
        except TemplateNotFound:
            self.missing.add(template)
            raise

    def list_templates(self):
        return self.inner.list_templates()


def url_for_once(endpoint: str, **values) -> str:
    """``url_for`` for templates, built once per request for the same arguments: a board asks for
    the same action URL twice per form (~40 builds a render, ~10% of it), always with one answer."""
    try:
        key = (endpoint, frozenset(values.items()))
    except TypeError:  # an argument that cannot be a key (a list): built as usual
        return current_app.url_for(endpoint, **values)
    built = g.setdefault("urls_built", {})
    if key not in built:
        built[key] = current_app.url_for(endpoint, **values)
    return built[key]


def _api_error(exc: HTTPException, message: str):
    """Under /api/ every error is JSON with one sentence, whatever raised it (routing included)."""
    if request.path.startswith("/api/"):
        return jsonify({"error": message}), exc.code
    return None


def _http_error(exc: HTTPException):
    if request.path.startswith("/api/"):
        sentence = {405: _("%(method)s is not allowed here.", method=request.method), 400: _("Bad request.")}.get(
            exc.code, exc.description or exc.name)
        resp = jsonify({"error": sentence})
        resp.status_code = exc.code
        # a 405 names the methods that are (RFC 9110 §15.5.6), as werkzeug's own answer does
        resp.headers.extend((k, v) for k, v in exc.get_headers() if k == "Allow")
        return resp
    return exc


# --- how often one address may make or import tables (issue 37 §5) -----------------------------------
MADE_PER_WINDOW = 20  # tables made or imported by one client address ...
MADE_WINDOW = 600  # ... in this many seconds (a club night's tables, many times over; per server process)
_made: dict[str, list[float]] = {}  # (each app keeps its own: current_app.extensions)
_made_lock = __import__("threading").Lock()


def too_many_tables() -> bool:
    """Whether this client address has made or imported MADE_PER_WINDOW tables within MADE_WINDOW
    seconds; else the attempt counts.  Kept in each process's memory: a gunicorn worker counts its own.
    The device running the server (loopback: is_host) is not counted."""
    import time
    if is_host() or not request.remote_addr:  # (no address: nothing to count it by)
        return False
    now_, addr = time.monotonic(), request.remote_addr
    made = current_app.extensions.setdefault("companion.made", {})
    with _made_lock:
        recent = [t for t in made.get(addr, ()) if now_ - t < MADE_WINDOW]
        if len(recent) >= MADE_PER_WINDOW:
            made[addr] = recent
            return True
        made[addr] = recent + [now_]
        if len(made) > 10_000:
            made.clear()
    return False


def _gate():
    """The validation layer (companion.validate) where every request enters: path parts, form
    fields and JSON bodies; a refusal is a 400 naming the field and nothing runs."""
    if not validate.path_ok(request.view_args):
        abort(404)
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return None
    if request.endpoint in ("lobby.create_table", "lobby.import_table", "api.create_table", "api.import_table") \
            and too_many_tables():
        message = _("This address made %(made)s tables in the last %(minutes)s minutes; wait a while.",
                    made=MADE_PER_WINDOW, minutes=MADE_WINDOW // 60)
        if request.path.startswith("/api/"):
            return jsonify({"error": message}), 429
        return make_response(render_template("error.html", status=429, message=message), 429)
    try:
        if request.mimetype == "application/json":
            g.json_body = validate.parse_json(request.get_data(cache=True))
        elif request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            validate.check_form(request.form)
    except InputError as exc:
        if request.path.startswith("/api/"):
            return jsonify({"error": exc.message, "field": exc.field}), 400
        control = request.form.get("_control", "") if request.mimetype != "application/json" else ""
        if request.headers.get("HX-Request") and validate.CONTROL_RE.match(control):
            return error_fragment(exc, control, 400)  # the sentence next to the form that sent it
        return make_response(render_template("error.html", status=400, message=exc.message), 400)
    return None


def do_value(type_: str, **kw) -> str:
    """The value of a board button: "tracker tracker=hp op=adjust by=-1" (see play.parse_do)."""
    return " ".join([type_] + [f"{k}={_quoted(str(v))}" for k, v in kw.items()])


@lru_cache(maxsize=4096)
def _quoted(text: str) -> str:
    # a board has ~100 buttons and their values repeat (unit ids, tracker ids, -1/+1): quoting
    # each afresh was ~10% of a board render (scripts/benchmark.py --profile)
    return quote(text, safe="")


def same_secret(sent: str, kept: str) -> bool:
    """Constant-time comparison of a secret someone sent (any text, even non-ASCII) with ours."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), kept.encode("utf-8"))


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


# the view's token while a board is drawn for it (companion/board/draw.py): a context variable, not
# ``g``, as a board's ~45 parts each set it (a read of ``g`` goes through Flask's proxies)
_form_token: ContextVar[str | None] = ContextVar("form_token", default=None)


@contextmanager
def forms_of(token: str):
    """While a board is drawn, ``csrf()`` (the macros' global) answers the view's token."""
    reset = _form_token.set(token)
    try:
        yield
    finally:
        _form_token.reset(reset)


def form_csrf() -> str:
    """The token a form's hidden field carries: the view's own while a board is drawn (the board is
    the same for every phone of its view: companion/board/draw.py), else the phone's own."""
    return _form_token.get() or csrf_token()


def bearer() -> str | None:
    auth = request.headers.get("Authorization", "")
    return auth[7:].strip() if auth.startswith("Bearer ") else None


def _gzip(resp) -> None:
    """Compress pages and board fragments for phones on a busy Wi-Fi (a 35 KB board is ~6 KB)."""
    if (resp.direct_passthrough or resp.mimetype not in ("text/html", "application/json")
            or "gzip" not in request.headers.get("Accept-Encoding", "") or "Content-Encoding" in resp.headers):
        return
    body = resp.get_data()
    if len(body) < GZIP_MIN_BYTES:
        return
    # level 3: a board (27 KB) compresses in ~0.08 ms instead of ~0.6 ms at level 5 (lazy matching
    # starts at 4), for about 9 % more bytes: measured in scripts/benchmark.py's notes, issue 14
    resp.set_data(gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0))
    resp.headers["Content-Encoding"] = "gzip"
    resp.headers["Content-Length"] = str(len(resp.get_data()))


def _csrf_protect():
    """Every state change from a browser carries the session's token (htmx sends it as a header)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or bearer():
        return None
    if request.path.startswith("/api/") and request.mimetype == "application/json":
        return None  # a cross-site page cannot send JSON without a CORS preflight, which we never grant
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    if not (session.get("csrf") and same_secret(sent, session["csrf"])) and not _view_form_token(sent):
        if request.path.startswith("/api/"):
            return {"error": _("Missing or wrong CSRF token (send X-CSRF-Token, or use a Bearer secret).")}, 400
        return make_response(render_template("error.html", status=400,
                                             message=_("This form is out of date; reload the page and try again.")), 400)
    return None


def _view_form_token(sent: str) -> bool:
    """A board's form posted to its own table by a phone of the board's view (the board is drawn once for
    every phone of a view, so its forms carry the view's token: companion/board/draw.py form_token)."""
    code = (request.view_args or {}).get("code")
    seat = seats().get(code) if isinstance(code, str) else None
    return bool(seat and sent) and same_secret(sent, form_token(code, view_of(seat)))


GZIP_MIN_BYTES = 2048
GZIP_LEVEL = 3
STATIC_TYPES = ("text/css", "text/javascript", "application/javascript", "image/svg+xml", "application/json",
                "application/manifest+json")


@lru_cache(maxsize=256)
def _file_version(path: str, mtime: float) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:10]


def _static_version(endpoint: str, values: dict) -> None:
    """Static URLs carry their content's hash (``?v=...``), so a phone may keep them for a year and
    still gets the new file the moment it changes."""
    if endpoint != "static" or "v" in values or not current_app.static_folder:
        return
    path = os.path.join(current_app.static_folder, values.get("filename", ""))
    if os.path.isfile(path):
        values["v"] = _file_version(path, os.path.getmtime(path))


@lru_cache(maxsize=64)
def _gzipped(path: str, version: str, body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=9, mtime=0)


def _static_headers(resp) -> None:
    """Versioned static files: cached for a year, and gzipped once (htmx is 52 KB, 17 KB gzipped)."""
    version = request.args.get("v")
    if version and resp.status_code == 200:
        resp.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    if (resp.status_code != 200 or resp.mimetype not in STATIC_TYPES
            or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return
    source = resp.response  # the open file send_file streams from: read it once, then close it
    resp.direct_passthrough = False
    body = resp.get_data()
    if hasattr(source, "close"):
        source.close()
    if len(body) < GZIP_MIN_BYTES and request.endpoint != "module":  # (the modules, small ones too: 34 -> 24 KB)
        return
    resp.set_data(_gzipped(request.path, version or str(hash(body)), body))
    resp.headers["Content-Encoding"] = "gzip"
    resp.headers["Content-Length"] = str(len(resp.get_data()))
    if resp.headers.get("ETag"):
        resp.set_etag(resp.get_etag()[0] + "-gzip")
    resp.headers["Vary"] = "Accept-Encoding"


def _headers(resp):
    if resp.status_code == 204:
        return resp  # the empty poll answer stays as small as possible
    if request.endpoint in ("static", "module"):  # (a module: cached by its view, assets.send_module)
        _static_headers(resp)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        return resp
    _gzip(resp)
    resp.headers.setdefault("Vary", "HX-Request, Cookie")
    if "Accept-Encoding" not in resp.headers["Vary"]:
        resp.headers["Vary"] += ", Accept-Encoding"
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    if current_app.config.get("SESSION_COOKIE_SECURE"):  # served over https (COMPANION_PUBLIC_URL)
        resp.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    resp.headers.setdefault("Referrer-Policy", "same-origin")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    if resp.mimetype == "text/html":
        resp.headers.setdefault("Content-Security-Policy", current_app.extensions["companion.csp"])
    return resp


def content_security_policy() -> str:
    """Scripts only from our own files; htmx's ``hx-on`` handlers need 'unsafe-eval' (htmx 2
    compiles them with Function).  No inline handler: a question before a form is sent is its
    ``data-ask`` (static/js/ask.js), in the page's language.  htmx adds its indicator <style> and some
    templates size bars with style="", so styles may be inline.  No plugins, no framing, forms post only here."""
    return ("default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; media-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
            "base-uri 'self'; "
            "form-action 'self'; frame-ancestors 'none'")


# --- seats ----------------------------------------------------------------------------------------

def seats() -> dict:
    """This phone's seats, {code: seat}: the cookie holds only each seat's own token (issue 37); the
    seat itself (name, side, role, host) is the server's row, looked up in one indexed read per
    request, so a removed seat's next request finds nothing."""
    kept_here = request.environ.get("companion.seats")  # found once per request (not in g: a long
    if kept_here is not None:                          # stream's app context may outlive its request)
        return kept_here
    kept = session.get("seats") or {}
    tokens = {c: t for c, t in kept.items() if isinstance(t, str)}
    found = store.seats_of_tokens(get_db(), tokens) if tokens else {}
    legacy = {c: v for c, v in kept.items() if isinstance(v, dict)}
    if legacy:  # a cookie from before seats were rows: signed by us, it claims its chair once
        changed = dict(kept)
        for code, old in legacy.items():
            token = _claim(code, old)
            if token:
                changed[code] = token
            else:
                changed.pop(code)
        session["seats"] = changed
        found.update(store.seats_of_tokens(get_db(), {c: changed[c] for c in legacy if c in changed}))
    request.environ["companion.seats"] = found
    return found


def _claim(code: str, old: dict) -> str | None:
    try:
        return store.claim_chair(get_db(), code, str(old.get("name", "")), old.get("side"), old.get("role") or "player")
    except store.NotFound:
        return None


def remember_seat(code: str, token: str) -> None:
    """Keep a seat's token in this phone's cookie (the seat is the server's row: store.ask_seat)."""
    all_seats = dict(session.get("seats") or {})
    all_seats[code] = token
    session["seats"] = all_seats
    asks = dict(session.get("asks") or {})
    if asks.pop(code, None) is not None:
        session["asks"] = asks
    session.permanent = True
    request.environ.pop("companion.seats", None)


def remember_ask(code: str, token: str) -> None:
    """A phone waiting to be let in keeps its ask's token until it is answered."""
    asks = dict(session.get("asks") or {})
    asks[code] = token
    session["asks"] = asks
    session.permanent = True


def forget_seat(code: str) -> None:
    all_seats = dict(session.get("seats") or {})
    if all_seats.pop(code, None) is not None:
        session["seats"] = all_seats
    request.environ.pop("companion.seats", None)


INVITED = "invited"  # an API caller holding only the spectator invitation's secret: it reads as a spectator


def seat_for(code: str) -> dict:
    """The caller's seat at a table: from a seat's own token (Bearer, for scripts) or the phone's cookie;
    404 otherwise.  The player invitation's secret as a Bearer is a script of no side ("API": it reads
    no sealed part and acts on none, nor finishes); the spectator's reads as a spectator.  A script that
    plays a side asks for a seat (POST /api/tables/<code>/seats).  Nothing a caller sends names its side."""
    try:
        row = store.table(get_db(), code)
    except store.NotFound:
        abort(404)
    token = bearer()
    if token is not None:
        if same_secret(token, row["player_secret"]):
            # a script holding the player invitation: it plays no side (reads no sealed part, seals,
            # reveals and finishes nothing) and the log names it "API"; nothing it sends names a side
            seat = {"name": roster.API_SEAT, "side": None, "role": "player", "host": False, "invited": True}
        elif same_secret(token, row["spectator_secret"]):
            seat = {"name": INVITED, "side": None, "role": "spectator", "host": False, "invited": True}
        else:
            seat = store.seats_of_tokens(get_db(), {code: token}).get(code)
            if seat is None:
                abort(404)
    else:
        seat = seats().get(code)
        if not seat:
            if isinstance((session.get("seats") or {}).get(code), str):  # a token whose seat is gone
                abort(403, _("This phone no longer has a seat at this table (its host removed it, or it moved to "
                             "another phone). Scan the table's invitation to ask for one again."))
            abort(404)
    if "X-Side" in request.headers and request.headers["X-Side"] != (seat.get("side") or ""):
        abort(403, _("X-Side is not read: the seat's own token says which side it plays."))
    g.table = row
    return seat


def require_player(seat: dict) -> None:
    if seat["role"] == "spectator":
        abort(403, _("Spectators can watch but not change anything."))


def require_host(seat: dict) -> None:
    if not seat.get("host"):
        abort(403, _("Only the table's host can do that (the host's phone can hand the role on: Invite)."))


def is_host() -> bool:
    """The device running the server (a browser on it reaches us over loopback) may change any
    saved item and is not counted by the table limit.  Behind a reverse proxy (COMPANION_PROXIES)
    every request comes from the proxy, so none is the host's (docs/deploying.md)."""
    return not current_app.config.get("PROXIES") and request.remote_addr in ("127.0.0.1", "::1")


def ctx_for(row: dict, seat: dict) -> Ctx:
    return Ctx(system=systems()[row["system"]], rng=secrets.SystemRandom(), seat=seat["name"],
               side=seat.get("side") if seat.get("role") == "player" else None, host=bool(seat.get("host")))


def public_url(path: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + path


# --- rendering --------------------------------------------------------------------------------------

_INDENT = re.compile(r"\n[ \t]+")
_KEEP = re.compile(r"(<textarea\b.*?</textarea>|<pre\b.*?</pre>)", re.S)


def without_indentation(html: str) -> str:
    """Drop the templates' indentation (not text inside textarea/pre): the board is resent often."""
    parts = _KEEP.split(html)
    return "".join(part if i % 2 else _INDENT.sub("\n", part) for i, part in enumerate(parts))


def page_or_partial(page: str, partial: str, status: int = 200, **context):
    """The partial for htmx requests, the full page (which includes it) otherwise."""
    resp = make_response(without_indentation(render_template(partial if request.htmx else page, **context)), status)
    resp.headers["Vary"] = "HX-Request, Cookie, Accept-Encoding"
    return resp


def error_fragment(exc: RuleError, control: str | None, status: int):
    """A 4xx answer for htmx: one sentence swapped into the control's own error slot."""
    resp = make_response(f'<span class="err-text" role="alert">{escape(words.for_players(exc.message))}</span>', status)
    resp.headers["HX-Retarget"] = f"#{control or 'board'}-err"
    resp.headers["HX-Reswap"] = "innerHTML"
    return resp


def status_of(exc: Exception) -> int:
    if isinstance(exc, (Stale, Finished, Conflict)):
        return 409
    return 400


def roster_of(state: dict, seated: list[dict] | None = None) -> str:
    """A short fingerprint of what a game's helpers list: the sides and their players' names (a game's
    ``game.names``, and the seats joined: ``seated``, store.seated), every unit by id, name, side and whether
    it is on the table, and the table's settings (a game's helpers may show them).  The board carries it
    (#unit-options, a part every step brings) and so do the helpers drawn with it (#game-tools):
    static/js asks for the helpers again when the two differ (issue 28 §4)."""
    game = state.get("game") if isinstance(state.get("game"), dict) else {}
    units = [(uid, u.get("name"), u.get("side"), bool(u.get("removed"))) for uid, u in state.get("units", {}).items()]
    seats = [(s["name"], s["side"], s["role"]) for s in seated or ()]
    raw = repr((state.get("sides"), units, game.get("names"), seats, state.get("settings")))
    return hashlib.blake2b(raw.encode(), digest_size=5).hexdigest()
