"""Attacks: Accuracy and Damage, the outcome on the target's chart, and the exact odds (icepool).

Seed 004 Chapter 4 (L74-L90) and the modifiers of Chapters 6-8.  Pure.

"Ship Size" in both formulas is not said to be the attacker's or the target's (L86, L88):
    DAMAGE:   "(d6 + [Weapon Size - Ship Size]) +/- any Modifiers"
    ACCURACY: "(d6 + [Ship size - Weapon Size]) +/- any Modifiers. Compare this result to the target
               Ship's "Miss/Glance/Hit" chart."
Decision: the target's Size by default, because the Escort rule says a redirected hit is
"Recalculate[d] ... with the different Size modifiers" (L395), which only changes anything if the
target's Size is in the formula.  Table setting ``size_reading`` = 1 reads it as the attacker's.
"""
from __future__ import annotations

import math
from fractions import Fraction

import icepool

from companion.errors import RuleError
from companion.games.astral_action.rules.equipment import VARIANTS, WEAPONS, bands, weapon_size
from companion.said import N_, _

OUTCOMES = ("miss", "glance", "hit")


def outcome(accuracy: int, chart: dict, glance_bonus: int = 0) -> str:
    """Where an Accuracy total falls on the target's chart (L88).  Secondary Avoidance: "Extend the
    range of suffering a Glancing Hit by 1" (L199): the glance band reaches one higher."""
    if accuracy <= chart["miss"]:
        return "miss"
    if accuracy <= chart["glance"] + glance_bonus:
        return "glance"
    return "hit"


def applied(damage: int, result: str) -> int:
    """L81 "Apply any positive DAMAGE result"; L88 Hit full, Glance one-half rounding up, Miss none."""
    damage = max(0, damage)
    return {"hit": damage, "glance": math.ceil(damage / 2), "miss": 0}[result]


def size_for(attacker_size: int, target_size: int, reading: int) -> int:
    return attacker_size if reading == 1 else target_size


def plan(attacker: dict, item: dict, target: dict, band_index: int, mods: dict, reading: int = 0) -> dict:
    """Everything about an attack before the dice: sizes, dice, modifiers with their reasons.

    ``attacker`` / ``target``: {"size", "card"}; ``item``: the weapon; ``mods``: the situational
    modifiers the players tick: evasive, dodge, marked (+2), marked_terrain (terrain ignored), marked_range
    and specialist (the ranges, equipment.bands), obscuring (X), formation (+damage),
    extra_pws (from an AWS nearby), accuracy / damage (anything else, e.g. a scenario)."""
    spec = WEAPONS[item["item"]]
    all_bands = bands(item, bool(mods.get("marked_range")), bool(mods.get("specialist")))
    if not 0 <= band_index < len(all_bands):
        raise RuleError(_("%(weapon)s has 1 range band.", weapon=spec["name"]) if len(all_bands) == 1
                        else _("%(weapon)s has %(n)s range bands.", weapon=spec["name"], n=len(all_bands)), "band")
    band = all_bands[band_index]
    if band_index and (attacker["size"] == 0 or target["size"] == 0):
        raise RuleError(_("Fighters cannot attack, or be attacked, at Extended Range (L218, L226)."), "band")
    w = weapon_size(attacker["size"], item["slot"], attacker["card"].get("weapon_size"))
    s = size_for(attacker["size"], target["size"], reading)
    # the reasons are read where the odds are drawn (views, _odds.html), never kept: said in the reader's words
    acc = [(s - w, _("Ship Size %(size)s - Weapon Size %(weapon)s", size=s, weapon=w))]
    dmg = [(w - s, _("Weapon Size %(weapon)s - Ship Size %(size)s", weapon=w, size=s))]
    if band["accuracy"]:
        acc.append((band["accuracy"], _("%(band)s range (L152)", band=band["name"])))
    dice = band["dice"]
    variant = item.get("variant")
    if variant == "linked":
        x = item.get("linked", 1)
        # L156 "gains an (X)+1 Accuracy modifier, but also a -(X) Damage modifier": read as +(X+1)
        acc.append((x + 1, _("Linked (%(x)s) (L156)", x=x)))
        dmg.append((-x, _("Linked (%(x)s) (L156)", x=x)))
    elif variant in ("oversized", "structural"):
        acc.append((VARIANTS[variant]["accuracy"], f"{VARIANTS[variant]['name']} ({VARIANTS[variant]['line']})"))
        dice = VARIANTS[variant]["dice"]
    tcard = target["card"]
    if target.get("avoidance"):
        # L198; Maneuver/Heading Enhance say "(stackable)" (L204, L206), Avoidance does not: -1 once
        acc.append((-1, _("target's Avoidance (L198)")))
    for key, value, why in (("evasive", -1, N_("Evasive Actions (L264)")), ("dodge", -1, N_("Dodge (L268)")),
                            ("marked", 2, N_("Marked target (L276)"))):
        if mods.get(key):
            acc.append((value, _(why)))
    if mods.get("obscuring") and mods.get("marked_terrain"):
        # L277 "Ignore the effects of Terrain when making Attacks against the Marked Ship"
        acc.append((0, _("Obscuring (%(x)s) ignored: Marked target (L277)", x=int(mods["obscuring"]))))
    elif mods.get("obscuring"):
        acc.append((-int(mods["obscuring"]), _("Obscuring (%(x)s) (L295)", x=int(mods["obscuring"]))))
    if mods.get("accuracy"):
        acc.append((int(mods["accuracy"]), _("other accuracy modifier")))
    if spec["pws"]:
        # L153 "-1 Damage modifier for every Proximity Weapons System (PWS) mounted on a ship": the
        # target's PWS (it is a defence, L214), plus one per AWS in range (L188), entered
        pws = target.get("pws", 0) + int(mods.get("extra_pws") or 0)
        if pws:
            dmg.append((-pws, f"{pws} PWS (L153)"))
    if mods.get("formation"):
        dmg.append((int(mods["formation"]), _("Offensive Formation (L385)")))
    if mods.get("damage"):
        dmg.append((int(mods["damage"]), _("other damage modifier")))
    return {"weapon": spec["name"], "band": band, "band_index": band_index, "dice": dice, "weapon_size": w, "size": s,
            "reading": "attacker" if reading == 1 else "target",
            "accuracy_mods": acc, "damage_mods": dmg,
            "accuracy_mod": sum(v for v, _ in acc), "damage_mod": sum(v for v, _ in dmg),
            "chart": tcard["chart"], "glance_bonus": target.get("glance_bonus", 0),
            "kinetic": item["item"] == "kinetic", "beam": item["item"] == "beam"}


