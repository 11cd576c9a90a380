"""Broadsides (seed 002, Broadsides 1-7): range bands, to-hit, armour saves and the odds before rolling."""
from __future__ import annotations

import math

import icepool

from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import (
    FIRST_BROADSIDE_BONUS,
    MAX_RANGE,
    RAKING_BONUS,
    RANGE_BANDS,
    STAT_INPUT_LIMITS,
    _inches,
    _passes,
    _plural,
    lowest_success,
    spoken,
)
from companion.said import N_, Said, _
from companion.schema import whole_argument


def range_band(distance_inches) -> dict:
    """Seed 002, Broadsides step 4: the range band and D6 needed; a band includes its maximum."""
    if isinstance(distance_inches, bool) or not isinstance(distance_inches, (int, float)) \
            or math.isnan(distance_inches):
        raise RuleError(_("The range must be a distance in inches; got %(got)r.", got=distance_inches), "distance")
    if distance_inches < 0:
        raise RuleError(_("The range cannot be negative; got %(got)s.", got=distance_inches), "distance")
    for band, reach, needed in RANGE_BANDS:
        if distance_inches <= reach:
            return {"band": band, "distance": distance_inches, "max_inches": reach, "needed": needed,
                    "summary": Said("%(distance)s is %(band)s range: %(needed)s+ to hit",
                                    distance=_inches(distance_inches), band=band, needed=needed)}
    raise RuleError(_("%(distance)s is beyond the maximum range of %(most)s: no broadside.",
                      distance=_inches(distance_inches), most=_inches(MAX_RANGE)), "distance")


def broadside_dice(broadside: int, partial: bool = False) -> int:
    """Seed 002, Broadsides step 3: dice = Broadside, halved for a partial shot (Basics: round up)."""
    broadside = whole_argument(broadside, "broadside", 0, what=N_("Broadside"))
    return -(-broadside // 2) if partial else broadside


def to_hit_modifier(*, first_broadside: bool = False, raking: bool = False, modifier: int = 0,
                    target_is_auxiliary: bool = False) -> int:
    """Seed 002, Broadsides step 4: +1 first broadside, +1 raking fire, plus any card's modifier."""
    if raking and target_is_auxiliary:
        # Seed 002, Auxiliaries: "Warships cannot claim the raking bonus against them."
        raise RuleError(_("Warships cannot claim the raking bonus against an auxiliary."), "raking")
    modifier = whole_argument(modifier, "modifier", what=N_("The to-hit modifier"))
    return FIRST_BROADSIDE_BONUS * bool(first_broadside) + RAKING_BONUS * bool(raking) + modifier


def _shot(broadside, distance, armour, partial, raking, first_broadside, modifier,
          target_is_auxiliary) -> dict:
    band = range_band(distance)
    modifier = to_hit_modifier(first_broadside=first_broadside, raking=raking, modifier=modifier,
                               target_is_auxiliary=target_is_auxiliary)
    armour = whole_argument(armour, "armour", *STAT_INPUT_LIMITS["armour"], what=N_("Armour"))
    return {"broadside": broadside, "partial": bool(partial), "dice": broadside_dice(broadside, partial),
            "band": band["band"], "distance": distance, "needed": band["needed"], "modifier": modifier,
            "hits_on": lowest_success(band["needed"], modifier), "armour": armour}


def _at(shot: dict) -> str:
    said = {"dice": _plural(shot["dice"], "die"), "needed": shot["needed"]}
    if shot["modifier"]:
        return Said("%(dice)s at %(needed)s+ (%(modifier)s to hit)", modifier=f"{shot['modifier']:+d}", **said)
    return Said("%(dice)s at %(needed)s+", **said)


def broadside(broadside: int, distance, armour: int, *, partial: bool = False, raking: bool = False,
              first_broadside: bool = False, modifier: int = 0, target_is_auxiliary: bool = False,
              dice=None, save_dice=None, rng=None, firer: str = "", target: str = "") -> dict:
    """Seed 002, Broadsides steps 3-7: roll to hit; each hit saved on D6 >= Armour; unsaved hits draw Damage cards."""
    shot = _shot(broadside, distance, armour, partial, raking, first_broadside, modifier,
                 target_is_auxiliary)
    hit_dice = roll_or_take(shot["dice"], 6, dice, rng, N_("broadside dice"))
    hits = sum(_passes(die, shot["needed"], shot["modifier"]) for die in hit_dice)
    result = {**shot, "firer": firer, "target": target, "hit_dice": hit_dice, "hits": hits,
              "save_dice": None, "saved": None, "unsaved": None, "damage_cards": None, "awaiting": None}
    if hits and save_dice is None and rng is None:
        result["awaiting"] = {"field": "save_dice", "count": hits, "sides": 6,
                              "prompt": _("%(target)s: roll %(saves)s (D6 >= %(armour)s cancels a hit).",
                                          target=target or _("Target"), saves=spoken(_plural(hits, "armour save")),
                                          armour=shot["armour"])}
        result["summary"] = Said("%(firer)s fires %(at)s: %(hits)s -> roll armour saves", firer=firer or Said("Warship"),
                                 at=_at(shot), hits=_plural(hits, "hit"))
        return result
    saves = [] if hits == 0 and not save_dice else roll_or_take(hits, 6, save_dice, rng, N_("armour saves"),
                                                                 field="save_dice")
    saved = sum(1 for die in saves if die >= shot["armour"])  # seed 002, step 6: equals or exceeds
    unsaved = hits - saved
    result.update(save_dice=saves, saved=saved, unsaved=unsaved, damage_cards=unsaved,
                  summary=Said("%(firer)s fires %(at)s: %(hits)s, %(saved)s saved -> draw %(cards)s",
                               firer=firer or Said("Warship"), at=_at(shot), hits=_plural(hits, "hit"), saved=saved,
                               cards=_plural(unsaved, "Damage card")))
    return result


def broadside_odds(broadside: int, distance, armour: int, *, partial: bool = False,
                   raking: bool = False, first_broadside: bool = False, modifier: int = 0,
                   target_is_auxiliary: bool = False) -> dict:
    """Exact chances of 0, 1, 2 ... unsaved hits (Damage cards) before rolling, with icepool."""
    shot = _shot(broadside, distance, armour, partial, raking, first_broadside, modifier,
                 target_is_auxiliary)
    hit = icepool.d6.map(lambda n: int(_passes(n, shot["needed"], shot["modifier"])))
    fails_save = icepool.d6.map(lambda n: int(n < shot["armour"]))
    cards = shot["dice"] @ (hit * fails_save)
    distribution = [[k, float(cards.probability(k))] for k in range(shot["dice"] + 1)]
    mean = float(cards.mean())
    return {**shot, "distribution": distribution, "mean": mean,
            "p_hit": float(hit.probability(1)), "p_save": 1 - float(fails_save.probability(1)),
            "p_at_least_one": 1 - distribution[0][1],
            "summary": Said("%(at)s against Armour %(armour)s: expect %(mean)s Damage cards, %(chance)s chance of "
                            "at least one", at=_at(shot), armour=shot["armour"], mean=f"{mean:.2f}",
                            chance=f"{1 - distribution[0][1]:.0%}")}
