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
    _and,
    _plural,
    _roll_each,
    _victories,
)
from companion.said import N_, Said, _, joined
from companion.schema import whole_argument


def _crews(side, field: str, label: str) -> list[dict]:
    ships = side if isinstance(side, (list, tuple)) else [side]
    if not ships:
        raise RuleError(_("Each side of a boarding action needs at least one warship."), field)
    out = []
    for i, ship in enumerate(ships):
        name = (ship.get("name") if isinstance(ship, dict) else None) or Said("%(side)s ship %(n)s", side=label, n=i + 1)
        crew = ship.get("crew") if isinstance(ship, dict) else ship
        out.append({"name": name,
                    "crew": whole_argument(crew, "crew", *STAT_INPUT_LIMITS["crew"],
                                           what=_("%(ship)s's current Crew", ship=name))})
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
                                                 N_("boarding action dice")), strict=False):
        ship.update(dice=rolled, victories=_victories(rolled))
    totals = {key: sum(s["victories"] for s in group) for key, group in ships.items()}
    result = abs(totals["side_a"] - totals["side_b"])
    loser = None if result == 0 else min(totals, key=totals.get)
    for key, group in ships.items():
        for ship in group:
            ship["damage_cards"] = 1 if loser is None else (result if key == loser else 0)
    out = {"side_a": ships["side_a"], "side_b": ships["side_b"], "victories": totals,
           "result": result, "loser": loser, "tie": loser is None}
    return {**out, "summary": boarding_summary(out, labels)}


def _score(totals: dict, labels) -> str:
    return Said("%(a)s %(a_n)s, %(b)s %(b_n)s victories", a=labels[0], a_n=totals["side_a"], b=labels[1],
                b_n=totals["side_b"])


def boarding_summary(result: dict, labels) -> str:
    """A boarding action's line for the log, from its result (or the stored payload)."""
    score = _score(result["victories"], labels)
    loser = result["loser"]
    if loser is None:
        outcome = Said("a tie: every warship involved draws 1 Damage card")
    elif len(result[loser]) == 1:
        outcome = Said("%(ship)s draws %(cards)s", ship=result[loser][0]["name"],
                       cards=_plural(result["result"], "Damage card"))
    else:
        outcome = Said("%(ships)s each draw %(cards)s", ships=_and(s["name"] for s in result[loser]),
                       cards=_plural(result["result"], "Damage card"))
    return Said("Boarding action: %(score)s -> %(outcome)s", score=score, outcome=outcome)


def wound_result(wounds: int) -> dict:
    """Seed 002, Duelling and Wound Cards: the wound ladder, Flesh Wound first, mortal at 4."""
    wounds = whole_argument(wounds, "wounds", 0, MORTAL_WOUNDS, what=N_("Wounds"))
    mortal = wounds >= MORTAL_WOUNDS
    return {"wounds": wounds, "result": WOUND_RESULTS[wounds], "mortal": mortal,
            "can_duel": not mortal, "first_mate_commands": mortal,
            "command": FIRST_MATE_COMMAND if mortal else None}


def _captains(side, field: str, label: str) -> list[dict]:
    captains = side if isinstance(side, (list, tuple)) else [side]
    out = []
    for i, captain in enumerate(captains):
        if not isinstance(captain, dict):
            raise RuleError(_("A captain is {name, swashbuckling, wounds}."), field)
        name = captain.get("name") or Said("%(side)s captain %(n)s", side=label, n=i + 1)
        out.append({"name": name,
                    "swashbuckling": whole_argument(captain.get("swashbuckling"), "swashbuckling",
                                                    *STAT_INPUT_LIMITS["swashbuckling"],
                                                    what=_("%(captain)s's Swashbuckling", captain=name)),
                    "wounds_before": whole_argument(captain.get("wounds", 0), "wounds", 0, MORTAL_WOUNDS,
                                                    what=_("%(captain)s's wounds", captain=name))})
    return out


