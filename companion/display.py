"""The table on a big screen (issue 26): a TV, a tablet on a stand, or a stream overlay.

``/t/<code>/display`` shows what a spectator may see, whoever opens it (a host's phone cast to the
TV must not show its own side's sealed orders to the room), laid out for a landscape screen read
from 3 m: every side's units side by side with their level trackers, round / phase / whose turn in
the largest type, the game's gauges (``templates/games/<slug>/_display.html``; a game without one
gets the table's trackers), the decks' counts, the last roll with its odds, and a ticker of the
last few events.  Each part also has its own URL for a streamer to place (``/display/turn``,
``/display/last-roll``, ``/display/side/<side>``); ``?overlay=1`` draws on a transparent background
and ``?theme=`` picks one of THEMES.  static/display.js keeps it live from the event feed
(companion/feed.py) and asks for the fresh page body on each event (header X-Display-Body).
"""
from __future__ import annotations

import os

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, request, url_for

from companion import feed, games, hidden, report, store
from companion.board import has_template
from companion.db import get_db, systems
from companion.lobby import _role
from companion.said import _
from companion.web import remember_seat, seat_for, seats

bp = Blueprint("display", __name__)

DISPLAY_SEAT = "Display"  # the name a screen that joined by the Display QR goes by
# what the display shows: a spectator's view, whoever opens it (also the seat a game's _row.html sees)
SPECTATOR = {"name": DISPLAY_SEAT, "side": None, "role": "spectator"}
THEMES = {"night": "dark, for a TV in a dim room", "day": "light, for a bright room",
          "broadcast": "white on dark plates with outlined type, for an overlay on a camera picture"}
TICKER = 5  # events in the ticker, at most: display.js shows as many of them as the screen holds
ROLLS = 3  # rolls in the roll panel: the newest in force large, the others small under it
SINCE = 60  # events read to know whether a roll was applied since (a roll further back says so in the log)
FRESH_SECONDS = 6  # how long a new roll stays large before it shrinks into the ticker (display.js)


class BadOption(ValueError):
    """A display address with an option it does not have: the sentence says what it takes."""


def options() -> dict:
    """``?overlay=`` and ``?theme=``, checked: a wrong one is refused with what is allowed."""
    overlay = request.args.get("overlay", "0")
    theme = request.args.get("theme", "night")
    if overlay not in ("0", "1"):
        raise BadOption(_("overlay is 1 (a transparent background, for a stream) or 0."))
    if theme not in THEMES:
        raise BadOption(_("theme is one of %(themes)s.", themes=", ".join(THEMES)))
    return {"overlay": overlay == "1", "theme": theme}


def reading(t: dict, state: dict) -> str:
    """A tracker as a few words (the display has no buttons): "7/10", "Fore 3/4", "ready" (in the
    screen's language)."""
    kind = t.get("kind")
    if kind == "counter":
        return f"{t['value']}/{t['max']}" if feed.bounded(t) else str(t["value"])
    if kind == "boxes":
        return f"{t['marked'].count(False)}/{len(t['marked'])}"
    if kind == "arcs":
        return " · ".join(f"{a['name']} {a['marked'].count(False)}/{len(a['marked'])}" for a in t["arcs"])
    if kind == "charge":
        return _("ready") if all(t["red"]) and all(t["yellow"]) else _("charging")
    if kind == "cooldown":
        now = state["tick"] if t["per"] == "phase" else state["round"]
        return _("ready") if t["ready_at"] is None or now >= t["ready_at"] else _("cooling down")
    if kind == "conditions":
        return ", ".join(t["active"]) or _("none")
    if kind == "gauge":
        return str(t["positions"][t["index"]])
    return ""


def unit_view(unit: dict, levels: dict, state: dict) -> dict:
    """One unit's line as the core draws it (a game with its own phone row, _row.html, draws that
    instead): its main tracker large with a bar (report.main_tracker: the first counter or box
    track), its other trackers in words, its sealed parts."""
    sealed = [p for p in (state.get(hidden.KEY) or {}).values()
              if p.get("unit") == unit["id"] and (not p.get("discarded") or p.get("round") == state["round"])]
    main = report.main_tracker(unit)
    level = {tid: t for tid, t in levels.get(unit["id"], {}).get("trackers", {}).items() if tid == main}
    return {"id": unit["id"], "name": unit["name"], "levels": level,
            "others": [(t.get("label", tid), reading(t, state)) for tid, t in unit.get("trackers", {}).items()
                       if tid not in level and reading(t, state)],
            "sealed": sealed}


def screen_joined(event: dict) -> bool:
    """A display's own join (the Display QR): written to the log by the seat's code, not a move."""
    p = event.get("payload") or {}
    return event.get("type") == "join" and p.get("name") == DISPLAY_SEAT and p.get("role") == "spectator"


def _without_pending(said, pending: str):
    """A kept message (companion/said.py) without the game's pending words: "%(attack)s (not yet
    applied)" is its attack; any other shape reads in the English label instead (None)."""
    if isinstance(said, dict) and len(said.get("a", {})) == 1:
        (name, inner), = said["a"].items()
        if said.get("m") == f"%({name})s{pending}":
            return inner
    return None


