"""Where Talon keeps its books in the table state, and the checks every Talon action shares.

Each ship's counter is ``unit["talon"]`` (see counter.build); the table's own books are
``state["game"]``: who has the initiative, the Change/Defend Initiative markers of each impulse, the
table's rule numbers (reinforcement points, repair roll), the weapon tables in force (copied from the
content pack with the first ship, so corrections and replays stay with the table), missile tokens and
points players enter.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.talon.rules import chart
from companion.said import N_, _

DEFAULT_FIRST = "Talon"  # "Talon canonically starts with initiative" (PBF; TT#2 example), TALON.md 3
# why a ship left the fight, as ``ship["destroyed"]`` keeps it (stored English: fleet.lose, damage.mark_hull,
# criticals.resolve); ``lost_words`` says it in the reader's language
LOST_REASONS = (N_("overheats and breaks apart"), N_("retreats"), N_("destroyed"), N_("all hull boxes marked"),
                N_("FTL core breach"))


def lost_words(reason):
    """A ship's stored reason for leaving the fight in the asking phone's words (None: still fighting)."""
    return _(reason) if reason in LOST_REASONS else reason


def game(state: dict) -> dict:
    g = state.setdefault("game", {})
    if "initiative" not in g:
        sides = state.get("sides") or []
        g["initiative"] = DEFAULT_FIRST if DEFAULT_FIRST in sides else (sides[0] if sides else None)
    g.setdefault("bids", {})
    # reinforce: points a Shield Reinforcement absorbs: not in our sources (TALON.md 11.2): players enter it
    g.setdefault("rules", {"reinforce": None, "repair_on": 6})
    g.setdefault("missiles", [])
    g.setdefault("next_missile", 1)
    g.setdefault("points", [])
    return g


def other_side(state: dict, side: str) -> str | None:
    return next((s for s in state["sides"][:2] if s != side), None)


def now(state: dict) -> tuple[str | None, int | None, str | None]:
    """(impulse letter, 0 initiative player's turn / 1 other's, impulse key like '2C'); Nones in the Power Phase."""
    letter, half = chart.where(state["phases"][state["phase"]])
    return letter, half, (chart.impulse_key(state["round"], letter) if letter else None)


def turn_side(state: dict) -> str | None:
    """Whose player turn it is in this impulse (rulebook 3.1: initiative player first)."""
    letter, half, _key = now(state)
    if letter is None:
        return None
    first = game(state)["initiative"]
    return first if half == 0 else other_side(state, first)


def ship_of(state: dict, uid, field: str = "unit") -> tuple[dict, dict]:
    unit = state["units"].get(uid) if isinstance(uid, str) else None
    if unit is None or "talon" not in unit:
        raise RuleError(_("Choose a ship at this table."), field)
    if unit["removed"]:
        raise RuleError(_("%(unit)s is off the table.", unit=unit["name"]), field)
    return unit, unit["talon"]


def live_ship(state: dict, uid, field: str = "unit") -> tuple[dict, dict]:
    unit, ship = ship_of(state, uid, field)
    if ship["destroyed"]:
        raise RuleError(_("%(unit)s is destroyed (%(why)s).", unit=unit["name"], why=lost_words(ship["destroyed"])), field)
    return unit, ship


def need_impulse(state: dict, what: str) -> tuple[str, str]:
    """``what``: the move in the game's words, marked with N_ by the caller ("Firing")."""
    letter, _half, key = now(state)
    if letter is None:
        raise RuleError(_("%(what)s happens in an impulse (A-F), not in the Power Phase.", what=_(what)), "phase")
    return letter, key


def need_own_turn(state: dict, unit: dict, what: str) -> tuple[str, str]:
    """AP, movement, fire and repairs happen in the owning player's turn of the impulse (rulebook 3.2)."""
    letter, key = need_impulse(state, what)
    side = turn_side(state)
    if unit["side"] != side:
        raise RuleError(_("%(what)s: it is %(side)s's turn in impulse %(letter)s; %(unit)s acts in %(own)s's.",
                          what=_(what), side=side, letter=letter, unit=unit["name"], own=unit["side"]), "phase")
    return letter, key


def ships(state: dict):
    """(uid, unit, ship) for every Talon ship on the table, in table order."""
    for uid in state["unit_order"]:
        unit = state["units"][uid]
        if "talon" in unit and not unit["removed"]:
            yield uid, unit, unit["talon"]


def keep(*keys):
    """A decide step that stores only the action's own fields (a ship card's form sends all of its inputs)."""
    def decide(state: dict, args: dict, ctx) -> dict:
        return {k: args[k] for k in keys if k in args}
    return decide