def captains_duel(side_a, side_b, dice=None, rng=None, labels=("Side A", "Side B")) -> dict:
    """Seed 002, Duelling: D6 per Swashbuckling, 5-6 a victory; the loser takes a wound, a tie wounds both.

    A side is one captain or a list (a multiple boarding action: victories summed, every captain of
    the losing side is wounded).  A captain is ``{"name", "swashbuckling", "wounds"}``.  Mortally
    wounded captains sit out; if a side has none left to fight, no duel is fought.
    """
    sides = {"side_a": _captains(side_a, "side_a", labels[0]), "side_b": _captains(side_b, "side_b", labels[1])}
    fighting = {key: [c for c in group if c["wounds_before"] < MORTAL_WOUNDS] for key, group in sides.items()}
    for group in sides.values():
        for captain in group:
            captain.update(dice=[], victories=0, wounds=captain["wounds_before"],
                           fights=captain["wounds_before"] < MORTAL_WOUNDS)
    if not fighting["side_a"] or not fighting["side_b"]:
        out = {**sides, "fought": False, "victories": {"side_a": 0, "side_b": 0}, "loser": None, "tie": False}
        return {**out, "summary": duel_summary(out, labels)}
    everyone = fighting["side_a"] + fighting["side_b"]
    for captain, rolled in zip(everyone, _roll_each([c["swashbuckling"] for c in everyone], dice, rng,
                                                    N_("Swashbuckling dice")), strict=False):
        captain.update(dice=rolled, victories=_victories(rolled))
    totals = {key: sum(c["victories"] for c in group) for key, group in fighting.items()}
    loser = None if totals["side_a"] == totals["side_b"] else min(totals, key=totals.get)
    wounded = [c for key, group in fighting.items() for c in group if loser in (None, key)]
    for captain in wounded:
        captain["wounds"] = min(MORTAL_WOUNDS, captain["wounds"] + 1)
    for group in sides.values():
        for captain in group:
            captain.update({k: v for k, v in wound_result(captain["wounds"]).items() if k != "wounds"})
    out = {**sides, "fought": True, "victories": totals, "loser": loser, "tie": loser is None}
    return {**out, "summary": duel_summary(out, labels)}


def duel_summary(result: dict, labels) -> str:
    """A duel's line for the log, from captains_duel's result (or the stored payload)."""
    if not result["fought"]:
        fought = {key: any(c["wounds_before"] < MORTAL_WOUNDS for c in result[key]) for key in ("side_a", "side_b")}
        idle = labels[0] if not fought["side_a"] else labels[1]
        return Said("No duel: %(side)s has no captain able to duel", side=idle)
    loser = result["loser"]
    wounded = [c for key in ("side_a", "side_b") for c in result[key]
               if c["wounds_before"] < MORTAL_WOUNDS and loser in (None, key)]
    hurt = joined(", ", [Said("%(captain)s takes a wound (%(result)s)", captain=c["name"],
                              result=Said(c["result"]) if c["result"] in WOUND_RESULTS else c["result"])
                         for c in wounded])
    score = _score(result["victories"], labels)
    if loser is None:
        return Said("Duel: %(score)s (tie) -> %(hurt)s", score=score, hurt=hurt)
    return Said("Duel: %(score)s -> %(hurt)s", score=score, hurt=hurt)


def contest_odds(dice_a: int, dice_b: int) -> dict:
    """Chances of a boarding action or duel: each side rolls its dice, 5-6 a victory."""
    dice_a = whole_argument(dice_a, "dice_a", 0, 200, what=N_("Side A's dice"))
    dice_b = whole_argument(dice_b, "dice_b", 0, 200, what=N_("Side B's dice"))
    victory = icepool.d6.map(lambda n: int(n >= VICTORY_ON))
    margin = (dice_a @ victory) - (dice_b @ victory)
    distribution = [[k, float(margin.probability(k))] for k in range(-dice_b, dice_a + 1)]
    a_wins = sum(p for k, p in distribution if k > 0)
    tie = sum(p for k, p in distribution if k == 0)
    return {"dice_a": dice_a, "dice_b": dice_b, "margin": distribution,
            "p_side_a_wins": a_wins, "p_tie": tie, "p_side_b_wins": 1 - a_wins - tie,
            "summary": Said("%(dice)s against %(other)s: side A wins %(a_wins)s, tie %(tie)s, side B wins %(b_wins)s",
                            dice=_plural(dice_a, "die"), other=dice_b, a_wins=f"{a_wins:.0%}", tie=f"{tie:.0%}",
                            b_wins=f"{1 - a_wins - tie:.0%}")}