def damage_die(dice: str):
    d6 = icepool.d6
    return {"d6": d6, "2d6": 2 @ d6, "best2": icepool.highest(d6, d6)}[dice]


def dice_needed(dice: str) -> int:
    return 1 if dice == "d6" else 2


def damage_roll(dice: str, values: list[int]) -> int:
    """The damage dice as rolled: one d6, two added (L176, L158), or the higher of two (L157, L176)."""
    if dice == "d6":
        return values[0]
    return values[0] + values[1] if dice == "2d6" else max(values[0], values[1])


def odds(p: dict) -> dict:
    """Exact chances of miss / glance / hit and the expected damage applied, before rolling.
    (Shields and Armor then take their share; the expectation is what reaches the damage track.)"""
    acc = icepool.d6 + p["accuracy_mod"]
    chances = {o: Fraction(0) for o in OUTCOMES}
    for total, prob in zip(acc.outcomes(), acc.probabilities(), strict=False):
        chances[outcome(total, p["chart"], p["glance_bonus"])] += Fraction(prob)
    dmg = damage_die(p["dice"]) + p["damage_mod"]
    pairs = list(zip(dmg.outcomes(), dmg.probabilities(), strict=False))
    full = sum((applied(v, "hit") * Fraction(q) for v, q in pairs), Fraction(0))
    half = sum((applied(v, "glance") * Fraction(q) for v, q in pairs), Fraction(0))
    expected = chances["hit"] * full + chances["glance"] * half
    return {"chances": {k: float(v) for k, v in chances.items()}, "expected": float(expected),
            "exact": {k: str(v) for k, v in chances.items()}}


def resolve(p: dict, acc_die: int, dmg_dice: list[int]) -> dict:
    """The attack's result from the dice (rolled by the app or entered from real dice)."""
    accuracy = acc_die + p["accuracy_mod"]
    result = outcome(accuracy, p["chart"], p["glance_bonus"])
    damage = damage_roll(p["dice"], dmg_dice) + p["damage_mod"]
    return {"accuracy_die": acc_die, "accuracy": accuracy, "result": result, "damage_dice": dmg_dice,
            "damage": damage, "applied": applied(damage, result)}
