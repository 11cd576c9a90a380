"""Empires of Dust (seed 001, Combat Phase): one weapon fired at one target -- who may fire at
what, the player's D20s in order, damage applied, the summary line, and the exact odds before rolling.

Rounding: "All rounding is done on the final stat values and not in the intermediate steps"
(seed 001, Augmenters), so shot values are exact fractions until the final value is rounded up.
"""
from __future__ import annotations

from fractions import Fraction

from companion.errors import RuleError
from companion.said import _
from companion.schema import whole_argument

from .armour import _best_armour, _weapon_type, penetration_needed
from .augmenter_effects import _resolve, _shot_values
from .damage import _max_hp, heal_hp
from .design_rules import _names
from .seed_numbers import CHAIN_JUMPS, ROLL_ORDER, ROLL_WORDS, SURGE_MAX, _ceil, _d20, _key, _pass_chance
from .tables import _check_d20, augmenters, base_classes

POSITIONS = ("direct", "blast", "touching")
SHOTS = ("main", "chain", "furtherance", "point-defence")


def _attack_context(weapon: dict, target: dict, attacker: dict | None, *, position: str, shot: str,
                    jump: int, overloader: bool, assassins_touch: bool, penetration_modifier: int,
                    damage_modifier: int, surge_count: int, berserker_second: bool, cloaked: bool,
                    designating: bool, target_ecm: bool, ally: bool) -> dict:
    if not isinstance(weapon, dict) or not isinstance(target, dict):
        raise RuleError(_("weapon and target must be tables."), "weapon")
    attacker = attacker or {}
    kind = _weapon_type(weapon.get("type", ""))
    augs = set(_names(weapon.get("augmenters"), "augmenters"))
    unknown = augs - set(augmenters())
    if unknown:
        raise RuleError(_("Unknown augmenter %(aug)r.", aug=sorted(unknown)[0]), "augmenters")
    if position not in POSITIONS:
        raise RuleError(_("position must be one of %(kinds)s.", kinds=", ".join(POSITIONS)), "position")
    if shot not in SHOTS:
        raise RuleError(_("shot must be one of %(kinds)s.", kinds=", ".join(SHOTS)), "shot")
    specs = [_key(s) for s in attacker.get("specialisations") or []]
    conditions = {_key(c) for c in attacker.get("conditions") or []}
    if target.get("docked") and not (ally and _key(attacker.get("class", "")) in base_classes()):
        # seed 001, Docking: "cannot be targeted by any ships ... The base may still target the
        # docked ships with its transference augmented weapons"
        raise RuleError(_("A docked ship cannot be targeted, except by its base's transference weapons "
                          "(seed 001, Docking)."), "target")
    if attacker.get("docked"):
        raise RuleError(_("A docked ship cannot target anything (seed 001, Docking)."), "attacker")
    if "ecm-active" in conditions:
        raise RuleError(_("A ship with active ECM cannot attack (seed 001, ECM)."), "attacker")
    if "afterburner" in conditions:
        raise RuleError(_("A ship that used its afterburner cannot attack that turn (seed 001, Afterburner)."), "attacker")
    cloaked = cloaked or "cloaked" in conditions
    halvings = []
    if cloaked:
        if "suppression" not in augs:
            raise RuleError(_("A ship with an active cloaking device cannot attack unless the weapon has "
                              "suppression (seed 001, Cloaking Device, Suppression)."), "attacker")
        halvings.append("suppression while cloaked")
    if "transference" in augs and not ally:
        raise RuleError(_("A transference weapon cannot be used against an enemy or neutral target "
                          "(seed 001, Transference)."), "target")
    if ally:
        if "transference" not in augs:
            raise RuleError(_("Only transference weapons fire at your own ships; blast damage does not "
                              "damage allied ships (seed 001, Blast Damage, Transference)."), "target")
        if position != "direct":
            raise RuleError(_("Transference has no blast damage (seed 001, Transference)."), "position")
    if shot == "chain":
        if "chain-hit" not in augs:
            raise RuleError(_("Only a chain-hit weapon jumps to further targets."), "shot")
        if not 1 <= whole_argument(jump, "jump") <= CHAIN_JUMPS:
            raise RuleError(_("A chain-hit makes up to %(n)s jumps after the main hit (seed 001, Chain-Hit).", n=CHAIN_JUMPS),
                              "jump")
    if shot == "furtherance" and "furtherance" not in augs:
        raise RuleError(_("Only a furtherance weapon goes through to targets behind (seed 001, Furtherance)."), "shot")
    if shot == "point-defence":
        if "point-defence" not in augs:
            raise RuleError(_("Only a point-defence weapon fires in addition to the primary weapon."), "shot")
        if _key(target.get("class", "drone")) != "drone":
            raise RuleError(_("A point-defence weapon fired in addition to the primary weapon targets "
                              "drones only (seed 001, Point-Defense)."), "target")
    if designating:
        if "target-designator" not in augs:
            raise RuleError(_("Only a target designator weapon designates targets."), "designating")
        halvings.append("target designator")
    if berserker_second:
        if "berserker" not in specs:
            raise RuleError(_("Only a Berserker fires a second shot (seed 001, Specialization System)."), "berserker_second")
        halvings.append("berserker's second shot")
    if not 0 <= whole_argument(surge_count, "surge_count") <= SURGE_MAX:
        raise RuleError(_("The surge counter runs from 0 to %(most)s.", most=SURGE_MAX), "surge_count")
    pen, dmg = _shot_values(weapon, position=position, shot=shot, overloader=overloader,
                            assassins_touch=assassins_touch, penetration_modifier=penetration_modifier,
                            damage_modifier=damage_modifier, halvings=halvings)
    armour, armour_type = _best_armour(target.get("armour") or {}, kind)
    pen_final = _ceil(pen)
    needed = penetration_needed(armour, pen_final)
    return {"weapon": weapon, "kind": kind, "augs": augs, "target": target, "attacker": attacker,
            "position": position, "shot": shot, "pen": pen_final, "dmg": dmg, "armour": armour,
            "armour_type": armour_type, "needed": needed, "surge_count": surge_count,
            "target_ecm": target_ecm, "ally": ally, "reconstructor": "re-constructor" in specs,
            "halvings": halvings, "designating": designating}


