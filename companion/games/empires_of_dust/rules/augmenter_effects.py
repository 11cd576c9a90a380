"""Empires of Dust (seed 001, Blast Damage; Augmenters): what a shot's position and each augmenter
do to its penetration and damage, and the surge ladder.
"""
from __future__ import annotations

from fractions import Fraction

from companion.schema import whole_argument

from .seed_numbers import (
    ASSASSINS_TOUCH_PENETRATION,
    BURN_TURNS,
    HALF,
    KNOCKBACK,
    OVERLOADER_DAMAGE,
    QUARTER,
    SURGE_BONUS,
    SURGE_MAX,
    _ceil,
)
from .tables import _check_d20


def _shot_values(weapon: dict, *, position: str, shot: str, overloader: bool, assassins_touch: bool,
                 penetration_modifier: int, damage_modifier: int, halvings: list[str]) -> tuple[Fraction, Fraction]:
    """Exact (unrounded) penetration and base damage of one shot on one target."""
    pen = Fraction(whole_argument(weapon.get("penetration", 0), "penetration")
                   + whole_argument(penetration_modifier, "penetration_modifier"))
    dmg = Fraction(whole_argument(weapon.get("damage", 0), "damage") + whole_argument(damage_modifier, "damage_modifier"))
    if assassins_touch:
        pen += ASSASSINS_TOUCH_PENETRATION
    if overloader:
        dmg += OVERLOADER_DAMAGE
    # seed 001, Blast Damage: "in the blast area ... penetration and damage stats halved";
    # "touching ... armour penetration of 0 and the weapon damage stat halved"
    if position == "blast":
        pen, dmg = pen * HALF, dmg * HALF
    elif position == "touching":
        pen, dmg = Fraction(0), dmg * HALF
    if shot == "chain":  # seed 001, Chain-Hit: "full armour penetration and halved damage"
        dmg *= HALF
    elif shot == "point-defence":  # seed 001, Point-Defense: "penetration and damage is halved"
        pen, dmg = pen * HALF, dmg * HALF
    for _ in halvings:  # target designator, suppression while cloaked, berserker's 2nd shot
        dmg *= HALF
    return max(Fraction(0), pen), max(Fraction(0), dmg)


def _resolve(ctx: dict, take) -> dict:
    """The attack's logic given ``take(roll name, needs) -> passed``; shared by attack and odds."""
    augs, base, ally = ctx["augs"], ctx["dmg"], ctx["ally"]
    out = {"penetrated": False, "passes": 0, "damage": 0, "self_damage": 0, "attacker_heal": 0,
           "target_heal": 0, "emp": False, "burn": None, "knockback": None, "designated": False,
           "ecm_blocked": False, "surge_count": 0 if "surge" in augs else None, "notes": []}
    if ctx["target_ecm"] and not ally:
        # seed 001, ECM: "can only be targeted if a roll is passed; if the attacking ship fails the
        # roll it cannot target additional ships"
        if not take("ecm", _check_d20("ecm")):
            out["ecm_blocked"] = True
            out["notes"].append("ECM: target lock failed, no other target this phase")
            return out
    auto = "rending" in augs and not ally and take("rending", _check_d20("rending"))
    immolated = "immolation" in augs and not ally and take("immolation", _check_d20("immolation"))
    rolls = 2 if "scatter-shot" in augs and not ally else 1
    if auto:
        # decision: a successful rending roll makes the shot penetrate (both scatter-shot halves)
        passes = rolls
        out["notes"].append("rending: automatic penetration")
    else:
        passes = sum(1 for i in range(rolls) if take("penetration" if i == 0 else "penetration_2", ctx["needed"]))
    penetrated = passes > 0
    out["penetrated"], out["passes"] = penetrated, passes
    if ally:  # transference (seed 001, Transference; Re-constructor)
        if penetrated:
            heal = base * (1 + HALF) if ctx["reconstructor"] else base
            out["target_heal"] = _ceil(heal)
            out["self_damage"] = 0 if ctx["reconstructor"] else _ceil(base * HALF)
        return out
    if rolls == 2:
        # seed 001, Scatter-Shot: "A pass on each roll deals damage at half of the base damage,
        # rounding up": each pass is a hit of its own, rounded on its own (base 13 -> 7 + 7 = 14);
        # "All rounding is done on the final stat values" (Augmenters) is each hit's final value.
        damage = Fraction(passes * _ceil(base * HALF))
    else:
        damage = base if penetrated else Fraction(0)
    if immolated:
        # seed 001, Immolation: self-damage "whether the shot penetrates the targets armour or not"
        out["self_damage"] = _ceil(base * HALF)
        if penetrated:
            damage += base * HALF
    if penetrated:
        if "critical-hit" in augs and take("critical", _check_d20("critical-hit")):
            damage += base
            out["notes"].append("critical hit: + base damage")
        if "surge" in augs:
            damage += base * SURGE_BONUS[ctx["surge_count"]]
            out["surge_count"] = min(SURGE_MAX, ctx["surge_count"] + 1)
        if "vampirism" in augs and take("vampirism", _check_d20("vampirism")):
            out["attacker_heal"] = _ceil(damage * HALF)
        if "emp" in augs and take("emp", _check_d20("emp")):
            out["emp"] = True
        if "burning" in augs:
            out["burn"] = {"per_turn": _ceil(base * QUARTER), "turns": BURN_TURNS}
        if ctx["designating"]:
            out["designated"] = True
    if "knockback" in augs:
        out["knockback"] = {"target_pushed": KNOCKBACK if penetrated else 0, "attacker_pushed": KNOCKBACK}
    out["damage"] = _ceil(damage)
    return out


def surge_step(count: int, penetrated: bool, *, same_target: bool = True, attacked: bool = True) -> dict:
    """The surge ladder (seed 001, Surge): the bonus this shot earns and the new counter."""
    count = whole_argument(count, "surge_count", 0, SURGE_MAX)
    if not attacked or not same_target:
        count = 0  # "changes targets, or you have to skip a turn ... the surge count resets to zero"
        if not attacked:
            return {"bonus": "0", "count": 0, "summary": "no attack: surge counter reset to 0"}
    if not penetrated:
        return {"bonus": "0", "count": 0, "summary": "no penetration: surge counter reset to 0"}
    bonus = SURGE_BONUS[count]
    new = min(SURGE_MAX, count + 1)
    return {"bonus": str(bonus), "count": new,
            "summary": f"surge {count} -> {new}: + base damage x {bonus}"}
