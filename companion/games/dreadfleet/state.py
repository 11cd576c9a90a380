"""Dreadfleet's books at the table: who has the initiative, which order cards are out of hand, which
warship is activated and how far into its a-d sub-phases it is, the wind gauge, and the units.

The procedures are in ``companion.games.dreadfleet.rules`` (seed 002).  Everything lives in
``state["game"]``; per-turn books in ``state["game"]["turn"]`` are started afresh when the turn
number changes.  The action types are in ``actions``, one module per topic: ``setup``, ``game_turn``
(initiative, Fate, activation), ``orders``, ``sailing``, ``broadsides``, ``damage``, ``boarding``,
``auxiliaries``; the phase reminders are ``phase``.
"""
from __future__ import annotations

from companion.actions import in_phase, phase_now
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.rules.basics import retold, spoken  # noqa: F401 (the actions' label helper)
from companion.said import N_, _

GAME = {"dreadfleet"}
STEPS = ("Orders", "Movement", "Broadsides", "Boarding Actions")  # seed 002, The Game Turn 4 a-d


# --- books ------------------------------------------------------------------------------------

def books(state: dict) -> dict:
    """The game's books, created on first use."""
    game = state["game"]
    for key, empty in (("docked", {}), ("parent", {}), ("orders", {}), ("owed", {}),
                       ("fired", []), ("scenario", {}), ("monsters", {}), ("aground", {})):
        game.setdefault(key, empty)
    game.setdefault("wind_placed", False)
    game.setdefault("adrift", 0)
    return game


def turn(state: dict) -> dict:
    """This turn's books (initiative, Fate draws, activations), fresh when a new turn starts."""
    game = books(state)
    now = game.get("turn")
    if not now or now.get("round") != state["round"]:
        now = game["turn"] = {
            "round": state["round"], "initiative": None, "first": None, "fate": [], "drawn": {},
            "respite": [], "current": None, "activated": [], "steps": {}, "ordered": {},
            "fired": [], "sail": {}, "moved": [], "anchor": {}, "duels": [], "boardings": [],
            "collected": [], "control": [], "escaped": {},
        }
    return now


def sides(state: dict) -> list[str]:
    return state["sides"][:2]


def opponent(state: dict, side: str) -> str:
    first, second = sides(state)
    return second if side == first else first


# --- units ------------------------------------------------------------------------------------

def unit_at_sea(state: dict, uid, field: str = "unit") -> dict:
    """A unit in play: on the table, not sunk, not docked inside a warship."""
    unit = state["units"].get(uid) if isinstance(uid, str) else None
    if unit is None:
        raise RuleError(_("Choose a ship at this table."), field)
    if unit["removed"]:
        raise RuleError(_("%(unit)s is no longer in play.", unit=unit["name"]), field)
    carrier = books(state)["docked"].get(uid)
    if carrier:
        raise RuleError(_("%(unit)s is docked with the %(carrier)s: deploy it first.", unit=unit["name"],
                          carrier=state["units"][carrier]["name"]), field)
    return unit


def is_warship(unit: dict) -> bool:
    return unit["template"] == "warship"


def is_auxiliary(unit: dict) -> bool:
    """Auxiliaries and sea monsters (seed 002, Sea Monsters: 'auxiliaries that enter play through Fate')."""
    return unit["template"] in ("auxiliary", "sea-monster")


def is_monster(unit: dict) -> bool:
    return unit["template"] == "sea-monster"


NO_CAPTAIN = {"issue orders": N_("%(unit)s has no captain, so it cannot issue orders."),
              "drop anchor": N_("%(unit)s has no captain, so it cannot drop anchor.")}


def need_captain(unit: dict, what: str) -> None:
    # seed 002, Auxiliaries: "they do not have captains and cannot issue orders or duel"
    if not is_warship(unit):
        if what in NO_CAPTAIN:
            raise RuleError(_(NO_CAPTAIN[what], unit=unit["name"]), "unit")
        raise RuleError(f"{unit['name']} has no captain, so it cannot {what}.", "unit")


