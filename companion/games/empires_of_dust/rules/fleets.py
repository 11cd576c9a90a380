"""Empires of Dust (seed 001, Specialization System; Fleets; Appendix): a ship's stats in play,
weapon range, and fleets by size.
"""
from __future__ import annotations

from companion.content import default_systems
from companion.errors import RuleError
from companion.said import _
from companion.schema import whole_argument

from .armour import _armour
from .design_rules import _spec_ids
from .seed_numbers import ARMOUR_TYPES, ENGINEER_LAUNCHES, LAUNCHES_PER_TURN, SLUG, SPECIAL_EXTRA_SLOT, SPECIALISATION_BONUS, _key
from .tables import fleet_sizes, ship_classes


def ship_stats(ship: dict) -> dict:
    """The ship's stats in play: designed stats plus specialisation modifiers (seed 001,
    Specialization System; decision: the modifiers come on top of the designed stat total)."""
    cls = _key(ship.get("class", ""))
    if cls not in ship_classes():
        raise RuleError(_("Unknown ship class %(ship)r.", ship=ship.get("class")), "class")
    specs = _spec_ids(ship) if cls != "drone" else []
    armour = _armour(ship.get("armour"))
    extra = _armour(ship.get("extra_armour"), "extra_armour")
    bonus = {"speed": "speed-demon", "stealth": "seer", "detection": "scout"}
    stats = {stat: whole_argument(ship.get(stat, ship_classes()[cls][stat][0]), stat)
             + (SPECIALISATION_BONUS if spec in specs else 0) for stat, spec in bonus.items()}
    slots = ship_classes()[cls]["weapon_slots"] + (SPECIAL_EXTRA_SLOT if "berserker" in specs else 0)
    return {
        **stats, "armour": {t: armour[t] + extra[t] for t in ARMOUR_TYPES},
        "hp": ship_classes()[cls]["hp"], "weapon_slots": slots,
        "drone_launcher_slots": SPECIAL_EXTRA_SLOT if "engineer" in specs else 0,
        "range_bonus": SPECIALISATION_BONUS if "sniper" in specs else 0,
        "drone_launches_per_turn": ENGINEER_LAUNCHES if "engineer" in specs else LAUNCHES_PER_TURN,
        "specialisations": specs,
    }


def weapon_range(weapon: dict, *, specialisations: list[str] | None = None, aura: int = 0) -> int:
    """Weapon range with Sniper (+10, seed 001, Specialization System) and range auras (+-5 each)."""
    bonus = SPECIALISATION_BONUS if "sniper" in [_key(s) for s in specialisations or []] else 0
    return whole_argument(weapon.get("range", 0), "range") + bonus + whole_argument(aura, "aura")


def average_fleet() -> list[dict]:
    """The appendix's average fleet (content/empires-of-dust/fleets/average-fleet.toml)."""
    return default_systems()[SLUG].fleets["average-fleet"]["ships"]


def fleet_preset(size: str) -> dict:
    """Suggested ship counts of a fleet size: patrol, escort, battalion, brigade, division, armada."""
    found = fleet_sizes().get(_key(size))
    if found is None:
        raise RuleError(_("Unknown fleet size %(size)r; sizes are %(sizes)s.", size=size, sizes=", ".join(fleet_sizes())), "size")
    return dict(found)


def fleet_composition(ships: list[dict], size: str) -> dict:
    """How a fleet's class counts compare with a fleet size preset (seed 001, Fleets)."""
    wanted = fleet_preset(size)
    have = {cls: sum(1 for s in ships if _key(s.get("class", "")) == cls) for cls in wanted}
    diff = {cls: have[cls] - wanted[cls] for cls in wanted}
    parts = [f"{cls} {have[cls]}/{wanted[cls]}" for cls in wanted]
    return {"size": _key(size), "wanted": wanted, "have": have, "difference": diff,
            "matches": all(v == 0 for v in diff.values()),
            "summary": f"{_key(size)}: " + ", ".join(parts)}
