"""Boarding actions and captains' duels (seed 002, Boarding Actions; Duelling and Wound Cards)."""
from __future__ import annotations

import icepool

from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import (
    FIRST_MATE_COMMAND,
    MORTAL_WOUNDS,
    STAT_INPUT_LIMITS,
    VICTORY_ON,
    WOUND_RESULTS,
    _plural,
    _roll_each,
    _victories,
)
from companion.schema import whole_argument


def _crews(side, field: str, label: str) -> list[dict]:
    ships = side if isinstance(side, (list, tuple)) else [side]
    if not ships:
        raise RuleError("Each side of a boarding action needs at least one warship.", field)
    out = []
    for i, ship in enumerate(ships):
        name = (ship.get("name") if isinstance(ship, dict) else None) or f"{label} ship {i + 1}"
        crew = ship.get("crew") if isinstance(ship, dict) else ship
        out.append({"name": name,
                    "crew": whole_argument(crew, "crew", *STAT_INPUT_LIMITS["crew"], what=f"{name}'s current Crew")})
    return out


def boarding_action(side_a, side_b, dice=None, rng=None, labels=("Side A", "Side B")) -> dict:
    """Seed 002, Boarding Actions: D6 per current Crew, 5-6 a victory; fewer victories draw the difference.

    A side is one warship or a list (a multiple boarding action: each warship rolls, the side's
    victories are summed and every warship of the losing side draws the result).  A warship is its
    current Crew or ``{"name", "crew"}``.  On a tie every warship involved draws one Damage card.
    """
    ships = {"side_a": _crews(side_a, "side_a", labels[0]), "side_b": _crews(side_b, "side_b", labels[1])}
    everyone = ships["side_a"] + ships["side_b"]
    for ship, rolled in zip(everyone, _roll_each([s["crew"] for s in everyone], dice, rng,
                                                 "boarding action dice"), strict=False):
        ship.update(dice=rolled, victories=_victories(rolled))
    totals = {key: sum(s["victories"] for s in group) for key, group in ships.items()}
    result = abs(totals["side_a"] - totals["side_b"])
    loser = None if result == 0 else min(totals, key=totals.get)
    for key, group in ships.items():
        for ship in group:
            ship["damage_cards"] = 1 if loser is None else (result if key == loser else 0)
    names = dict(zip(("side_a", "side_b"), labels, strict=False))
    score = f"{names['side_a']} {totals['side_a']}, {names['side_b']} {totals['side_b']} victories"
    if loser is None:
        outcome = "a tie: every warship involved draws 1 Damage card"
    else:
        drawers = " and ".join(s["name"] for s in ships[loser])
        outcome = f"{drawers} {'draws' if len(ships[loser]) == 1 else 'each draw'} " \
                  f"{_plural(result, 'Damage card')}"
    return {"side_a": ships["side_a"], "side_b": ships["side_b"], "victories": totals,
            "result": result, "loser": loser, "tie": loser is None,
            "summary": f"Boarding action: {score} -> {outcome}"}


def wound_result(wounds: int) -> dict:
    """Seed 002, Duelling and Wound Cards: the wound ladder, Flesh Wound first, mortal at 4."""
    wounds = whole_argument(wounds, "wounds", 0, MORTAL_WOUNDS, what="Wounds")
    mortal = wounds >= MORTAL_WOUNDS
    return {"wounds": wounds, "result": WOUND_RESULTS[wounds], "mortal": mortal,
            "can_duel": not mortal, "first_mate_commands": mortal,
            "command": FIRST_MATE_COMMAND if mortal else None}


def _captains(side, field: str, label: str) -> list[dict]:
    captains = side if isinstance(side, (list, tuple)) else [side]
    out = []
    for i, captain in enumerate(captains):
        if not isinstance(captain, dict):
            raise RuleError("A captain is {name, swashbuckling, wounds}.", field)
        name = captain.get("name") or f"{label} captain {i + 1}"
        out.append({"name": name,
                    "swashbuckling": whole_argument(captain.get("swashbuckling"), "swashbuckling",
                                                    *STAT_INPUT_LIMITS["swashbuckling"], what=f"{name}'s Swashbuckling"),
                    "wounds_before": whole_argument(captain.get("wounds", 0), "wounds", 0, MORTAL_WOUNDS,
                                                    what=f"{name}'s wounds")})
    return out


