"""JSON API for integrations and tests; described at /api/openapi.json (docs/api.md has examples).

Credentials (issue 37): a seat's own token as ``Authorization: Bearer <token>`` (the creator's comes with
the new table; anyone else asks for a seat with the invitation's secret: ``POST /tables/<code>/seats``),
or the browser's seat cookie plus X-CSRF-Token.  The player invitation's secret alone is a script of no
side ("API" in the log: no sealed part read or acted on, no finish); the spectator's reads as a spectator.
"""
from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, g, jsonify, request, stream_with_context, url_for

from companion import actions, dice, export_signature, feed, hidden, replay, roster, same_hit, store
from companion.db import get_db, systems
from companion.errors import Conflict, Moved, RuleError
from companion.lobby import open_table
from companion.lookup import system_or_404, table_or_404
from companion.said import _
from companion.schema import whole as whole_number
from companion.validate import shielded
from companion.web import ctx_for, public_url, remember_seat, require_player, same_secret, seat_for, status_of

bp = Blueprint("api", __name__, url_prefix="/api")


def error(exc: RuleError):
    body = {"error": exc.message}
    if exc.field:
        body["field"] = exc.field
    return jsonify(body), status_of(exc)


def body() -> dict:
    """The request's JSON object, as the gate (companion.validate, via web) parsed and checked it."""
    data = g.get("json_body")
    if not isinstance(data, dict):
        raise RuleError(_("Send a JSON object (Content-Type: application/json)."), "body")
    return data


@bp.errorhandler(404)
def not_found(exc):
    return jsonify({"error": _("Not found.")}), 404


@bp.errorhandler(403)
def forbidden(exc):
    return jsonify({"error": exc.description}), 403


@bp.get("/systems")
def list_systems():
    return jsonify([s.summary() for s in systems().values()])


@bp.get("/systems/<slug>/tables")
def list_tables(slug: str):
    system = system_or_404(slug)
    return jsonify([{"slug": t["slug"], "title": t["title"]} for t in system.tables.values()])


@bp.get("/systems/<slug>/tables/<table>")
def get_table(slug: str, table: str):
    t = table_or_404(slug, table)
    return jsonify({k: t[k] for k in ("slug", "title", "source", "columns", "rows")} |
                   ({"note": t["note"]} if "note" in t else {}))


@bp.post("/roll")
def roll():
    """A roll on its own (not logged at any table)."""
    try:
        result = dice.roll(body().get("expr"))
    except RuleError as exc:
        return error(exc)
    return jsonify({"expr": result["expr"], "total": result["total"], "dice": result["dice"]})


@bp.post("/odds")
def odds():
    """Exact odds of a success pool: {"dice", "target", "save"?, "sides"?}."""
    try:
        data = body()
        result = dice.pool_odds(*(whole(data, k) if data.get(k) is not None else d
                                  for k, d in (("dice", 0), ("target", 0), ("save", None), ("sides", 6))))
    except RuleError as exc:
        return error(exc)
    return jsonify(result)


def whole(data: dict, key: str) -> int:
    """A whole number field (a numeral in text is taken too); RuleError naming it otherwise."""
    value = whole_number(data.get(key))  # the schema's reading of digits
    if value is None:
        raise RuleError(_("%(field)s must be a whole number.", field=key), key)
    return value


def _created(row: dict, **more):
    return jsonify({**more, "code": row["code"],
                    "player_url": public_url(url_for("lobby.join", code=row["code"], secret=row["player_secret"])),
                    "spectator_url": public_url(url_for("lobby.join", code=row["code"],
                                                        secret=row["spectator_secret"]))}), 201


@bp.post("/tables")
def create_table():
    """Create a table: {"system", "name", "sides"?, "seat"?, "side"?}; the caller is its host, and the
    answer carries the host seat's own token (``seat_token``)."""
    try:
        data = body()
        with shielded(data):
            row, token = open_table(data.get("system"), data.get("name"), data.get("sides"), data.get("side"),
                                    roster.seat_name(data.get("seat"), roster.API_SEAT))
    except RuleError as exc:
        return error(exc)
    if not request.headers.get("Authorization"):
        remember_seat(row["code"], token)
    return _created(row, seat_token=token)


