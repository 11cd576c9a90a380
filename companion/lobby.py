"""Lobby: the home page, creating a table, joining by QR, the invite page."""
from __future__ import annotations

import json

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    session,
    url_for,
)

from companion import export_signature, hidden, qr, replay, store
from companion.db import get_db, systems
from companion.errors import RuleError
from companion.roster import chosen_side, host_side, seat_name
from companion.said import _
from companion.web import (
    ctx_for,
    forget_seat,
    public_url,
    remember_ask,
    remember_seat,
    require_host,
    seat_for,
    seats,
)

bp = Blueprint("lobby", __name__)


def my_tables() -> list[dict]:
    """The tables this device created or joined (from its cookie), newest first."""
    saved, known = seats(), systems()
    out = [{**row, "system": known[row["system"]].name if row["system"] in known else row["system"],
            "seat": saved[row["code"]]} for row in store.tables_listed(get_db(), saved)]
    return sorted(out, key=lambda t: t["created"], reverse=True)


def open_table(system_slug, table_name, sides: list[str] | None, side: str | None, seat: str) -> tuple[dict, str]:
    """A new table and its host's seat token: the home page's form and the API's POST /tables alike
    (the same checks, one place).  ``sides`` None or empty: the system's own."""
    system = systems().get(system_slug) if isinstance(system_slug, str) else None
    if system is None:
        raise RuleError(_("Pick a game system (one of %(systems)s).", systems=", ".join(systems())), "system")
    if sides is not None and (not isinstance(sides, list) or not all(isinstance(s, str) for s in sides)):
        raise RuleError(_("sides must be a list of side names."), "sides")
    sides = [s for s in sides or () if s.strip()] or system.sides
    side = chosen_side(sides, side if isinstance(side, str) and side else None)
    row = store.create(get_db(), system, {"name": table_name, "sides": sides},
                       ctx_for({"system": system.slug}, {"name": seat, "side": side, "role": "player"}))
    return row, store.host_seat(get_db(), row["code"], seat, host_side(row["state"]["sides"], side))


@bp.get("/")
def home():
    """This device's tables and the form to start a new one."""
    return render_template("home.html", tables=my_tables(), systems=systems(), errors={}, form={})


@bp.post("/tables")
def create_table():
    """Create a table from the form; the creator takes the first seat and sees the invite QRs."""
    form = request.form
    try:
        row, token = open_table(form.get("system"), form.get("name", ""), (form.get("sides") or "").split(","),
                                form.get("side") or None, seat_name(form.get("seat")))
    except RuleError as exc:
        return render_template("home.html", tables=my_tables(), systems=systems(),
                               errors={exc.field or "name": exc.message}, form=form), 400
    remember_seat(row["code"], token)
    return redirect(url_for("lobby.invite", code=row["code"]), 303)


@bp.post("/tables/import")
def import_table():
    """Import an exported table as a new table; the importer takes a seat."""
    upload = request.files.get("file")
    try:
        name = seat_name(request.form.get("seat"))
        if upload is None or not upload.filename:
            raise RuleError(_("Choose an exported .json file."), "file")
        try:
            doc = json.load(upload.stream)
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deeply
            raise RuleError(_("That file is not JSON (export a table to get one)."), "file") from None
        row = replay.import_table(get_db(), doc, systems(), current_app.config["SECRET_KEY"])
    except RuleError as exc:
        return render_template("home.html", tables=my_tables(), systems=systems(),
                               errors={exc.field or "file": exc.message}, form=request.form), 400
    # the importer sits on the side whose export it is (a spectator's export: the first side, reading
    # nothing sealed before the import: hidden.locked)
    remember_seat(row["code"], store.host_seat(get_db(), row["code"], name, replay.importer_side(row)))
    # the board says once, at the top, whether the file was this server's own (export_signature)
    return redirect(url_for("play.board", code=row["code"], imported=1), 303)


def join_urls(row: dict) -> dict:
    """The invite's QR addresses: players, spectators, and a big screen (joins as a spectator, no
    question asked, and opens the display: companion/display.py)."""
    return {"player": public_url(url_for("lobby.join", code=row["code"], secret=row["player_secret"])),
            "spectator": public_url(url_for("lobby.join", code=row["code"], secret=row["spectator_secret"])),
            "display": public_url(url_for("display.join", code=row["code"], secret=row["spectator_secret"]))}


@bp.get("/t/<code>/invite")
def invite(code: str):
    """Big QR codes: one for players, one for spectators, one for a big screen (spectators see only
    the last two); who sits where and who is waiting; the host's tools (issue 37)."""
    return invite_page(code, seat_for(code))


