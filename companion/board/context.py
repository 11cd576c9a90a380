"""What the board's templates read: the table row as a seat's view sees it."""
from __future__ import annotations

from flask import current_app
from jinja2 import TemplateNotFound

from companion import hidden, roster, store
from companion.board import keep
from companion.db import get_db, systems
from companion.web import roster_of

NO_OUTCOME = {"deck-load", "deck-shuffle"}  # chance actions with nothing to read off (a new order)


def has_template(name: str) -> bool:
    """Whether a template exists (a game's optional tools or panel), wherever the templates live: looked
    up once per server process, unless templates reload (development), as a board asks four times."""
    env = current_app.jinja_env
    if not env.auto_reload:
        known = env.__dict__.get("companion_template_names")
        if known is None:
            known = env.companion_template_names = frozenset(env.list_templates())
        return name in known
    try:
        current_app.jinja_env.get_template(name)
    except TemplateNotFound:
        return False
    return True


def board_context(code: str, seat: dict, errors=None, flash=None, row=None) -> dict:
    """What the board templates need; ``row`` when the caller has just read it (and nothing changed)."""
    db = get_db()
    # Everything the board shows passes through hidden.for_viewer: another side's sealed orders
    # are there only as "sealed", never as text (the poll and the tools reuse this context).
    viewer = hidden.viewer_side(seat)
    row = store.state_for(row or store.table(db, code), viewer)
    system = systems()[row["system"]]
    # read once per process and seq for every view drawn of it (on PostgreSQL each read is a round
    # trip): the log and the roster at a seq never change (a take-back is a later seq), and the
    # viewer's filter is Python's
    log = keep.once_at("log", row["id"], row["seq"], lambda: store.board_log(db, row["id"], None, row=row))
    log = {**log, "rolls": hidden.for_viewer(log["rolls"], viewer)}
    seated = keep.once_at("roster", row["id"], row["seq"], lambda: store.seated(db, code, row))
    return {"row": row, "state": row["state"], "seat": seat, "system": system,
            # who sits where, as the log says at this seq (companion/roster.py): a join moves the seq
            "roster": seated,
            "has_game_tools": has_template(f"games/{system.slug}/_tools.html"),
            # compact unit rows: boards of core trackers, and games that say what their row shows
            # (games/<slug>/_row.html); a game with only its own _unit.html keeps full cards
            "has_row": has_template(f"games/{system.slug}/_row.html"),
            "unit_rows": has_template(f"games/{system.slug}/_row.html")
            or not has_template(f"games/{system.slug}/_unit.html"),
            "readonly": seat["role"] == "spectator" or row["finished"],
            "history": {k: log[k] for k in ("undo", "redo", "undo_seq", "redo_seq", "undo_said", "redo_said")},
            "rolls": log["rolls"],
            "result": newest_result(row, log["rolls"]),
            "unit_result": unit_results(row, log["rolls"], log["undo"]),
            "lineup": lineup(row["state"]), "roster_print": roster_of(row["state"], seated),
            # each side as the side selects below the board name it ("Side B (Ben)"): kept in step by static/js
            "side_labels": {side: roster.called(seated, side) for side in row["state"]["sides"]},
            "errors": errors or {}, "flash": flash, "poll_seconds": current_app.config["POLL_SECONDS"]}


def lineup(state: dict) -> list[dict]:
    """The units in the board's order as its lists show them (id, name, side, taken off): the parts that
    list units read this rather than every unit's numbers, so a hit taken redraws that unit's part and
    not every side's heading (board/reads.py)."""
    units = state["units"]
    return [{"id": uid, "name": units[uid]["name"], "side": units[uid]["side"], "removed": bool(units[uid].get("removed"))}
            for uid in state["unit_order"]]


def newest_result(row: dict, rolls: list[dict]) -> dict | None:
    """The newest action's outcome for the result sheet: only while it is the last thing done."""
    if rolls and rolls[0]["seq"] == row["seq"] and not rolls[0]["withdrawn"] and rolls[0]["type"] not in NO_OUTCOME:
        return rolls[0]
    return None


def unit_results(row: dict, rolls: list[dict], undo: str | None) -> dict:
    """What each unit's card says of the last thing done, where a game shows it on the card (Talon,
    issue 10): the newest roll while it is the last thing done and names the unit (``("roll", label,
    dice)``), else what Undo would take back if it names the unit (``("undo", text)``).  Read key by
    key (board/draw.py watches it), so a roll redraws the cards it names, not every card (issue 38:
    every Talon card read the newest roll, the seq and the Undo label, and was drawn at every change)."""
    last = rolls[0] if rolls else None
    now = last is not None and last["seq"] == row["seq"]
    out: dict = {}
    if now and not last.get("withdrawn"):
        payload = last.get("payload") or {}
        dice = payload.get("dice")  # the dice rolled; a game's own "dice" may be a count (Tiny Duel's salvo)
        dice = tuple(dice) if isinstance(dice, list) else ()
        for uid in (payload.get("unit"), payload.get("target")):
            if isinstance(uid, str) and uid in row["state"]["units"] and uid not in out:
                out[uid] = ("roll", last.get("label"), dice)
    if undo and not now:
        for uid, unit in row["state"]["units"].items():
            if (": " + unit["name"] + " ") in undo:
                out.setdefault(uid, ("undo", undo.split(": ", 1)[1]))
    return out