def counter(unit: dict, tracker: str) -> int:
    found = unit["trackers"].get(tracker)
    return found["value"] if found and found.get("kind") == "counter" else 0


def now_stat(unit: dict, key: str) -> int:
    """A characteristic after its Damage cards (seed 002, Damage Cards), never below 0."""
    return max(0, int(unit["stats"].get(key, 0)) - counter(unit, f"{key}_damage"))


def wounds(unit: dict) -> int:
    gauge = unit["trackers"].get("wounds")
    return gauge["positions"][gauge["index"]] if gauge else 0


def first_mate(unit: dict) -> bool:
    """Seed 002, Duelling: a mortally wounded captain's first mate issues orders (Command 6+)."""
    return wounds(unit) >= df.MORTAL_WOUNDS


def status_on(unit: dict, name: str) -> bool:
    status = unit["trackers"].get("status")
    return bool(status and name in status.get("active", {}))


def set_status(unit: dict, name: str, on: bool) -> None:
    status = unit["trackers"].get("status")
    if status is None:
        return
    if on:
        status["active"].setdefault(name, {"count": None, "until": None})
    else:
        status["active"].pop(name, None)


def cards_on(state: dict, uid: str) -> list[tuple[str, str, dict]]:
    """Every card in a ship's Status and damage areas: (deck, card id, card)."""
    out = []
    for deck_id, deck in state["decks"].items():
        out += [(deck_id, cid, deck["cards"][cid]) for cid in deck["attached"].get(uid, [])]
    return out


def status_cards(state: dict, uid: str) -> list[dict]:
    """The ship's cards as the rules module sees them, At Anchor and Set Ablaze chips included."""
    unit = state["units"][uid]
    out = [card for _, _, card in cards_on(state, uid)]
    active = unit["trackers"].get("status", {}).get("active", {})
    for name in (df.AT_ANCHOR, df.SET_ABLAZE):
        if name in active:
            out += [{"name": name}] * (active[name].get("count") or 1)
    return out


def at_anchor(state: dict, uid: str) -> bool:
    """At Anchor, and not set ablaze by any card or chip (seed 002, Dropping Anchor: "If a warship at
    anchor is set ablaze, it is no longer at anchor").  The Status chip ends At Anchor itself (content's
    ``ends``); this also covers a Set Ablaze card moved on by the generic deck actions."""
    names = {str(card.get("name", "")).strip().casefold() for card in status_cards(state, uid)}
    return df.AT_ANCHOR.casefold() in names and df.SET_ABLAZE.casefold() not in names


def aground_since_before(state: dict, unit: dict) -> bool:
    """Run Aground from an earlier turn: it still touches the island or wreck (see sailing.moves_off).

    A grounding this turn happened while the ship moved, after any deployment (seed 002, Auxiliaries:
    "deploy its auxiliary before it moves"), so it does not count for that deployment.
    """
    return status_on(unit, df.RUN_AGROUND) and books(state)["aground"].get(unit["id"]) != state["round"]


# --- the wind ---------------------------------------------------------------------------------

def wind_gauge(state: dict) -> dict:
    gauge = state["trackers"].get("wind")
    if gauge is None:
        raise RuleError(_("This table has no wind gauge."), "wind")
    return gauge


def wind_position(state: dict) -> int:
    gauge = wind_gauge(state)
    return gauge["positions"][gauge["index"]]


def set_wind(state: dict, position: int) -> None:
    gauge = wind_gauge(state)
    gauge["index"] = gauge["positions"].index(position)


def fate_discard(state: dict) -> list[dict]:
    deck = state["decks"].get("fate")
    return [deck["cards"][cid] for cid in deck["discard"]] if deck else []


def wind_strength(state: dict) -> int:
    """Seed 002, Wind Strength: the top Fate discard's number; 1 when there is none."""
    return df.wind_strength(fate_discard(state))


