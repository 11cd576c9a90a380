"""Empires of Dust (seed 001, Armour; Armour Penetration): armour by type against a weapon type,
and the D20 a penetration roll must beat.
"""
from __future__ import annotations

from fractions import Fraction

from companion.errors import RuleError
from companion.said import _
from companion.schema import whole_argument

from .seed_numbers import ARMOUR_QUARTER, ARMOUR_TYPE_MAX, ARMOUR_TYPES, _ceil, _key
from .tables import penetration_table, preferred_armour, weapon_types


def penetration_needed(armour: int, penetration: int) -> int:
    """What the D20 must be GREATER than (seed 001, Armour Penetration table).

    Penetration above 20 (assassin's touch, boons) reads the 20 column and below 0 (banes) the 0
    column: the table stops there (decision; the seed gives no column beyond 20).
    """
    armour = whole_argument(armour, "armour", 0, ARMOUR_TYPE_MAX)
    penetration = min(20, max(0, whole_argument(penetration, "penetration")))
    return penetration_table()[armour][penetration]


def _armour(armour, field: str = "armour") -> dict:
    if armour is None:
        armour = {}
    if not isinstance(armour, dict):
        raise RuleError(_("%(field)s must map armour types (%(types)s) to ratings.", field=field,
                          types=", ".join(ARMOUR_TYPES)), field)
    out = {t: 0 for t in ARMOUR_TYPES}
    for name, value in armour.items():
        kind = _key(name)
        if kind not in out:
            raise RuleError(_("Unknown armour type %(name)r; armour is %(types)s.", name=name, types=", ".join(ARMOUR_TYPES)),
                            field)
        out[kind] = whole_argument(value, f"{field}.{kind}", 0)
    return out


def _weapon_type(name) -> str:
    kind = _key(name)
    if kind not in weapon_types():
        raise RuleError(_("Unknown weapon type %(name)r; weapons are beam, projectile or missile.", name=name), "type")
    return kind


def armour_ratings(armour_by_type: dict, weapon_type: str) -> dict:
    """Each armour type's rating against the weapon: preferred type full, others quartered rounding up."""
    kind = _weapon_type(weapon_type)
    armour = _armour(armour_by_type)
    best = preferred_armour()[kind]
    return {t: (v if t == best else _ceil(Fraction(v, ARMOUR_QUARTER))) for t, v in armour.items()}


def effective_armour(armour_by_type: dict, weapon_type: str) -> int:
    """The best rating against this weapon type (seed 001, Armour: "the maximum effective armour
    rating is used")."""
    return max(armour_ratings(armour_by_type, weapon_type).values())


def _best_armour(armour_by_type: dict, weapon_type: str) -> tuple[int, str]:
    ratings = armour_ratings(armour_by_type, weapon_type)
    kind = max(ratings, key=lambda t: (ratings[t], t == preferred_armour()[_weapon_type(weapon_type)]))
    return ratings[kind], kind
