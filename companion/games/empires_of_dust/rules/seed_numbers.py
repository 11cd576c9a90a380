"""Empires of Dust (seed 001): the numbers the seed gives in prose, and the small helpers every
rule uses (names as keys, whole numbers, rounding up, the D20).

The seed's tables are read from content by ``tables``; the numbers below are given only in prose,
each cited ``seed 001, <section>``.
"""
from __future__ import annotations

import math
from fractions import Fraction

from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.said import (
    N_,
    _,
    retold,  # noqa: F401  (the games' one rebuild, companion/said.py)
    spoken,  # noqa: F401  (the rules' refusals quote their sentences with it: companion/said.py)
)

SLUG = "empires-of-dust"
ARMOUR_TYPES = ("reflective", "reinforced", "reactive")  # seed 001, Armour
ARMOUR_TYPE_MAX = 20  # seed 001, Armour: "The maximum amount of armour ... of one type is 20."
ARMOUR_QUARTER = 4  # seed 001, Armour: "the armour rating is quartered, rounding up"
AUGMENTER_LIMIT = 2  # seed 001, Augmenters: "Ship weapons may be augmented twice"
DEFAULT_DETECTION_BASE = 30  # seed 001, Detecting Targets: "Distance <= 30 - Stealth + Detection"
PROSE_DETECTION_BASE = 25  # seed 001, Detecting Targets: "less than or equal to 25 units minus ..."
HALF = Fraction(1, 2)  # seed 001, Blast Damage and Augmenters: "halved, rounding up"
QUARTER = Fraction(1, 4)  # seed 001, Burning / Surge: "quartered, rounding up"
CLOAK_STEALTH = 10  # seed 001, Cloaking Device: "+10 modifier to the stealth stat"
OVERLOADER_DAMAGE = 10  # seed 001, Overloader: "+10 damage modifier"
ASSASSINS_TOUCH_PENETRATION = 10  # seed 001, Assassin's Touch: "+10 armour penetration modifier"
FINE_TUNED_DETECTION = 20  # seed 001, Fine-Tuned Detector: "+20 detection for the turn"
STAR_WELL_STEALTH = -10  # seed 001, Celestial Bodies: "gravity well diameter of a -10 stealth"
STAR_BODY_STEALTH = -20  # seed 001, Celestial Bodies: "in the suns own diameter -20 stealth"
MIN_MOVE = 5  # seed 001, Basic Movement: "any distance from 5 units to their full speed"
AFTERBURNER_SPEED = 5  # seed 001, Afterburner: "+5 movement speed modifier"
FTL_JUMP = 15  # seed 001, FTL Jump Drive: "an additional jump of 15 units"
TRACTOR_RANGE = 20  # seed 001, Tractor Beam: "All tractor beams have a range of 20."
TRACTOR_PASS, TRACTOR_FAIL = 10, 5  # seed 001, Tractor Beam: "10 units, otherwise it is 5 units"
OFF_THE_EDGE = 10  # seed 001, Off the Edge: "D20 roll > 10"
KNOCKBACK = 5  # seed 001, Knockback: "pushed ... for 5 units away"
BURN_TURNS = 2  # seed 001, Burning: "For two turns after an armour penetrating attack"
CHAIN_JUMPS = 2  # seed 001, Chain-Hit: "Up to two jumps in addition to the main hit"
SURGE_MAX = 3  # seed 001, Surge: "Set the surge counter to three."
# seed 001, Surge: counter 0 -> normal; counter 1 -> + base quartered; counter 2 -> + base halved;
# "will continue to deal damage at the highest level" -> counter 3 stays at + base halved.
SURGE_BONUS = {0: Fraction(0), 1: QUARTER, 2: HALF, 3: HALF}
SPECIALISATION_BONUS = 10  # seed 001, Specialization System: "+10 speed/stealth/detection/range/armour slots"
SPECIAL_EXTRA_SLOT = 1  # seed 001, Specialization System: Berserker "+1 weapon slot", Engineer "+1 drone launcher slot"
ENGINEER_LAUNCHES = 2  # seed 001, Specialization System: Engineer "launch 2 drones at a time"
LAUNCHES_PER_TURN = 1  # seed 001, Drone Launchers: "Only one drone can be launched per turn by each ship."
BATTLESHIP_SPECIALISATIONS = 2  # seed 001, Specialization System: "any two different specializations"
CLASS_ORDER = ("battleship", "cruiser", "destroyer", "frigate", "drone")  # seed 001, Initiative: Ship Class
D20 = 20
ROLL_WORDS = {
    "ecm": N_("ECM targeting roll"), "rending": N_("rending roll"), "immolation": N_("immolation roll"),
    "penetration": N_("armour penetration roll"), "penetration_2": N_("second scatter-shot penetration roll"),
    "critical": N_("critical hit roll"), "vampirism": N_("vampirism roll"), "emp": N_("EMP roll"),
}
ROLL_ORDER = tuple(ROLL_WORDS)  # the order in which attack() asks for the dice
# The most D20s one target of one attack can ask for: one per roll above (seed 001: the ECM
# targeting roll, Equipment; Rending, Immolation, the penetration roll and Scatter-Shot's second one,
# Critical Hit, Vampirism and EMP, Augmenters).  The eod-attack action declares it (issue 24).
ATTACK_D20S = len(ROLL_ORDER)


def _key(name) -> str:
    """'Assassin's Touch' -> 'assassins-touch', 'Star-port' -> 'star-port'."""
    if not isinstance(name, str):
        raise RuleError(_("Expected a name, got %(name)r.", name=name), "name")
    return "-".join(name.strip().lower().replace("'", "").replace("_", " ").split())


def _ceil(value: Fraction) -> int:
    return math.ceil(value)


def _pass_chance(needed: int) -> Fraction:
    """P(D20 > needed)."""
    return Fraction(min(D20, max(0, D20 - needed)), D20)


def _d20(needed: int, dice, rng, what: str) -> dict:
    value = roll_or_take(1, D20, dice, rng, what)[0]
    return {"needs": needed, "value": value, "passed": value > needed}


