"""Play: the board, its actions, polling, undo/redo, the log, export and the battle report."""
from __future__ import annotations

import json
import re
from urllib.parse import unquote

from flask import Blueprint, Response, current_app, g, redirect, render_template, request, stream_with_context, url_for

from companion import dice, hidden, live, replay, report_cache, roster, same_hit, store, take_back, validate
from companion.board import board_context, board_fragment, board_page, card_answer, keep, pushed_step
from companion.db import get_db
from companion.errors import Conflict, RuleError, Stale
from companion.said import _
from companion.seat import view_of
from companion.validate import shielded
from companion.web import (
    ctx_for,
    error_fragment,
    is_host,
    page_or_partial,
    require_player,
    seat_for,
    seats,
    status_of,
)

bp = Blueprint("play", __name__)

TEXT_KEYS = {"name", "text", "why", "expr", "side", "result", "label", "reason", "dice", "rolled",
             "saves_rolled", "seat", "value", "to", "card.name", "card.type", "cards_text"}
INT_RE = re.compile(r"^-?[0-9]{1,9}$")


def parse_do(text: str) -> dict:
    """A button's compact action: "tracker tracker=hp op=adjust by=-1" (values URL-quoted)."""
    parts = text.split()
    out = {"type": parts[0]} if parts else {}
    for part in parts[1:]:
        key, _sep, value = part.partition("=")
        out[key] = unquote(value)
    return out


# What a board form may send besides its action's declared fields (tests/test_form_fields.py holds
# every form to this): the core's own fields, and the few a form's text is turned into (form_args).
CORE_FORM_FIELDS = ("csrf_token", "_control", "_seq", "do", "type", "seq")
FORM_ONLY_FIELDS = {"deck-load": {"source", "cards_text"}}