class _Dice:
    """Hands out the player's dice (a list in ROLL_ORDER, or a dict by roll name), else the RNG."""

    def __init__(self, dice, rng):
        if dice is not None and not isinstance(dice, (list, tuple, dict)):
            raise RuleError(_("dice must be a list of D20 results or a table of roll name -> D20."), "dice")
        self.dice, self.rng, self.used, self.log = dice, rng, set(), []

    def take(self, name: str, needs: int) -> bool:
        what = _("D20 for the %(roll)s", roll=_(ROLL_WORDS[name]))
        if isinstance(self.dice, dict):
            given = self.dice.get(name)
            self.used.add(name)
        elif isinstance(self.dice, (list, tuple)) and len(self.used) < len(self.dice):
            given = self.dice[len(self.used)]
            self.used.add(len(self.used))
        else:
            given = None
        if given is None and self.rng is None:
            raise RuleError(_("Enter the %(what)s (D20 > %(needs)s), or let the companion roll.", what=what, needs=needs),
                            f"dice.{name}")
        roll = _d20(needs, None if given is None else [given], self.rng, what)
        self.log.append({"roll": name, **roll})
        return roll["passed"]

    def finish(self) -> None:
        if isinstance(self.dice, dict):
            extra = set(self.dice) - self.used
            if extra:
                first = sorted(extra)[0]
                raise RuleError(_("This attack does not use the %(roll)s.", roll=_(ROLL_WORDS[first]) if first in ROLL_WORDS
                                  else first), f"dice.{first}")
        elif isinstance(self.dice, (list, tuple)) and len(self.used) < len(self.dice):
            raise RuleError(_("This attack used %(used)s D20s; %(entered)s were entered.", used=len(self.used),
                              entered=len(self.dice)), "dice")


