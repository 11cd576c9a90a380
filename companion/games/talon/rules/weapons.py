"""Weapon tables, charge bars and firing odds.  Pure (icepool for the odds).

Tables: content/talon/data/weapons.toml (TALON.md section 4, FAN artifact/Weapon.js): for each weapon and
range, the damage for a D6 roll of 1..6; one die per weapon per target.  A group fires only when all of its
red and yellow boxes are filled and both reset after firing (FAN WeaponFunction.fireWeapon; BGG weapons
thread).  Missiles are launched as tokens (Speed 6, 2 damage each on arrival, TALON.md 4; TT#24).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import icepool

from companion.errors import RuleError
from companion.said import N_, _, joined

# what a weapon table row does at a range ("2 on 5-6"), said per render on the ship card (``_``) or kept
# in a label (``Said``): hit_numbers' ``say``
HITS_ON = N_("%(damage)s on %(rolls)s")
NO_DAMAGE = N_("no damage")


def load(raw: dict) -> dict:
    """weapons.toml -> {weapon: {"name", "damage": {range: [6 damages]}}} with int ranges as strings."""
    tables = {}
    for key, spec in raw["weapon"].items():
        entry = {"name": spec["name"], "side": spec["side"]}
        if "damage" in spec:
            entry["damage"] = {str(r): list(v) for r, v in spec["damage"].items()}
            for values in entry["damage"].values():
                if len(values) != 6:
                    raise ValueError(f"{key}: six damages per range (rolls 1-6)")
        else:
            entry.update(launch=list(spec["launch"]), speed=spec["speed"], arrival_damage=spec["arrival_damage"])
        tables[key] = entry
    return tables


def ranges(tables: dict, weapon: str) -> list[int]:
    entry = tables[weapon]
    return sorted(int(r) for r in entry["damage"]) if "damage" in entry else list(entry["launch"])


def check_range(tables: dict, weapon: str, distance: int) -> None:
    allowed = ranges(tables, weapon)
    if distance not in allowed:
        raise RuleError(_("A %(weapon)s fires at range %(lo)s-%(hi)s; the target is %(distance)s hexes away.",
                          weapon=tables[weapon]["name"], lo=allowed[0], hi=allowed[-1], distance=distance), "range")


def damage(tables: dict, weapon: str, distance: int, roll: int) -> int:
    """The weapon table's damage for one die at this range."""
    check_range(tables, weapon, distance)
    if not 1 <= roll <= 6:
        raise RuleError(_("Each die is 1 to 6."), "dice")
    return tables[weapon]["damage"][str(distance)][roll - 1]


def hit_numbers(tables: dict, weapon: str, distance: int, say=_) -> str:
    """"2 on 5-6" / "1 on 1, 2 on 2-6": what the table says at this range, for the fire form.  ``say``:
    ``_`` (the asking phone's words, the default: the card is drawn per render) or ``Said`` (a label)."""
    values = tables[weapon]["damage"][str(distance)]
    parts, start = [], 1
    for roll in range(2, 8):
        if roll == 7 or values[roll - 1] != values[start - 1]:
            if values[start - 1]:
                span = f"{start}" if start == roll - 1 else f"{start}-{roll - 1}"
                parts.append(say(HITS_ON, damage=values[start - 1], rolls=span))
            start = roll
    return joined(", ", parts) if parts else say(NO_DAMAGE)


def odds(tables: dict, weapon: str, count: int, distance: int) -> dict:
    """The exact distribution of the group's total damage (icepool), before the dice are rolled."""
    check_range(tables, weapon, distance)
    return dict(_odds(tuple(tables[weapon]["damage"][str(distance)]), count))


@lru_cache(maxsize=512)
def _odds(values: tuple, count: int) -> dict:
    one = icepool.Die(list(values))
    total = count @ one if count > 1 else one
    denom = int(total.denominator())
    dist = [[int(k), float(Fraction(int(total.quantity(k)), denom))] for k in total.outcomes()]
    mean = sum(k * p for k, p in dist)
    any_hit = sum(p for k, p in dist if k > 0)
    return {"dist": dist, "mean": round(mean, 2), "any": round(any_hit, 4)}


def charge_yellow(group: dict) -> None:
    """1 AP charges a single yellow box (TT#11); also the Power Phase's passive charge (seed 003 5.1)."""
    if group["destroyed"]:
        raise RuleError(_("That weapon group is destroyed."), "group")
    if group["yellow_on"] >= group["yellow"]:
        raise RuleError(_("Every yellow box of that group is already charged."), "group")
    group["yellow_on"] += 1


def charge_red(group: dict) -> bool:
    """Power Phase: one red box per weapon group (seed 003 5.1 'Red boxes are charged during the Power
    Phase'; TT#11 'filled one per weapon group')."""
    if group["destroyed"] or group["red_on"] >= group["red"]:
        return False
    group["red_on"] += 1
    return True


def discharge(group: dict) -> None:
    group["red_on"] = group["yellow_on"] = 0