def invite_page(code: str, seat: dict, errors: dict | None = None, status: int = 200):
    """The invitation page for ``seat``, with a refused tool's sentence (``errors``) beside it."""
    row = store.table(get_db(), code)
    urls = join_urls(row)
    if seat["role"] == "spectator":
        urls.pop("player")
    token = (session.get("seats") or {}).get(code)
    return render_template("invite.html", row=row, seat=seat, urls=urls, codes={k: qr.svg(v) for k, v in urls.items()},
                           table_seats=store.table_seats(get_db(), code), errors=errors or {},
                           my_token=token if isinstance(token, str) else None), status


def _role(row: dict, secret: str) -> str:
    import hmac
    if hmac.compare_digest(secret, row["player_secret"]):
        return "player"
    if hmac.compare_digest(secret, row["spectator_secret"]):
        return "spectator"
    abort(404)


def emptiest_side(code: str, sides: list[str]) -> str | None:
    """The side with the fewest players seated (the table's roster, companion/roster.py), the first
    on a tie: the side a newcomer most likely plays."""
    seated = store.seated(get_db(), code)
    count = {side: sum(1 for s in seated if s["role"] == "player" and s["side"] == side) for side in sides}
    return min(sides, key=lambda s: count[s]) if sides else None


@bp.route("/t/<code>/join/<secret>", methods=["GET", "POST"])
def join(code: str, secret: str):
    """The QR's address: the phone asks for a seat with a name and a side (issue 37).  A free side is
    its at once; a side a phone already holds waits for that side (or the host) to tap Allow."""
    try:
        row = store.table(get_db(), code)
    except store.NotFound:
        abort(404)
    role = _role(row, secret)
    current = seats().get(code)
    if current and (current["role"] == "player" or role == "spectator"):
        return redirect(url_for("play.board", code=code), 303)  # a seat is not re-chosen by posting again
    errors = {}
    if request.method == "POST":
        try:
            name = seat_name(request.form.get("seat"))
            side = request.form.get("side") or None
            token, status = store.ask_seat(get_db(), code, name, side if role == "player" else None, role)
            if status == store.SEATED:
                remember_seat(code, token)
                return redirect(url_for("play.board", code=code), 303)
            remember_ask(code, token)
            return redirect(url_for("lobby.waiting", code=code), 303)
        except RuleError as exc:
            errors[exc.field or "seat"] = exc.message
    return render_template("join.html", row=row, role=role, errors=errors, form=request.form,
                           suggested=emptiest_side(code, row["state"]["sides"]),
                           held=_held_sides(code), status=400 if errors else 200), 400 if errors else 200


def _held_sides(code: str) -> dict:
    """side -> the names of the phones holding it (the join page says a held side waits for Allow)."""
    held: dict[str, list[str]] = {}
    for s in store.table_seats(get_db(), code):
        if s["status"] == store.SEATED and s["held"] and s["role"] == "player":
            held.setdefault(s["side"], []).append(s["name"])
    return held


@bp.get("/t/<code>/waiting")
def waiting(code: str):
    """A phone that asked for a held side waits here; the page asks again every 2 s and goes to the board
    the moment a seat of that side lets it in."""
    try:
        row = store.table(get_db(), code)
    except store.NotFound:
        abort(404)
    if seats().get(code):
        return redirect(url_for("play.board", code=code), 303)
    token = (session.get("asks") or {}).get(code)
    ask = store.ask_status(get_db(), code, token) if isinstance(token, str) else None
    if ask and ask["status"] == store.SEATED:
        remember_seat(code, token)
        if request.headers.get("HX-Request"):
            return "", 200, {"HX-Redirect": url_for("play.board", code=code)}
        return redirect(url_for("play.board", code=code), 303)
    return render_template("waiting.html", row=row, ask=ask)


def _seat_or_403(code: str) -> dict:
    seat = seat_for(code)
    if seat.get("invited"):
        abort(403, _("Take a seat first."))
    return seat


def _back(code: str, to: str):
    return redirect(url_for("play.board", code=code) if to == "board" else url_for("lobby.invite", code=code), 303)


@bp.post("/t/<code>/asks")
def answer(code: str):
    """Allow or Refuse a phone waiting for a side: a seat of that side, or the host."""
    seat = _seat_or_403(code)
    try:
        store.answer_ask(get_db(), code, str(request.form.get("name", "")), request.form.get("answer") == "allow", seat)
    except RuleError as exc:
        return _refused(code, seat, exc)
    return _back(code, request.form.get("back", ""))


def _refused(code: str, seat: dict, exc: RuleError):
    return invite_page(code, seat, {exc.field or "seat": exc.message}, 400)