def captains_duel(side_a, side_b, dice=None, rng=None, labels=("Side A", "Side B")) -> dict:
    """Seed 002, Duelling: D6 per Swashbuckling, 5-6 a victory; the loser takes a wound, a tie wounds both.

    A side is one captain or a list (a multiple boarding action: victories summed, every captain of
    the losing side is wounded).  A captain is ``{"name", "swashbuckling", "wounds"}``.  Mortally
    wounded captains sit out; if a side has none left to fight, no duel is fought.
    """
    sides = {"side_a": _captains(side_a, "side_a", labels[0]), "side_b": _captains(side_b, "side_b", labels[1])}
    fighting = {key: [c for c in group if c["wounds_before"] < MORTAL_WOUNDS] for key, group in sides.items()}
    names = dict(zip(("side_a", "side_b"), labels, strict=False))
    for group in sides.values():
        for captain in group:
            captain.update(dice=[], victories=0, wounds=captain["wounds_before"],
                           fights=captain["wounds_before"] < MORTAL_WOUNDS)
    if not fighting["side_a"] or not fighting["side_b"]:
        idle = names["side_a"] if not fighting["side_a"] else names["side_b"]
        return {**sides, "fought": False, "victories": {"side_a": 0, "side_b": 0}, "loser": None,
                "tie": False, "summary": f"No duel: {idle} has no captain able to duel"}
    everyone = fighting["side_a"] + fighting["side_b"]
    for captain, rolled in zip(everyone, _roll_each([c["swashbuckling"] for c in everyone], dice, rng,
                                                    "Swashbuckling dice"), strict=False):
        captain.update(dice=rolled, victories=_victories(rolled))
    totals = {key: sum(c["victories"] for c in group) for key, group in fighting.items()}
    loser = None if totals["side_a"] == totals["side_b"] else min(totals, key=totals.get)
    wounded = [c for key, group in fighting.items() for c in group if loser in (None, key)]
    for captain in wounded:
        captain["wounds"] = min(MORTAL_WOUNDS, captain["wounds"] + 1)
    for group in sides.values():
        for captain in group:
            captain.update({k: v for k, v in wound_result(captain["wounds"]).items() if k != "wounds"})
    score = f"{names['side_a']} {totals['side_a']}, {names['side_b']} {totals['side_b']} victories"
    hurt = ", ".join(f"{c['name']} takes a wound ({c['result']})" for c in wounded)
    return {**sides, "fought": True, "victories": totals, "loser": loser, "tie": loser is None,
            "summary": f"Duel: {score}{' (tie)' if loser is None else ''} -> {hurt}"}


def contest_odds(dice_a: int, dice_b: int) -> dict:
    """Chances of a boarding action or duel: each side rolls its dice, 5-6 a victory."""
    dice_a = whole_argument(dice_a, "dice_a", 0, 200, what="Side A's dice")
    dice_b = whole_argument(dice_b, "dice_b", 0, 200, what="Side B's dice")
    victory = icepool.d6.map(lambda n: int(n >= VICTORY_ON))
    margin = (dice_a @ victory) - (dice_b @ victory)
    distribution = [[k, float(margin.probability(k))] for k in range(-dice_b, dice_a + 1)]
    a_wins = sum(p for k, p in distribution if k > 0)
    tie = sum(p for k, p in distribution if k == 0)
    return {"dice_a": dice_a, "dice_b": dice_b, "margin": distribution,
            "p_side_a_wins": a_wins, "p_tie": tie, "p_side_b_wins": 1 - a_wins - tie,
            "summary": f"{_plural(dice_a, 'die')} against {dice_b}: side A wins {a_wins:.0%}, "
                       f"tie {tie:.0%}, side B wins {1 - a_wins - tie:.0%}"}
