"""Empires of Dust (seed 001, Detecting Targets): stealth, detection and their modifiers (cloak,
nebulae, stars, fine-tuned detector, auras), and whether a weapon may fire at a target.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _
from companion.schema import whole_argument

from .seed_numbers import CLOAK_STEALTH, DEFAULT_DETECTION_BASE, FINE_TUNED_DETECTION, STAR_BODY_STEALTH, STAR_WELL_STEALTH, _key
from .tables import nebulae


def detection_range(stealth: int, detection: int, base: int = DEFAULT_DETECTION_BASE) -> int:
    """Greatest distance at which the target can be locked: base - stealth + detection.

    Stealth and detection have no floor: a star's -20 stealth or a nebula's -10 detection can take
    them below 0 (seed 001, Celestial Bodies; Nebula; the seed gives no minimum)."""
    return whole_argument(base, "base") - whole_argument(stealth, "stealth") + whole_argument(detection, "detection")


def detection_ok(distance: int, stealth: int, detection: int, base: int = DEFAULT_DETECTION_BASE) -> bool:
    """Distance <= base - target stealth + attacker detection (seed 001, Detecting Targets).

    The seed's formula uses 30, its prose 25: ``base`` is the table's "detection_base" setting
    (default 30)."""
    return whole_argument(distance, "distance", 0) <= detection_range(stealth, detection, base)


def target_stealth(stealth: int, *, cloaked: bool = False, nebula: str | None = None,
                   star: str | None = None, aura: int = 0) -> int:
    """The target's stealth with its modifiers: cloak +10, nebula +10, star gravity well -10 or
    inside the star -20 (seed 001, Cloaking Device, Nebula, Celestial Bodies), aura +-5 per aura."""
    value = whole_argument(stealth, "stealth") + whole_argument(aura, "aura")
    if cloaked:
        value += CLOAK_STEALTH
    if nebula is not None:
        value += _nebula(nebula)["stealth"]
    if star is not None:
        star = _key(star)
        if star not in ("gravity-well", "star"):
            raise RuleError(_("star must be 'gravity-well' or 'star' (inside the star's diameter)."), "star")
        value += STAR_WELL_STEALTH if star == "gravity-well" else STAR_BODY_STEALTH
    return value


def attacker_detection(detection: int, *, nebula: str | None = None, fine_tuned: bool = False,
                       aura: int = 0) -> int:
    """The attacker's detection: nebula -10, fine-tuned detector +20 (seed 001), aura +-5 per aura."""
    value = whole_argument(detection, "detection") + whole_argument(aura, "aura")
    if nebula is not None:
        value += _nebula(nebula)["detection"]
    if fine_tuned:
        value += FINE_TUNED_DETECTION
    return value


def _nebula(name: str) -> dict:
    found = nebulae().get(_key(name))
    if found is None:
        raise RuleError(_("Unknown nebula %(name)r; nebulae are sparse or dense.", name=name), "nebula")
    return found


def _signed(value: int) -> str:
    """A stat in the detection sum: below 0 in brackets, "30 - (-5) + 15" (no floor, seed 001)."""
    return f"({value})" if value < 0 else str(value)


def targeting(distance: int, weapon_range: int, stealth: int, detection: int, *,
              base: int = DEFAULT_DETECTION_BASE, designated: bool = False, docked: bool = False) -> dict:
    """Can the attacker fire at this target?  Detection (or a target designator's mark) and range.

    seed 001, Target Designator: "ships that can't detect it, but are still in range can fire at it";
    Docking: "Once the ship is docked it cannot be targeted by any ships".
    """
    limit = detection_range(stealth, detection, base)
    detected = detection_ok(distance, stealth, detection, base)
    in_range = distance <= whole_argument(weapon_range, "weapon_range", 0)
    allowed = in_range and (detected or designated) and not docked
    if docked:
        why = Said("docked ships cannot be targeted")
    elif not in_range:
        why = Said("out of range (%(distance)s > %(range)s)", distance=distance, range=weapon_range)
    elif detected:
        why = Said("detected and in range")
    elif designated:
        why = Said("not detected, but designated and in range")
    else:
        why = Said("not detected")
    return {"distance": distance, "detection_range": limit, "detected": detected, "in_range": in_range,
            "can_fire": allowed,
            "summary": Said("distance %(distance)s vs detection %(base)s - %(stealth)s + %(detection)s = %(limit)s, "
                            "range %(range)s: %(why)s", distance=distance, base=base, stealth=_signed(stealth),
                            detection=_signed(detection), limit=limit, range=weapon_range, why=why)}