def attack(weapon: dict, target: dict, *, attacker: dict | None = None, position: str = "direct",
           shot: str = "main", jump: int = 1, overloader: bool = False, assassins_touch: bool = False,
           penetration_modifier: int = 0, damage_modifier: int = 0, surge_count: int = 0,
           berserker_second: bool = False, cloaked: bool = False, designating: bool = False,
           target_ecm: bool = False, ally: bool = False, dice=None, rng=None) -> dict:
    """One weapon fired at one target, with every augmenter's roll, and the damage applied.

    ``weapon``: {name, type, penetration, damage, augmenters}; ``target``: {name, armour, hp,
    max_hp, class}; ``attacker``: {name, hp, max_hp, specialisations, conditions}.
    ``position``: direct (main target), blast (fully in the blast), touching (partly in it).
    ``shot``: main, chain (chain-hit jump ``jump`` 1-2), furtherance, point-defence (secondary).
    ``overloader`` / ``assassins_touch``: +10 damage / penetration (check the cooldown first with
    ``use_equipment``); ``*_modifier``: aura boons and banes (+-5 each).  Dice are asked for in the
    order ecm, rending, immolation, penetration, penetration_2, critical, vampirism, emp (only those
    the shot needs), as a list in that order or a dict by those names.
    """
    ctx = _attack_context(weapon, target, attacker, position=position, shot=shot, jump=jump,
                          overloader=overloader, assassins_touch=assassins_touch,
                          penetration_modifier=penetration_modifier, damage_modifier=damage_modifier,
                          surge_count=surge_count, berserker_second=berserker_second, cloaked=cloaked,
                          designating=designating, target_ecm=target_ecm, ally=ally)
    source = _Dice(dice, rng)
    res = _resolve(ctx, source.take)
    source.finish()
    result = {
        "weapon": weapon.get("name", ctx["kind"]), "weapon_type": ctx["kind"],
        "target": target.get("name", "target"), "attacker": (attacker or {}).get("name"),
        "position": position, "shot": shot, "armour": ctx["armour"], "armour_type": ctx["armour_type"],
        "penetration": ctx["pen"], "base_damage": str(ctx["dmg"]), "needed": ctx["needed"],
        "rolls": source.log, **{k: v for k, v in res.items() if k != "notes"}, "notes": res["notes"],
    }
    _apply_hp(result, target, attacker, ally)
    result["summary"] = _attack_summary(result, ctx)
    return result


def _apply_hp(result: dict, target: dict, attacker: dict | None, ally: bool) -> None:
    if "hp" in target:
        hp = whole_argument(target["hp"], "target.hp", 0)
        if ally:
            after = heal_hp(hp, result["target_heal"], _max_hp(target))
        else:
            after = max(0, hp - result["damage"])
        result["target_hp"] = after
        result["target_destroyed_at_end_of_phase"] = after == 0
    if attacker and "hp" in attacker:
        hp = whole_argument(attacker["hp"], "attacker.hp", 0)
        after = max(0, hp - result["self_damage"])
        after = heal_hp(after, result["attacker_heal"], _max_hp(attacker)) if result["attacker_heal"] else after
        result["attacker_hp"] = after
        result["attacker_destroyed_at_end_of_phase"] = after == 0


def _attack_summary(r: dict, ctx: dict) -> str:
    head = (f"{r['weapon']} ({r['weapon_type']}) vs {r['target']}"
            + (f" [{r['position']}]" if r["position"] != "direct" else "")
            + (f" [{r['shot']}]" if r["shot"] != "main" else "")
            + f": armour {r['armour']} {r['armour_type']}, penetration {r['penetration']}"
            + f" -> needs D20 > {r['needed']}")
    parts = [head]
    for roll in r["rolls"]:
        word = "pass" if roll["passed"] else "fail"
        parts.append(f"{ROLL_WORDS[roll['roll']]} {roll['value']} (> {roll['needs']}): {word}")
    if r["ecm_blocked"]:
        parts.append("no target lock")
    elif ctx["ally"]:
        parts.append(f"repairs {r['target_heal']}" if r["penetrated"] else "no repair")
    else:
        parts.append(f"hit, {r['damage']} damage" if r["penetrated"] else "no penetration")
    extras = []
    if r["self_damage"]:
        extras.append(f"attacker takes {r['self_damage']}")
    if r["attacker_heal"]:
        extras.append(f"attacker steals {r['attacker_heal']} HP")
    if r["emp"]:
        extras.append("EMP: target coasts 5 units next turn")
    if r["burn"]:
        extras.append(f"burning {r['burn']['per_turn']} per turn for {r['burn']['turns']} turns")
    if r["knockback"]:
        extras.append(f"knockback: target {r['knockback']['target_pushed']}, attacker {r['knockback']['attacker_pushed']} units")
    if r["surge_count"] is not None:
        extras.append(f"surge counter {r['surge_count']}")
    if r["designated"]:
        extras.append("target designated this turn")
    extras += [h for h in ctx["halvings"]]
    if "target_hp" in r:
        extras.append(f"{r['target']} HP {r['target_hp']}"
                      + (" (destroyed at end of phase)" if r["target_destroyed_at_end_of_phase"] else ""))
    if "attacker_hp" in r and (r["self_damage"] or r["attacker_heal"]):
        extras.append(f"attacker HP {r['attacker_hp']}")
    return "; ".join(parts) + ("; " + ", ".join(extras) if extras else "")


