"""Empires of Dust (seed 001, Combat Phase; Transference; Burning): hit points, repair, fires,
and ships removed at the end of the combat phase.
"""
from __future__ import annotations

from fractions import Fraction

from companion.errors import RuleError
from companion.said import _
from companion.schema import whole_argument

from .seed_numbers import BURN_TURNS, QUARTER, _ceil, _key
from .tables import base_classes, ship_classes


def _max_hp(ship: dict) -> int | None:
    if "max_hp" in ship:
        return whole_argument(ship["max_hp"], "max_hp", 1)
    cls = _key(ship.get("class", ""))
    if cls in ship_classes():
        return ship_classes()[cls]["hp"]
    if cls in base_classes():
        return base_classes()[cls]["hp"]
    return None


def heal_hp(hp: int, amount: int, max_hp: int | None) -> int:
    """Repair: never above the initial hit points (seed 001, Transference)."""
    if max_hp is None:
        raise RuleError(_("Give the ship's initial hit points (max_hp) to repair it."), "max_hp")
    return min(max_hp, hp + max(0, amount))


def apply_damage(ship: dict, amount: int) -> dict:
    """Damage a ship; at 0 it stays in play (can fire, can be repaired) until the end of the combat
    phase (seed 001, Combat Phase: "all combat is considered to be simultaneous")."""
    hp = whole_argument(ship.get("hp"), "hp", 0)
    amount = whole_argument(amount, "amount", 0)
    after = max(0, hp - amount)
    return {"name": ship.get("name"), "hp": after, "destroyed_at_end_of_phase": after == 0,
            "summary": f"{ship.get('name', 'ship')}: {hp} - {amount} = {after} HP"
                       + (" (destroyed at end of phase unless repaired)" if after == 0 else "")}


def repair(ship: dict, amount: int) -> dict:
    """Repair a ship (transference), capped at its initial hit points."""
    hp = whole_argument(ship.get("hp"), "hp", 0)
    after = heal_hp(hp, whole_argument(amount, "amount", 0), _max_hp(ship))
    return {"name": ship.get("name"), "hp": after, "destroyed_at_end_of_phase": after == 0,
            "summary": f"{ship.get('name', 'ship')}: repaired {hp} -> {after} HP"
                       + (" (saved)" if hp == 0 and after > 0 else "")}


# Conditions that end with a phase: EMP "remove after the movement turn of the affected ship";
# target designator "must be re-designated every turn"; afterburner lasts its turn.
PHASE_END_CLEARS = {"movement": ("EMP",), "combat": ("Designated", "Afterburner")}


def end_of_phase(ships: list[dict], phase: str = "Combat") -> dict:
    """End of a phase: after combat, ships at 0 HP are removed (those repaired above 0 by
    transference were saved); conditions that expire are cleared (seed 001, Combat Phase)."""
    phase_key = _key(phase)
    if phase_key not in PHASE_END_CLEARS:
        raise RuleError(_("phase must be Movement or Combat."), "phase")
    clears = {_key(c) for c in PHASE_END_CLEARS[phase_key]}
    destroyed, surviving = [], []
    for ship in ships:
        hp = whole_argument(ship.get("hp"), "hp", 0)
        if phase_key == "combat" and hp == 0:
            destroyed.append(ship.get("name"))
            continue
        kept = [c for c in ship.get("conditions") or [] if _key(c) not in clears]
        surviving.append({**ship, "conditions": kept})
    summary = (f"destroyed: {', '.join(map(str, destroyed))}" if destroyed else "no ship destroyed")
    return {"phase": phase, "destroyed": destroyed, "ships": surviving,
            "summary": f"End of {phase.lower()} phase: {summary}"}


def add_burn(burns: list[dict], base_damage=None, *, per_turn: int | None = None) -> list[dict]:
    """A new fire: the (blast-adjusted) base damage quartered, rounding up, each turn for two turns
    (seed 001, Burning). Fires stack: each is its own entry (decision: each fire is rounded on its
    own, being its own final value).  ``per_turn``: the value an ``attack`` result already gives."""
    if per_turn is None:
        if base_damage is None:
            raise RuleError(_("Give the fire's base damage or its damage per turn."), "base_damage")
        per_turn = _ceil(Fraction(base_damage) * QUARTER)
    return [*(burns or []), {"per_turn": whole_argument(per_turn, "per_turn", 0), "turns_left": BURN_TURNS}]


def burn_tick(burns: list[dict]) -> dict:
    """One turn of fire: every stacked fire hits; each has one turn fewer left.

    Decision: fires tick in the combat phase of each of the two turns after the hit, so a ship
    burnt to 0 is destroyed at the end of that combat phase like any other damage."""
    damage = 0
    left = []
    for burn in burns:
        damage += whole_argument(burn["per_turn"], "per_turn", 0)
        turns = whole_argument(burn["turns_left"], "turns_left", 1) - 1
        if turns > 0:
            left.append({**burn, "turns_left": turns})
    return {"damage": damage, "burns": left,
            "summary": f"fires burn for {damage} ({len(burns)} fire{'s' if len(burns) != 1 else ''}); "
                       f"{len(left)} still burning"}