def roll_views(rolls: list[dict], since: list[dict], game) -> list[dict]:
    """The last few rolls as the TV says them (issue 40 §6): each with its dice, its odds, the game's
    word for it (a payload's ``luck.call``: "MISS", "GLANCE", "HIT"), whether it was taken back, and,
    for a roll the game applies with a later move (``Game.applied_by``), whether that move came."""
    applies = dict(game.applied_by) if game else {}
    views = []
    for r in rolls:
        luck = (r.get("payload") or {}).get("luck")
        call = luck.get("call") if isinstance(luck, dict) and isinstance(luck.get("call"), str) else None
        label, said, applied = r["label"], r.get("said"), None
        if r["type"] in applies:
            later = [e for e in since if e["seq"] > r["seq"] and not e["withdrawn"] and not e.get("taken_back")]
            nxt = next((e for e in reversed(later) if e["type"] in (applies[r["type"]], r["type"])), None)
            applied = bool(nxt and nxt["type"] == applies[r["type"]])
            if game.pending_words and label.endswith(game.pending_words):
                label, said = label[:-len(game.pending_words)], _without_pending(said, game.pending_words)
        views.append({**r, "label": label, "said": said, "call": call.upper() if call else None, "applied": applied,
                      "withdrawn": bool(r["withdrawn"] or r.get("taken_back")),
                      "dice": feed.dice_of(r["payload"]), "odds": feed.odds_of(r)})
    return views


def display_context(row: dict) -> dict:
    """What every display part draws from, as a spectator may see it."""
    db = get_db()
    viewer = hidden.viewer_side(SPECTATOR)
    row = store.state_for(row, viewer)
    state = row["state"]
    levels = feed.main_trackers(state)
    sides = [{"name": side, "index": i,
              "units": [unit_view(state["units"][uid], levels, state) for uid in levels
                        if state["units"][uid].get("side") == side]}
             for i, side in enumerate(state["sides"])]
    # the ticker: a screen joining (this one, or another) is not a move of the game (issue 40 §6)
    recent = [e for e in store.log_page(db, row["id"], viewer, before=row["seq"] + 1, size=TICKER + 10)
              if not screen_joined(e)][:TICKER]
    system = systems()[row["system"]]
    rolls = roll_views(store.board_log(db, row["id"], viewer, rolls=ROLLS, row=row)["rolls"],
                       store.log_page(db, row["id"], viewer, before=row["seq"] + 1, size=SINCE), games.declared(system.slug))
    last = next((r for r in rolls if not r["withdrawn"]), None)
    return {"row": row, "state": state, "system": system, "seat": SPECTATOR, "sides": sides, "recent": recent,
            "roster": store.seated(db, row["code"], row),  # who sits on each side, named as the board does
            "rolls": rolls, "last": last, "last_dice": last["dice"] if last else None,
            "last_odds": last["odds"] if last else None, "reading": reading,
            "game_display": has_template(f"games/{system.slug}/_display.html"),
            "has_row": has_template(f"games/{system.slug}/_row.html"),
            "game_css": has_static(f"games/{system.slug}.css"),
            "fresh_seconds": FRESH_SECONDS, "themes": THEMES}


def has_static(name: str) -> bool:
    folder = current_app.static_folder
    return bool(folder) and os.path.isfile(os.path.join(folder, name))


def _page(code: str, part: str, side: str | None = None):
    seat_for(code)  # a seat at this table (cookie) or its secret: otherwise 404
    try:
        opts = options()
    except BadOption as exc:
        return make_response(render_template("error.html", status=400, message=str(exc)), 400)
    context = display_context(g.table)
    if side is not None and side not in context["state"]["sides"]:
        abort(404, _("This table has no side called %(side)s.", side=side))
    body = request.headers.get("X-Display-Body") == "1"  # display.js asks for the body alone
    html = render_template("_display_body.html" if body else "display.html", part=part, side=side, **opts, **context)
    resp = make_response(html)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Vary"] = "Cookie, X-Display-Body, Accept-Encoding"
    return resp


@bp.get("/t/<code>/display")
def whole(code: str):
    """Everything at once: for a TV or a tablet on a stand."""
    return _page(code, "all")


@bp.get("/t/<code>/display/turn")
def turn(code: str):
    return _page(code, "turn")


@bp.get("/t/<code>/display/last-roll")
def last_roll(code: str):
    return _page(code, "last-roll")


@bp.get("/t/<code>/display/side/<side>")
def side(code: str, side: str):
    return _page(code, "side", side)


@bp.get("/t/<code>/display/join/<secret>")
def join(code: str, secret: str):
    """The lobby's Display QR: the screen joins as a spectator without a question (nobody types on
    a TV) and lands on the display.  A device that already has a seat here keeps it."""
    try:
        row = store.table(get_db(), code)
    except store.NotFound:
        abort(404)
    _role(row, secret)  # the table's player or spectator secret (either joins a screen as a spectator), or 404
    if code not in seats():  # a screen's own spectator seat (issue 37), which writes no line in the log
        remember_seat(code, store.screen_seat(get_db(), code, DISPLAY_SEAT))
    keep = {k: request.args[k] for k in ("overlay", "theme") if k in request.args}
    return redirect(url_for("display.whole", code=code, **keep), 303)