@bp.post("/t/<code>/seats/remove")
def remove(code: str):
    """The host removes a seat (its stream ends, its next request is refused); a seat may leave."""
    seat = _seat_or_403(code)
    name = str(request.form.get("name", ""))
    try:
        store.remove_seat(get_db(), code, name, seat)
    except RuleError as exc:
        return _refused(code, seat, exc)
    if name == seat["name"]:
        forget_seat(code)
        return redirect(url_for("lobby.home"), 303)
    return _back(code, "")


@bp.post("/t/<code>/unlock")
def unlock(code: str):
    """A seat of a locked side (an imported table whose file held its side's orders boxed) opens them
    with its side's own export of the same game: this server's signed file, made by a seat of that
    side (the signature covers the side it names), of the table the copy was imported from."""
    seat = _seat_or_403(code)
    row = store.table(get_db(), code)
    locked = json.loads(row["locked"]) if row.get("locked") else {}
    try:
        if not seat.get("locked"):
            raise RuleError(_("Your side's sealed orders are not shut here."), "unlock")
        upload = request.files.get("file")
        if upload is None or not upload.filename:
            raise RuleError(_("Choose your side's own export of that game (.json)."), "unlock")
        try:
            doc = json.load(upload.stream)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise RuleError(_("That file is not JSON (export the table to get one)."), "unlock") from None
        if not isinstance(doc, dict) or export_signature.origin(doc, current_app.config["SECRET_KEY"]) != export_signature.OWN:
            raise RuleError(_("That file is not this server's own export, unchanged."), "unlock")
        if hidden.table_of(doc) != locked.get("from"):
            raise RuleError(_("That export is of another game than the one this table was imported from."), "unlock")
        if doc.get("side") != seat["side"]:
            raise RuleError(_("That export was made by %(by)s, not by %(side)s.", by=doc["side"], side=seat["side"])
                            if doc.get("side") else
                            _("That export was made by a spectator, not by %(side)s.", side=seat["side"]), "unlock")
    except RuleError as exc:
        return _refused(code, seat, exc)
    store.unlock_side(get_db(), code, seat["side"])
    return redirect(url_for("play.board", code=code), 303)


@bp.post("/t/<code>/host")
def hand_host(code: str):
    seat = _seat_or_403(code)
    try:
        store.hand_host(get_db(), code, str(request.form.get("name", "")), seat)
    except RuleError as exc:
        return _refused(code, seat, exc)
    return _back(code, "")


@bp.post("/t/<code>/links")
def new_links(code: str):
    """The host makes new invitation links: the old ones (and their QR codes) stop working."""
    require_host(_seat_or_403(code))
    store.new_links(get_db(), code)
    return _back(code, "")


@bp.post("/t/<code>/delete")
def delete(code: str):
    """The host deletes the table: every seat's next request finds nothing."""
    require_host(_seat_or_403(code))
    if request.form.get("confirm") != code:
        return _refused(code, seat_for(code), RuleError(_("Type the table's code (%(code)s) to delete it.", code=code), "delete"))
    store.delete_table(get_db(), code)
    forget_seat(code)
    return redirect(url_for("lobby.home"), 303)


# --- on the home screen (issue 10 §7) ---------------------------------------------------------------

THEME = {"light": "#f4f1ea", "dark": "#121417"}  # the page backgrounds of companion.css's two themes


def manifest(name: str, short_name: str, start_url: str):
    """A web app manifest: "Add to home screen" gives an app without browser chrome."""
    icons = [{"src": url_for("static", filename=f"icons/icon-{s}.png"), "sizes": f"{s}x{s}", "type": "image/png"}
             for s in (192, 512)]
    icons.append({"src": url_for("static", filename="icons/icon-maskable-512.png"), "sizes": "512x512",
                  "type": "image/png", "purpose": "maskable"})
    resp = jsonify({"name": name, "short_name": short_name[:24], "start_url": start_url, "scope": "/",
                    "display": "standalone", "background_color": THEME["light"], "theme_color": THEME["light"],
                    "icons": icons})
    resp.mimetype = "application/manifest+json"
    return resp


@bp.get("/manifest.webmanifest")
def app_manifest():
    """The app's manifest: opens on this device's tables."""
    return manifest("companion", "companion", url_for("lobby.home"))


@bp.get("/t/<code>/manifest.webmanifest")
def table_manifest(code: str):
    """A table's manifest: the table's name on the home screen, opening on its board."""
    seat_for(code)
    row = store.table(get_db(), code)
    return manifest(f"{row['name']} · companion", row["name"], url_for("play.board", code=code))


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever the page says: the app's icon, not a 404."""
    return send_from_directory(current_app.static_folder + "/icons", "favicon.ico", max_age=86400)