@bp.post("/tables/<code>/seats")
def ask_seat(code: str):
    """Ask for a seat with an invitation's secret (Bearer): {"seat": name, "side"?} (a spectator's
    invitation: no side).  201 with ``seat_token`` when seated at once (a free side); 202 with the token
    while a seat of that side (or the host) has not yet let it in: ``GET /tables/<code>/seat`` says."""
    try:
        row = store.table(get_db(), code)
    except store.NotFound:
        abort(404)
    secret = request.headers.get("Authorization", "")[7:].strip()
    role = "player" if secret and same_secret(secret, row["player_secret"]) else (
        "spectator" if secret and same_secret(secret, row["spectator_secret"]) else None)
    if role is None:
        abort(404)
    try:
        data = body()
        side = data.get("side") if role == "player" else None
        token, status = store.ask_seat(get_db(), code, roster.seat_name(data.get("seat")),
                                       side if isinstance(side, str) else None, role)
    except RuleError as exc:
        return error(exc)
    return jsonify({"seat_token": token, "status": status}), 201 if status == store.SEATED else 202


@bp.post("/tables/<code>/asks")
def answer_ask(code: str):
    """Allow or refuse a phone waiting for a side, {"name", "answer": "allow" | "refuse"}: a seat of that
    side (its token), or the host."""
    seat = seat_for(code)  # (whether this seat may answer is the store's to say: its side's or the host's)
    try:
        data = body()
        if data.get("answer") not in ("allow", "refuse"):
            raise RuleError(_("answer is allow or refuse."), "answer")
        store.answer_ask(get_db(), code, str(data.get("name", "")), data["answer"] == "allow", seat)
    except RuleError as exc:
        return error(exc)
    return jsonify({"name": data["name"], "answer": data["answer"]})


@bp.get("/tables/<code>/seat")
def my_seat(code: str):
    """The caller's seat (Bearer: its token): name, side, role, host; or an ask's status while it waits."""
    token = request.headers.get("Authorization", "")[7:].strip()
    ask = store.ask_status(get_db(), code, token) if token else None
    if ask is None:
        abort(404)
    if ask["status"] != store.SEATED:
        return jsonify(ask)
    seat = seat_for(code)
    return jsonify({k: seat[k] for k in ("name", "side", "role", "host")} | {"status": store.SEATED})


@bp.post("/tables/import")
def import_table():
    """Import an export document as a new table; the answer says whether it was this server's own
    export, unchanged (``signed``, and the sentence in ``import_note``); the importer is the new
    table's host, on the side whose export it is (``seat_token``)."""
    try:
        row = replay.import_table(get_db(), body(), systems(), current_app.config["SECRET_KEY"])
    except RuleError as exc:
        return error(exc)
    token = store.host_seat(get_db(), row["code"], roster.API_SEAT, replay.importer_side(row))
    return _created(row, signed=row["imported"] == export_signature.OWN, seat_token=token,
                    import_note=export_signature.sentence(row["imported"]))


@bp.get("/tables/<code>")
def get_state(code: str):
    seat = seat_for(code)
    row = store.state_for(store.table(get_db(), code), hidden.viewer_side(seat))
    return jsonify({"code": code, "system": row["system"], "seq": row["seq"], "finished": bool(row["finished"]),
                    "state": row["state"]})


@bp.post("/tables/<code>/actions")
def post_action(code: str):
    """One action: {"type", ...}; optional "seq" makes it conditional on the state seen (409 if stale)."""
    seat = seat_for(code)
    require_player(seat)
    try:
        data = body()
        expect = data.pop("seq", None)
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise RuleError(_("seq must be the integer seq you last saw."), "seq")
        with shielded(data):
            result = store.act(get_db(), code, data, ctx_for(g.table, seat), expect_seq=expect)
    except RuleError as exc:
        return error(exc)
    out = {"seq": result["seq"], "label": result["label"]}
    if "unit" in result["payload"]:
        out["unit"] = result["payload"]["unit"]
    for key in ("total", "dice", "result", "steps"):
        if key in result["payload"]:
            out[key] = result["payload"][key]
    same = same_hit.asked(get_db(), result)  # the same change (or hit) by another seat a moment ago
    if same is not None:
        out["same_as"] = same
    return jsonify(out)


