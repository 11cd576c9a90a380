"""Empires of Dust (seed 001, Equipment): cool downs, the FTL jump drive, tractor beams, ECM,
cloaking devices, EMP, and whether a ship may attack.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import N_, Said, _
from companion.schema import whole_argument

from .design_rules import _names
from .seed_numbers import FTL_JUMP, TRACTOR_FAIL, TRACTOR_PASS, TRACTOR_RANGE, _d20, _key
from .tables import _check_d20, equipment


def cooldown_ready_at(used_phase: int, item: str = "overloader") -> int:
    """Used in phase N (the Nth movement phase for FTL, the Nth combat phase otherwise) -> ready in
    phase N + 3: "a cool down time of 2 turns, meaning it can be used every third ... phase"
    (seed 001, Equipment)."""
    spec = equipment().get(_key(item))
    if spec is None or spec["cooldown"] is None:
        raise RuleError(_("%(item)r has no cool down.", item=item), "item")
    return whole_argument(used_phase, "used_phase", 1) + spec["cooldown"]


def cooldown_ready(last_used: int | None, phase: int, item: str = "overloader") -> bool:
    return last_used is None or whole_argument(phase, "phase", 1) >= cooldown_ready_at(last_used, item)


def use_equipment(item: str, phase: int, last_used: int | None = None) -> dict:
    """Use overloader, assassin's touch, fine-tuned detector or FTL drive in ``phase``."""
    key = _key(item)
    if not cooldown_ready(last_used, phase, key):
        raise RuleError(_("%(item)s is cooling down: used in phase %(used)s, ready in phase %(ready)s.",
                          item=equipment()[key]["name"], used=last_used, ready=cooldown_ready_at(last_used, key)), "phase")
    ready = cooldown_ready_at(phase, key)
    return {"item": key, "used_phase": phase, "ready_at": ready,
            "summary": f"{equipment()[key]['name']} used in phase {phase}; ready again in phase {ready}"}


def ftl_jump(phase: int, last_used: int | None = None, *, dice=None, rng=None) -> dict:
    """FTL jump drive after moving: D20 > 5 jumps 15 units (seed 001, FTL Jump Drive).
    Decision: the attempt starts the cool down whether or not the roll passes."""
    used = use_equipment("ftl-jump-drive", phase, last_used)
    roll = _d20(_check_d20("ftl-jump-drive"), dice, rng, N_("D20 for the FTL jump"))
    distance = FTL_JUMP if roll["passed"] else 0
    return {**used, "roll": roll, "jumped": roll["passed"], "distance": distance,
            "summary": f"FTL jump: rolled {roll['value']} (> {roll['needs']}): "
                       + (f"jumps {distance} units" if distance else "no jump") + f"; ready again in phase {used['ready_at']}"}

_TRACTOR = {"push": N_("tractor beam (push): rolled %(roll)s (> %(needs)s): pushes %(units)s units"),
            "pull": N_("tractor beam (pull): rolled %(roll)s (> %(needs)s): pulls %(units)s units")}


def tractor_beam(mode: str, distance: int, *, dice=None, rng=None) -> dict:
    """Tractor beam at the end of the movement phase: range 20, D20 > 10 moves 10 units, else 5."""
    mode = _key(mode)
    if mode not in ("push", "pull"):
        raise RuleError(_("A tractor beam is a push or a pull beam."), "mode")
    if whole_argument(distance, "distance", 0) > TRACTOR_RANGE:
        raise RuleError(_("Tractor beams have a range of %(range)s; the target is %(distance)s away.", range=TRACTOR_RANGE,
                          distance=distance), "distance")
    roll = _d20(_check_d20("tractor-beam"), dice, rng, N_("D20 for the tractor beam"))
    moved = TRACTOR_PASS if roll["passed"] else TRACTOR_FAIL
    return {"mode": mode, "roll": roll, "moved": moved,
            "summary": Said(_TRACTOR[mode], roll=roll["value"], needs=roll["needs"], units=moved)}


def ecm_targeting(*, dice=None, rng=None) -> dict:
    """Targeting a ship with active ECM: D20 > 5, or the attacker cannot target any other ship."""
    roll = _d20(_check_d20("ecm"), dice, rng, N_("D20 for the ECM targeting roll"))
    return {"roll": roll, "locked": roll["passed"],
            "summary": f"ECM targeting: rolled {roll['value']} (> {roll['needs']}): "
                       + ("target locked" if roll["passed"] else "no lock, cannot target another ship this phase")}


def can_attack(conditions: list[str], weapon: dict | None = None) -> dict:
    """Whether a ship may fire this combat phase given its conditions (cloak, ECM, afterburner,
    docked); EMP does not stop firing (seed 001, Equipment, Afterburner, Docking, EMP)."""
    have = {_key(c) for c in conditions or []}
    augs = set(_names((weapon or {}).get("augmenters"), "augmenters"))
    reason = None
    if "docked" in have:
        reason = "docked ships cannot target anything"
    elif "ecm-active" in have:
        reason = "ships with active ECM cannot attack"
    elif "afterburner" in have:
        reason = "used its afterburner this turn"
    elif "cloaked" in have and "suppression" not in augs:
        reason = "ships with an active cloaking device cannot attack (suppression weapons can, at half damage)"
    return {"can_attack": reason is None, "reason": reason,
            "summary": "may attack" if reason is None else f"cannot attack: {reason}"}


DEVICES = {"cloak": ("cloaking-device", "Cloaked"), "ecm": ("ecm", "ECM active")}


def switch_device(conditions: list[str], device: str, on: bool, *, equipment_fitted: list[str] | None = None,
                  combat_phase_start: bool = True) -> dict:
    """Activate or deactivate a cloaking device or ECM: only at the start of the combat phase
    (seed 001, Cloaking Device, ECM).  While active the ship cannot attack."""
    kind = _key(device)
    if kind not in DEVICES:
        raise RuleError(_("device is cloak or ecm."), "device")
    item, condition = DEVICES[kind]
    if equipment_fitted is not None and item not in _names(equipment_fitted, "equipment"):
        raise RuleError(_("The ship has no %(item)s.", item=equipment()[item]["name"]), "device")
    if not combat_phase_start:
        raise RuleError(_("The %(item)s is switched only at the start of the combat phase.", item=equipment()[item]["name"]),
                        "device")
    kept = [c for c in conditions or [] if _key(c) != _key(condition)]
    new = [*kept, condition] if on else kept
    name = equipment()[item]["name"]
    return {"conditions": new, "summary": Said("%(item)s on: cannot attack while active", item=name) if on
            else Said("%(item)s off", item=name)}


def apply_emp(conditions: list[str]) -> dict:
    """EMP on a ship: it coasts 5 units in its next move; EMP does not stack (seed 001, EMP)."""
    have = any(_key(c) == "emp" for c in conditions or [])
    return {"conditions": list(conditions or []) if have else [*(conditions or []), "EMP"],
            "summary": "already under EMP (does not stack)" if have else "EMP: coasts 5 units next move"}
