"""Empires of Dust (seed 001, T. M. Owens 2015): pure rules procedures.

Every number copied from the seed is cited ``seed 001, <section>``.  The seed's tables live in
``content/empires-of-dust/tables/`` and are read from there (the single source): penetration,
ship classes, bases, weapon types, armour vs weapon, augmenters, equipment, auras, specialisations,
fleet sizes and victory points.  Effect sizes given only in prose are constants in
``seed_numbers``, each cited.

Conventions (see ``companion.dice.roll_or_take`` and ``companion.errors``): ``dice`` are the
player's real D20s (a list, used in the order the procedure asks for them, or for ``attack`` also a
dict ``{roll name: value}``), ``rng``
anything with ``randint(a, b)``; a forbidden move raises ``RuleError(sentence, field)``; results
are JSON-ready dicts with a human ``summary``.

Rounding: the seed rounds up everywhere ("halved, rounding up", "quartered, rounding up") and
"All rounding is done on the final stat values and not in the intermediate steps" (seed 001,
Augmenters), so shot values are exact fractions until the final value is rounded up.

This package re-exports every name of its topic modules, so ``from companion.games.empires_of_dust
import rules as eod`` reads ``eod.attack`` wherever it lives: ``seed_numbers`` (prose numbers, rounding,
the D20), ``tables``, ``armour`` (penetration), ``detection``, ``design_rules`` (the designer's checks),
``fleets`` (stats in play, fleet sizes), ``augmenter_effects``, ``attacks``, ``damage`` (repair, fire,
end of phase), ``equipment_rules`` (cool downs, FTL, tractor beams, ECM, cloak, EMP), ``movement``,
``drones_and_bases``, ``initiative`` and ``victory``.
"""
from __future__ import annotations

from .armour import _armour, _best_armour, _weapon_type, armour_ratings, effective_armour, penetration_needed
from .attacks import POSITIONS, SHOTS, _apply_hp, _attack_context, _attack_summary, _Dice, attack, attack_odds
from .augmenter_effects import _resolve, _shot_values, surge_step
from .damage import PHASE_END_CLEARS, _max_hp, add_burn, apply_damage, burn_tick, end_of_phase, heal_hp, repair
from .design_rules import (
    _armour_type_violations,
    _aura_cost,
    _base_violations,
    _drone_armour_rules,
    _drone_armour_violations,
    _drone_violations,
    _equipment_cost,
    _equipment_id,
    _names,
    _range_text,
    _spec_ids,
    _specialisation_violations,
    _weapon_list_violations,
    design_violations,
    fleet_violations,
    weapon_violations,
)
from .detection import _nebula, attacker_detection, detection_ok, detection_range, target_stealth, targeting
from .drones_and_bases import base_attacks, dock, launch_drone
from .equipment_rules import (
    DEVICES,
    apply_emp,
    can_attack,
    cooldown_ready,
    cooldown_ready_at,
    ecm_targeting,
    ftl_jump,
    switch_device,
    tractor_beam,
    use_equipment,
)
from .fleets import average_fleet, fleet_composition, fleet_preset, ship_stats, weapon_range
from .initiative import _roll_off, class_summary, initiative_order, roll_summary, rotating_summary
from .movement import movement_allowance, off_the_edge
from .seed_numbers import (
    AFTERBURNER_SPEED,
    ARMOUR_QUARTER,
    ARMOUR_TYPE_MAX,
    ARMOUR_TYPES,
    ASSASSINS_TOUCH_PENETRATION,
    ATTACK_D20S,
    AUGMENTER_LIMIT,
    BATTLESHIP_SPECIALISATIONS,
    BURN_TURNS,
    CHAIN_JUMPS,
    CLASS_ORDER,
    CLOAK_STEALTH,
    D20,
    DEFAULT_DETECTION_BASE,
    ENGINEER_LAUNCHES,
    FINE_TUNED_DETECTION,
    FTL_JUMP,
    HALF,
    KNOCKBACK,
    LAUNCHES_PER_TURN,
    MIN_MOVE,
    OFF_THE_EDGE,
    OVERLOADER_DAMAGE,
    PROSE_DETECTION_BASE,
    QUARTER,
    ROLL_ORDER,
    ROLL_WORDS,
    SLUG,
    SPECIAL_EXTRA_SLOT,
    SPECIALISATION_BONUS,
    STAR_BODY_STEALTH,
    STAR_WELL_STEALTH,
    SURGE_BONUS,
    SURGE_MAX,
    TRACTOR_FAIL,
    TRACTOR_PASS,
    TRACTOR_RANGE,
    _ceil,
    _d20,
    _key,
    _pass_chance,
    retold,
    spoken,
)
from .tables import (
    _check_d20,
    _records,
    _roll_cell,
    augmenters,
    auras,
    base_classes,
    equipment,
    fleet_sizes,
    nebulae,
    penetration_table,
    preferred_armour,
    ship_classes,
    specialisations,
    victory_points,
    weapon_types,
)
from .victory import (
    _alive,
    _class_of,
    capture_ship,
    capture_tally,
    checkmate,
    checkmate_problem,
    fleet_points,
    gladiator,
    gladiator_problem,
    interdiction,
    points_tally,
)