@bp.post("/tables/<code>/take-back")
def take_back(code: str):
    """Take back moves in force ({"targets": [412]}), or correct a tracker change
    ({"targets": [412], "instead": {"unit"?, "by"?}}), as one event; "seq" as for actions.  A later
    move that no longer applies: 409 naming it, with "failed" and "offer" (the targets and it)."""
    seat = seat_for(code)
    require_player(seat)
    try:
        data = body()
        expect = data.get("seq")
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise RuleError(_("seq must be the integer seq you last saw."), "seq")
        if set(data) - {"targets", "instead", "seq"}:
            raise RuleError(_("A take-back takes targets, instead and seq only."),
                            sorted(set(data) - {"targets", "instead", "seq"})[0])
        with shielded(data):
            result = store.take_back(get_db(), code, data.get("targets"), ctx_for(g.table, seat),
                                     instead=data.get("instead"), expect_seq=expect)
    except Conflict as exc:
        body_, status = error(exc)
        return jsonify({**body_.get_json(), "failed": exc.failed, "offer": exc.offer}), status
    except RuleError as exc:
        return error(exc)
    return jsonify({"seq": result["seq"], "label": result["label"], "targets": result["payload"]["targets"]})


@bp.post("/tables/<code>/undo")
def undo(code: str):
    return _undo(code, False)


@bp.post("/tables/<code>/redo")
def redo(code: str):
    return _undo(code, True)


def _undo(code: str, redo: bool):
    """Optional body {"target": seq}: the event the caller means to undo (redo); 409 with the
    current ``top`` if another move came in since (checked in the same locked write)."""
    seat = seat_for(code)
    require_player(seat)
    try:
        data = g.get("json_body")
        expect = data.get("target") if isinstance(data, dict) else None
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise RuleError(_("target must be the integer seq of the event you mean to redo.") if redo
                            else _("target must be the integer seq of the event you mean to undo."), "target")
        result = store.undo(get_db(), code, ctx_for(g.table, seat), redo=redo, expect=expect, known=dict(g.table))
    except Moved as exc:
        return jsonify({"error": exc.message, "field": exc.field, "top": exc.top}), 409
    except RuleError as exc:
        return error(exc)
    return jsonify({"seq": result["seq"], "label": result["label"], "target": result["target"]})


@bp.get("/tables/<code>/events")
def get_events(code: str):
    seat = seat_for(code)
    return jsonify(store.events_for(get_db(), code, hidden.viewer_side(seat)))


@bp.get("/tables/<code>/feed")
def event_feed(code: str):
    """The table's events as Server-Sent Events (companion/feed.py), from after ``Last-Event-ID`` (what
    a reconnecting EventSource sends) or ``?after=``; from now on if neither."""
    seat = seat_for(code)
    sent = request.headers.get("Last-Event-ID") or request.args.get("after")
    if sent is not None and not (sent.isascii() and sent.isdigit() and len(sent) <= 15):
        return error(RuleError(_("Last-Event-ID (or after) must be the seq of the last event you had, a whole "
                                 "number."), "after"))
    stream = feed.stream(current_app.config["DATABASE"], code, hidden.viewer_side(seat),
                         int(sent) if sent is not None else None, lifetime=current_app.config["FEED_SECONDS"],
                         seat_id=seat.get("id"))
    # no buffering anywhere on the way (X-Accel-Buffering: nginx), never cached
    # (the request kept with the stream: each label and line is drawn in the reader's language)
    return Response(stream_with_context(stream), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/tables/<code>/export")
def export(code: str):
    seat = seat_for(code)
    return jsonify(replay.export_for(get_db(), code, hidden.viewer_side(seat), current_app.config["SECRET_KEY"]))


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3.1 description of this API, with every action type of every system."""
    from companion.openapi import document
    actions.available("freeform")  # imports every module that registers action types
    return jsonify(document(actions.REGISTRY, systems()))