def form_args(form) -> dict:
    """Form fields and the pressed button's ``do`` as action arguments: dotted names nest, whole
    numbers become ints, empty fields are dropped."""
    args: dict = {}
    fields = {k: form.get(k) for k in form if k not in ("csrf_token", "_control", "_seq", "do")}
    fields.update(parse_do(form.get("do", "")))
    for key, value in fields.items():
        if value in ("", None):
            continue
        if isinstance(value, str) and key not in TEXT_KEYS and INT_RE.match(value.strip()):
            value = int(value)
        target = args
        parts = key.split(".")
        for part in parts[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise RuleError(_("%(field)s is sent both as a value and as a group of fields.", field=part), parts[0])
        if isinstance(target.get(parts[-1]), dict):
            raise RuleError(_("%(field)s is sent both as a value and as a group of fields.", field=key), parts[0])
        target[parts[-1]] = value
    if args.get("type") == "add-tracker" and isinstance(args.get("spec"), dict):
        args["spec"] = tracker_spec_from_form(args["spec"])
    if args.get("type") == "deck-load" and args.pop("source", None) == "typed":
        # the deck set-up's own-cards button: the typed list, whatever example is selected beside it
        args.pop("definition", None)
        args["cards"] = cards_from_text(str(args.get("cards_text", "")))
    args.pop("cards_text", None)
    if args.get("type") == "deck-record" and isinstance(args.get("card"), dict):
        args["card"] = {k: v for k, v in args["card"].items() if v not in ("", None)}
    return args


# The add-tracker form's fields that each kind reads (companion/trackers/<kind>.py create()): the
# others are left out, so a field typed for one kind never breaks the next kind chosen (issue 10 §4).
KIND_FIELDS = {"counter": {"min", "max", "start"}, "boxes": {"count", "flagged"}, "arcs": {"arcs"},
               "charge": {"red", "yellow"}, "cooldown": {"every"}, "conditions": {"options"},
               "gauge": {"min", "max", "start"}}


def tracker_spec_from_form(spec: dict) -> dict:
    """The add-tracker form's plain text ("Fore 6, Aft 4", "5 6") as a tracker spec, with only the
    chosen kind's fields."""
    spec = dict(spec)
    if spec.get("kind") in KIND_FIELDS:
        spec = {k: v for k, v in spec.items() if k in ("kind", "label", "id") or k in KIND_FIELDS[spec["kind"]]}
    if not spec.get("id") and isinstance(spec.get("label"), str):
        spec["id"] = re.sub(r"[^a-z0-9]+", "-", spec["label"].lower()).strip("-")[:20] or "tracker"
    if isinstance(spec.get("flagged"), (str, int)):  # players count boxes from 1
        spec["flagged"] = [int(n) - 1 for n in str(spec["flagged"]).replace(",", " ").split()
                           if INT_RE.match(n)]
    if isinstance(spec.get("options"), str):
        spec["options"] = [o.strip() for o in spec["options"].split(",") if o.strip()][:20]
    if isinstance(spec.get("arcs"), str):
        arcs = []
        for part in spec["arcs"].split(","):
            words = part.split()
            if len(words) >= 2 and INT_RE.match(words[-1]):
                arcs.append({"name": " ".join(words[:-1])[:20], "boxes": int(words[-1])})
        spec["arcs"] = arcs
    return spec


def cards_from_text(text: str) -> list[dict]:
    """Players' own cards typed one per line ("Broadside", or "Broadside | Special | 3" with a type
    and a value), for the core deck-load action; a line repeated is the same card twice."""
    cards = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if not parts[0]:
            continue
        card = {"name": parts[0]}
        if len(parts) > 1 and parts[1]:
            card["type"] = parts[1]
        if len(parts) > 2 and parts[2]:
            card["value"] = int(parts[2]) if INT_RE.match(parts[2]) else parts[2]
        cards.append(card)
    return cards


@bp.get("/t/<code>")
def board(code: str):
    """The board: every unit's trackers, the turn, decks and the roll log."""
    return board_page(code, seat_for(code), row=g.table)


TOOLS = ("add", "rosters", "game")


@bp.get("/t/<code>/tools/<part>")
def tool(code: str, part: str):
    """A form that is rarely needed, loaded when its section is opened (or as its own page)."""
    seat = seat_for(code)
    require_player(seat)
    if part not in TOOLS:
        return Response(status=404)
    library = store.library_items(get_db(), g.table["system"], "roster") if part == "rosters" else []
    return page_or_partial("tool.html", f"_tool_{part}.html", part=part, library=library,
                           **board_context(code, seat, row=g.table))


@bp.get("/t/<code>/poll")
def poll(code: str):
    """Cheap sync: 204 when nothing changed since ``seq``, else the fresh board."""
    seat = seats().get(code) or seat_for(code)  # the cookie first: no table read on the hot path
    head = store.table_head(get_db(), code)
    if head is None:
        return Response(status=404)
    if str(head[1]) == request.args.get("seq"):
        return Response(status=204)
    if request.htmx:  # drawn once per change and view, shared by every phone (companion/board)
        since = request.args.get("seq", "")
        return board_fragment(code, seat, int(since) if INT_RE.match(since) else None, head)
    return board_page(code, seat)


def still_seated(code: str, table_id: int, seat: dict):
    """For a live stream: a check, asked at each change or ping, that the seat it was opened for is still
    at the table (the host may remove it, issue 37).  At a change, the table's seated seats read once
    for every stream of it in this process (keep.once_at, by the table's id, never another table's: a
    removal is a change of its own, read afresh); at a ping, the seat's own row (a phone given a seat
    back retires the old one without a change)."""
    seat_id = seat.get("id")
    if seat_id is None:  # an invitation's reader: it holds no seat to lose (new links end it: 404 next time)
        return None

    def keep_going(seq: int | None) -> bool:
        if seq is None:
            return store.seat_is_seated(get_db(), code, seat_id)
        return seat_id in keep.once_at("seated", table_id, seq, lambda: store.seated_ids(get_db(), code))
    return keep_going


@bp.get("/t/<code>/live")
def live_stream(code: str):
    """The table's live stream (Server-Sent Events, companion/live.py): each time the table moves on,
    the step from the board the phone holds (or the new seq, and the phone asks); resumes after
    ``Last-Event-ID`` (or ``?seq=``)."""
    seat = seats().get(code) or seat_for(code)  # an API seat (Bearer) or none: 404 if not the caller's
    head = store.table_head(get_db(), code)
    if head is None:
        return Response(status=404)
    last = request.headers.get("Last-Event-ID") or request.args.get("seq", "")
    since = int(last) if INT_RE.match(last) else 0
    config = current_app.config
    # each change is pushed as the step from the board the phone holds (drawn once per view and change,
    # companion/board), inside this request's context for as long as the stream lasts
    events = live.events(config["DATABASE"], code, since, config["LIVE_PING"], config["LIVE_SECONDS"],
                         step=lambda sent, seq: pushed_step(code, seat, sent, (head[0], seq, head[2])),
                         keep_going=still_seated(code, head[0], seat))  # a removed seat's stream ends (issue 37)
    # gzip where the phone takes it (Chromium's EventSource asks for it): one gzip member flushed at each
    # event, a step's compressed text made once per change and view (companion/live.py, issue 38)
    events = _following(head[0], view_of(seat), events)  # a tap's answer draws this view's board too
    packed = "gzip" in request.headers.get("Accept-Encoding", "")
    resp = Response(stream_with_context(live.gzipped(events) if packed else events), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not hold the events back
    resp.headers["Vary"] = "Accept-Encoding"
    if packed:
        resp.headers["Content-Encoding"] = "gzip"
    return resp


def _following(table_id: int, view, texts):
    """The stream's ``texts``, its view counted as followed in this process while it is open
    (board/answer.py ``_drawn_at_change``)."""
    with keep.following(table_id, view):
        yield from texts


@bp.get("/t/<code>/card/<uid>")
def unit_card(code: str, uid: str):
    """A unit's whole card, asked for when its row is opened (companion/board)."""
    seat = seats().get(code) or seat_for(code)
    return card_answer(code, seat, uid)


def _answer(code: str, seat: dict, exc: RuleError | None, row: dict | None = None):
    """After an action: the fresh board on success (``row``: the table the action left, if the
    caller has it); on failure the sentence next to the control."""
    control = request.form.get("_control") or None
    if control and not validate.CONTROL_RE.match(control):
        control = None  # not one of our element ids (and not safe in a response header)
    if exc is None:
        if request.htmx:  # the board the other phones will poll for next: drawn once for this view
            # a phone whose board was one to three changes behind gets only what changed, like a
            # poll (the step is kept for the other phones of its view, who poll for it next)
            # (the table as the action left it, if the caller has it: no second read)
            since = request.headers.get("X-Board-Seq", "")
            return board_fragment(code, seat, int(since) if INT_RE.match(since) else None, row=row)
        return redirect(url_for("play.board", code=code) + (f"#{control}" if control else ""), 303)
    status = status_of(exc)
    if request.htmx:
        if isinstance(exc, Stale):
            resp = board_page(code, seat, flash=exc.message, status=409)
            resp.headers["HX-Retarget"] = "#board"
            resp.headers["HX-Reswap"] = "outerHTML"
            return resp
        return error_fragment(exc, control, status)
    errors = {control or "board": exc.message}
    part = tool_of(control)
    if part:  # the form lives on a tool page: show the sentence there, next to it
        library = store.library_items(get_db(), g.table["system"], "roster") if part == "rosters" else []
        return page_or_partial("tool.html", f"_tool_{part}.html", status=status, part=part, library=library,
                               **board_context(code, seat, errors=errors))
    return board_page(code, seat, errors=errors, status=status)


def tool_of(control: str | None) -> str | None:
    """Which tool page holds a control (its forms are not on the board page itself)."""
    if not control:
        return None
    if control == "roster":
        return "rosters"
    return "add" if control.startswith("add-") else None


@bp.post("/t/<code>/act")
def act(code: str):
    """Any action on the table, from a button (hx-vals) or a form."""
    seat = seat_for(code)
    require_player(seat)
    with store.steps.announced_after(get_db()):  # (the answer's boards drawn first: store/steps.py)
        try:
            seq = request.form.get("_seq")
            args = form_args(request.form)
            with shielded(args):
                done = store.act(get_db(), code, args, ctx_for(g.table, seat),
                                 expect_seq=int(seq) if seq and INT_RE.match(seq) else None, known=dict(g.table))
        except RuleError as exc:
            return _answer(code, seat, exc)
        return _asked_if_same(code, _answer(code, seat, None, done["row"]), done)


def _asked_if_same(code: str, resp, done: dict):
    """The answer to a tracker change that repeats another seat's a moment before: the question
    "Ben also took 1 HP from Nimitz 2 s ago. Same hit?" goes with it (companion/same_hit.py)."""
    same = same_hit.asked(get_db(), done) if request.htmx else None
    if same is not None:
        resp.set_data(resp.get_data() + render_template("_same_hit.html", ask=same["question"], mine=done["seq"],
                                                        other=same["seq"], code=code).encode())
    return resp


@bp.post("/t/<code>/undo")
def undo(code: str):
    """Undo the last action in force, whoever made it."""
    return _undo(code, redo=False)


@bp.post("/t/<code>/redo")
def redo(code: str):
    """Redo the last undone action."""
    return _undo(code, redo=True)


def _undo(code: str, redo: bool):
    seat = seat_for(code)
    require_player(seat)
    try:
        # the bar names what Undo (Redo) takes back and sends its seq; if another phone acted
        # since, say so rather than take back something the player never saw (issue 10 §5): the
        # check is in the same locked write as the undo (issue 30 §1).  A page from before the
        # seq was sent (a label here) is answered with the fresh board.
        expect = request.form.get("expect")
        expect = None if expect is None else int(expect) if INT_RE.match(expect) else -1
        with store.steps.announced_after(get_db()):  # (the answer's boards drawn first: store/steps.py)
            done = store.undo(get_db(), code, ctx_for(g.table, seat), redo=redo, expect=expect, known=dict(g.table))
            return _answer(code, seat, None, done["row"])
    except RuleError as exc:
        return _answer(code, seat, exc)


@bp.get("/t/<code>/odds")
def odds(code: str):
    """The exact odds of a success pool, shown before rolling (htmx fragment)."""
    seat_for(code)
    try:
        args = form_args(request.args)
        result = dice.pool_odds(int(args.get("dice") or 0), int(args.get("target") or 0),
                                int(args["save"]) if args.get("save") not in (None, "", 0) else None,
                                int(args.get("sides") or 6))
    except (RuleError, ValueError, TypeError) as exc:
        message = exc.message if isinstance(exc, RuleError) else _("Enter whole numbers.")
        return render_template("_odds.html", odds=None, message=message), 200
    return render_template("_odds.html", odds=result, message=None)


LOG_PAGE = 100  # events per page of the log (newest first)
REPORT_TIMELINE = 200  # the report's timeline: the newest events, the log page has them all


@bp.get("/t/<code>/log")
def log(code: str):
    """The history, newest first, a page at a time: who made each event, undone ones marked."""
    return _log_page(code, seat_for(code), request.args.get("before", ""))


def _log_page(code: str, seat: dict, before: str = "", status: int = 200, refused: dict | None = None):
    """The log page; ``refused``: a take-back refused ({seq, message, offer}), shown at its event."""
    viewer = hidden.viewer_side(seat)
    row = store.state_for(g.table, viewer)
    before = int(before) if INT_RE.match(before) and int(before) > 1 else None
    events = hidden.revealed_texts(store.log_page(get_db(), row["id"], viewer, before, LOG_PAGE), row["state"])
    older = events[-1]["seq"] if events and events[-1]["seq"] > 1 else None
    return render_template("log.html", row=row, seat=seat, events=events, older=older, newest=before is None,
                           can_change=seat["role"] == "player" and not row["finished"], refused=refused,
                           correctable=take_back.correctable, amount_field=take_back.amount_field), status


@bp.post("/t/<code>/take-back")
def take_back_move(code: str):
    """Take back a move in force, or correct a tracker change ("instead.unit", "instead.by"): from
    the log page (its answer is the log again) or the board (htmx: the board)."""
    seat = seat_for(code)
    require_player(seat)
    args = {}
    try:
        args = form_args(request.form)
        other = request.form.get("_same_as", "")
        if INT_RE.match(other) and not same_hit.still_counts(get_db(), g.table["id"], int(other)):
            raise RuleError(_("The other hit was taken back since: yours is the one that counts now."), "same-hit")
        with shielded(args):
            done = store.take_back(get_db(), code, args.get("targets"), ctx_for(g.table, seat),
                                   instead=args.get("instead"))
    except RuleError as exc:
        if request.htmx or request.form.get("_from") == "board":
            return _answer(code, seat, exc)
        first = str(args.get("targets", "")).split()[0] if str(args.get("targets", "")).split() else ""
        refused = {"seq": int(first) if INT_RE.match(first) else None, "message": exc.message,
                   "offer": exc.offer if isinstance(exc, Conflict) else None}
        g.table = store.table(get_db(), code)
        return _log_page(code, seat, status=status_of(exc), refused=refused)
    if request.htmx or request.form.get("_from") == "board":
        resp = _answer(code, seat, None, done["row"])
        if request.htmx and request.form.get("_control") == "same-hit":  # the question answered: it goes
            resp.set_data(resp.get_data() + render_template("_same_hit.html", ask=None).encode())
        return resp
    return redirect(url_for("play.log", code=code) + f"#e{done['seq']}", 303)


@bp.get("/t/<code>/report")
def battle_report(code: str):
    """The battle report: what happened, who rolled what, how lucky each seat was (built on from the
    totals kept for the undo chain, companion/report_cache.py)."""
    seat = seat_for(code)
    row = g.table
    viewer = hidden.viewer_side(seat)
    # The charts fold the actions in force (a sealed order's text must be there to replay it); what
    # the report shows of it is numbers only, and its timeline lists the newest redacted events
    # (the log page has the rest).
    built = report_cache.report_of(get_db(), row)
    shown = store.state_for(row, viewer)
    # (who sat down is the log's: the report tells the game, companion/roster.py)
    timeline = hidden.revealed_texts([e for e in store.log_page(get_db(), row["id"], viewer, None, REPORT_TIMELINE)[::-1]
                                      if e["type"] != roster.JOIN], shown["state"])
    return render_template("report.html", row=shown, seat=seat, report=built, events=timeline)


@bp.get("/t/<code>/export")
def export(code: str):
    """The table as a JSON document (system, content version, the event log; other sides' sealed
    parts boxed so only this server can re-import them, see companion/hidden.py)."""
    seat = seat_for(code)
    doc = replay.export_for(get_db(), code, hidden.viewer_side(seat), current_app.config["SECRET_KEY"])
    resp = Response(json.dumps(doc, indent=1), mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="companion-{code}.json"'
    return resp


@bp.post("/t/<code>/library")
def save_roster(code: str):
    """Save the units on the table as a named roster, to put on a table again next game."""
    seat = seat_for(code)
    require_player(seat)
    row = store.table(get_db(), code)
    name = " ".join(request.form.get("name", "").split())
    try:
        if not name or len(name) > 40:
            raise RuleError(_("Name the roster (1 to 40 characters)."), "roster")
        units = [{"name": u["name"], "side": u["side"], "template": u["template"], "stats": u["stats"]}
                 for u in (row["state"]["units"][i] for i in row["state"]["unit_order"]) if not u["removed"]]
        if not units:
            raise RuleError(_("There are no units on the table to save."), "roster")
        store.library_save(get_db(), row["system"], "roster", name, {"units": units}, owner=code,
                           host=is_host())
    except RuleError as exc:
        return _answer(code, seat, exc)
    return _answer(code, seat, None)


@bp.post("/t/<code>/library/<int:item>/add")
def load_roster(code: str, item: int):
    """Put every unit of a saved roster on the table (one event each, each undoable)."""
    seat = seat_for(code)
    require_player(seat)
    row = store.table(get_db(), code)
    try:
        saved = store.library_item(get_db(), item)
    except store.NotFound:
        return _answer(code, seat, RuleError(_("That roster is gone."), "roster"))
    if saved["system"] != row["system"]:
        return _answer(code, seat, RuleError(_("That roster is for another game."), "roster"))
    ctx = ctx_for(row, seat)
    try:
        for unit in saved["data"]["units"]:
            side = unit["side"] if unit["side"] in row["state"]["sides"] else None
            store.act(get_db(), code, {"type": "add-unit", "name": unit["name"], "side": side,
                                       "template": unit["template"], "stats": unit["stats"]}, ctx)
    except RuleError as exc:
        return _answer(code, seat, exc)
    return _answer(code, seat, None)