def attack_odds(weapon: dict, target: dict, **options) -> dict:
    """Exact chance to penetrate and expected damage, before rolling (same options as ``attack``,
    without dice).  Every roll is enumerated; damage is rounded on final values as in play."""
    for banned in ("dice", "rng"):
        options.pop(banned, None)
    ctx = _attack_context(weapon, target, options.pop("attacker", None), **{
        "position": "direct", "shot": "main", "jump": 1, "overloader": False, "assassins_touch": False,
        "penetration_modifier": 0, "damage_modifier": 0, "surge_count": 0, "berserker_second": False,
        "cloaked": False, "designating": False, "target_ecm": False, "ally": False, **options})
    names = ROLL_ORDER
    thresholds = {"ecm": _check_d20("ecm"), "penetration": ctx["needed"], "penetration_2": ctx["needed"],
                  "rending": _check_d20("rending"), "immolation": _check_d20("immolation"),
                  "critical": _check_d20("critical-hit"), "vampirism": _check_d20("vampirism"),
                  "emp": _check_d20("emp")}
    p_pen, expected, dist = Fraction(0), Fraction(0), {}
    # Every roll the attack asks for, each passed or not: the outcomes are enumerated only over the rolls
    # the attack does ask for (a Rending roll with no Rending augmenter is never asked, whatever it
    # would be), each path's chance the product of its rolls' (issue 38: the 2^8 combinations of every
    # roll were most of an attack's cost).  The sums are the same, exactly: a roll never asked changes nothing.
    chances = {name: _pass_chance(thresholds[name]) for name in names}

    class _Ask(Exception):
        pass

    paths = [{}]
    while paths:
        outcome = paths.pop()

        def roll(name, needs, outcome=outcome):
            if name not in outcome:
                raise _Ask(name)
            return outcome[name]
        try:
            res = _resolve(ctx, roll)
        except _Ask as asked:
            name = asked.args[0]
            for passed, q in ((True, chances[name]), (False, 1 - chances[name])):
                if q != 0:
                    paths.append({**outcome, name: passed})
            continue
        p = Fraction(1)
        for name, passed in outcome.items():
            p *= chances[name] if passed else 1 - chances[name]
        if res["penetrated"]:
            p_pen += p
        value = res["target_heal"] if ctx["ally"] else res["damage"]
        expected += p * value
        dist[value] = dist.get(value, Fraction(0)) + p
    word = "repair" if ctx["ally"] else "damage"
    return {
        "armour": ctx["armour"], "armour_type": ctx["armour_type"], "penetration": ctx["pen"],
        "needed": ctx["needed"], "p_penetrate": float(p_pen), "p_penetrate_fraction": str(p_pen),
        "expected": float(expected), "expected_fraction": str(expected),
        "distribution": {str(k): float(v) for k, v in sorted(dist.items())},
        "summary": (f"{weapon.get('name', ctx['kind'])} ({ctx['kind']}) vs {target.get('name', 'target')}: "
                    f"armour {ctx['armour']} {ctx['armour_type']} -> needs D20 > {ctx['needed']}; "
                    f"penetrates {float(p_pen):.0%}, expected {word} {float(expected):.2f}"),
    }