def wind_shown(state: dict) -> int | str:
    """The wind strength as the board and the big screen show it: "?" while the top Fate discard
    carries no number (a card recorded with the deck's own "Record draw" has none; the rules that
    need the strength ask for it then, wind_strength)."""
    top = fate_discard(state)[-1:]
    if top and not isinstance(top[0].get("wind"), int):
        return "?"
    return wind_strength(state)


# --- activations ------------------------------------------------------------------------------

def in_play(state: dict) -> list[dict]:
    docked = books(state)["docked"]
    return [state["units"][uid] for uid in state["unit_order"]
            if not state["units"][uid]["removed"] and uid not in docked]


def acts_last(state: dict, unit: dict) -> bool:
    # seed 002, Sea Monsters: its own Action phase after all others, unless Count Noctilus controls it
    return is_monster(unit) and not status_on(unit, "Controlled by Count Noctilus")


def waiting(state: dict, side: str | None = None) -> list[dict]:
    """Ships not yet activated this turn (sea monsters that act last are not counted)."""
    return [u for u in in_play(state) if not u["activated"] and not acts_last(state, u)
            and (side is None or u["side"] == side)]


def side_to_go(state: dict, last: str | None) -> str | None:
    """Seed 002, Action: alternate; a player out of warships lets the other activate the rest."""
    now = turn(state)
    if last is None:
        order = [now["first"], opponent(state, now["first"])] if now["first"] else sides(state)
    else:
        order = [opponent(state, last), last]
    return next((side for side in order if waiting(state, side)), None)


def current(state: dict, uid: str, what: str) -> dict:
    """The unit, which must be the warship being activated now (Action phase); ``what``, the move in the
    game's words, is a message its caller marked N_."""
    in_phase(state, "Action", what)  # the one phase guard; here, as every action of an activation asks
    unit = unit_at_sea(state, uid)
    if turn(state)["current"] != uid:
        raise RuleError(_("%(what)s is part of a warship's activation: activate the %(unit)s first.", what=_(what),
                          unit=unit["name"]), "unit")
    return unit


def reach_step(state: dict, uid: str, step: int, what: str) -> None:
    """Orders, Movement, Broadsides, Boarding Actions come in this order (seed 002, Action a-d)."""
    steps = turn(state)["steps"]
    done = steps.get(uid, -1)
    if done > step:
        raise RuleError(_("%(what)s comes in the %(step)s sub-phase; the %(unit)s is already in %(done)s.", what=_(what),
                          step=STEPS[step], unit=state["units"][uid]["name"], done=STEPS[done]), "unit")
    steps[uid] = step


# --- the order cards (seed 002, Setup: a hand of 5; Order Cards) -------------------------------

def orders_out(state: dict, side: str) -> dict:
    """Order cards of a side that are out of its hand now: {order: unit id}.

    Fire As She Bears stays in play until resolved, its warship sinks or it gets a new order; the
    others are resolved in the warship's own activation and are back in hand once it is over.
    """
    out = {}
    now = turn(state)
    for order, held in books(state)["orders"].get(side, {}).items():
        unit = state["units"].get(held["unit"])
        if unit is None or unit["removed"]:
            continue
        if order == "Fire As She Bears" or (phase_now(state) == "Action" and held["round"] == state["round"]
                                            and now["current"] == held["unit"]):
            out[order] = held["unit"]
    return out


def hand(state: dict, side: str) -> list[str]:
    out = orders_out(state, side)
    return [order for order in df.ORDERS if order not in out]


def order_held(state: dict, uid: str, order: str) -> bool:
    unit = state["units"][uid]
    return orders_out(state, unit["side"]).get(order) == uid


def resolve_order(state: dict, uid: str, order: str) -> None:
    """Once resolved, an Order card goes back to its player's hand (seed 002, Order Cards)."""
    side = state["units"][uid]["side"]
    held = books(state)["orders"].get(side, {})
    if held.get(order, {}).get("unit") == uid:
        del held[order]