# the names this package re-exports (its topic modules' public names: see the docstring)
__all__ = [
    "AFTERBURNER_SPEED", "ARMOUR_QUARTER", "ARMOUR_TYPES", "ARMOUR_TYPE_MAX", "ASSASSINS_TOUCH_PENETRATION",
    "ATTACK_D20S", "AUGMENTER_LIMIT", "BATTLESHIP_SPECIALISATIONS", "BURN_TURNS", "CHAIN_JUMPS",
    "CLASS_ORDER", "CLOAK_STEALTH", "D20", "DEFAULT_DETECTION_BASE", "DEVICES", "ENGINEER_LAUNCHES",
    "FINE_TUNED_DETECTION", "FTL_JUMP", "HALF", "KNOCKBACK", "LAUNCHES_PER_TURN", "MIN_MOVE", "OFF_THE_EDGE",
    "OVERLOADER_DAMAGE", "PHASE_END_CLEARS", "POSITIONS", "PROSE_DETECTION_BASE", "QUARTER", "ROLL_ORDER",
    "ROLL_WORDS", "SHOTS", "SLUG", "SPECIALISATION_BONUS", "SPECIAL_EXTRA_SLOT", "STAR_BODY_STEALTH",
    "STAR_WELL_STEALTH", "SURGE_BONUS", "SURGE_MAX", "TRACTOR_FAIL", "TRACTOR_PASS", "TRACTOR_RANGE",
    "_Dice", "_alive", "_apply_hp", "_armour", "_armour_type_violations", "_attack_context",
    "_attack_summary", "_aura_cost", "_base_violations", "_best_armour", "_ceil", "_check_d20", "_class_of",
    "_d20", "_drone_armour_rules", "_drone_armour_violations", "_drone_violations", "_equipment_cost",
    "_equipment_id", "_key", "_max_hp", "_names", "_nebula", "_pass_chance", "_range_text", "_records",
    "_resolve", "_roll_cell", "_roll_off", "_shot_values", "_spec_ids", "_specialisation_violations",
    "_weapon_list_violations", "_weapon_type", "add_burn", "apply_damage", "apply_emp", "armour_ratings",
    "attack", "attack_odds", "attacker_detection", "augmenters", "auras", "average_fleet", "base_attacks",
    "base_classes", "burn_tick", "can_attack", "capture_ship", "capture_tally", "checkmate",
    "checkmate_problem", "class_summary", "cooldown_ready", "cooldown_ready_at", "design_violations", "detection_ok",
    "detection_range", "dock",
    "ecm_targeting", "effective_armour", "end_of_phase", "equipment", "fleet_composition", "fleet_points",
    "fleet_preset", "fleet_sizes", "fleet_violations", "ftl_jump", "gladiator", "gladiator_problem", "heal_hp",
    "initiative_order", "interdiction", "launch_drone", "movement_allowance", "nebulae", "off_the_edge",
    "penetration_needed", "penetration_table", "points_tally", "preferred_armour", "repair", "retold", "roll_summary",
    "rotating_summary", "ship_classes",
    "ship_stats", "specialisations", "spoken", "surge_step", "switch_device", "target_stealth", "targeting",
    "tractor_beam", "use_equipment", "victory_points", "weapon_range", "weapon_types", "weapon_violations",
]
