"""Elimination (seed 000, Victory & Defeat: Elimination; Multiplayer, Player Elimination): who is out,
what still resolves, and the wreck left behind.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadnaught.rules.initiative import _initiative, initiative_label
from companion.games.dreadnaught.rules.numbers import (
    GRACE_TENTHS,
    WRECK_DEBRIS_DAMAGE,
    WRECK_DERELICT_BURN,
    X_TENTHS,
    sentence,
)
from companion.said import N_, Said, _
from companion.schema import whole_argument

# the three ways out, as the log and the board say them (the state keeps the key: destroyed, disabled, denied)
REASON_WORDS = {"destroyed": N_("destroyed"), "disabled": N_("disabled"), "denied": N_("denied")}

# --- Elimination ----------------------------------------------------------------------------

def eliminated(ship: dict) -> dict:
    """The three ways out: HP 0 or less, no cards in hand and Draw Deck, Pushed off through a Danger Zone."""
    if not isinstance(ship, dict):
        raise RuleError(_("Give the ship's HP, hand and deck."), "ship")
    reasons = []
    hp, hand, deck = ship.get("hp"), ship.get("hand"), ship.get("deck")
    if hp is not None and whole_argument(hp, "hp", -999, what=N_("HP")) <= 0:
        reasons.append("destroyed")          # seed 000, Elimination: "reduced to 0 or less HP"
    if hand is not None and deck is not None:
        if (whole_argument(hand, "hand", 0, what=N_("Cards in hand")) == 0
                and whole_argument(deck, "deck", 0, what=N_("Cards in the Draw Deck")) == 0):
            reasons.append("disabled")       # "reduced 0 cards in both their hand and Draw Deck"
    if ship.get("pushed_off_danger_zone"):
        reasons.append("denied")             # "Pushed off the map through a Danger Zone"
    words = {"destroyed": "HP 0 or less", "disabled": "no cards in hand or Draw Deck",
             "denied": "Pushed off the map through a Danger Zone"}
    name = ship.get("name", "The ship")
    text = f"{name} is Eliminated: " + "; ".join(words[r] for r in reasons) if reasons else f"{name} fights on"
    return {"eliminated": bool(reasons), "reasons": reasons, "summary": text + "."}


def grace_window(elimination_initiative, step_initiative) -> dict:
    """Does a step still resolve after an Elimination?  Within 1.0 initiative steps: yes."""
    elim = _initiative(elimination_initiative, "elimination_initiative")
    step = _initiative(step_initiative, "step_initiative")
    e, s = initiative_label(elim), initiative_label(step)
    if step >= elim:
        return {"resolves": True, "summary": f"Initiative {s} is not after the Elimination at {e}: it resolves."}
    if elim == X_TENTHS:
        return {"resolves": None, "players_decide": True,
                "summary": f"Eliminated at initiative X: the seed gives X no number, so the players decide "
                           f"whether {s} is within 1.0 steps."}
    gap = elim - step
    ok = gap <= GRACE_TENTHS
    last = initiative_label(max(0, elim - GRACE_TENTHS))
    text = (f"Initiative {s} is within 1.0 of the Elimination at {e}: it still resolves (Event Cards may "
            f"be played)" if ok else f"Initiative {s} is beyond the window (down to {last}): ignored")
    return {"resolves": ok, "window_ends": last, "summary": text + "."}


def wreck_terrain(damage_this_turn: int = 0, burn_this_turn: int = 0, cause: str | None = None) -> dict:
    """Terrain left by an Eliminated ship in a multiplayer game, from how and how hard it went."""
    whole_argument(damage_this_turn, "damage_this_turn", 0, what=N_("Damage suffered this turn"))
    whole_argument(burn_this_turn, "burn_this_turn", 0, what=N_("Card Burn suffered this turn"))
    if cause == "damage":
        terrain = "Debris" if damage_this_turn >= WRECK_DEBRIS_DAMAGE else "Wreckage"
        why = Said("%(n)s Damage this turn (%(debris)s+ makes Debris)", n=damage_this_turn, debris=WRECK_DEBRIS_DAMAGE)
    elif cause == "card_burn":
        terrain = "Derelict Hull" if burn_this_turn >= WRECK_DERELICT_BURN else "Drifting Hulk"
        why = Said("%(n)s Card Burn this turn (%(derelict)s+ makes a Derelict Hull)", n=burn_this_turn,
                   derelict=WRECK_DERELICT_BURN)
    elif cause == "push":
        terrain, why = None, Said("Pushed off the map")
    else:
        raise RuleError(_("Say how the ship was Eliminated: damage, card_burn or push."), "cause")
    text = (Said("Replace the ship with %(terrain)s: %(why)s", terrain=terrain, why=why) if terrain
            else Said("No terrain: %(why)s", why=why))
    return {"terrain": terrain, "cause": cause, "summary": sentence(text)}
