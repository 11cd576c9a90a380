"""Empires of Dust (seed 001, T. M. Owens 2015): pure rules procedures.

Every number copied from the seed is cited ``seed 001, <section>``.  The seed's tables live in
``content/empires-of-dust/tables/`` and are read from there (the single source): penetration,
ship classes, bases, weapon types, armour vs weapon, augmenters, equipment, auras, specialisations,
fleet sizes and victory points.  Effect sizes given only in prose are constants below, each cited.

Conventions (see ``companion.rules``): ``dice`` are the player's real D20s (a list, used in the
order the procedure asks for them, or for ``attack`` also a dict ``{roll name: value}``), ``rng``
anything with ``randint(a, b)``; a forbidden move raises ``RuleError(sentence, field)``; results
are JSON-ready dicts with a human ``summary``.

Rounding: the seed rounds up everywhere ("halved, rounding up", "quartered, rounding up") and
"All rounding is done on the final stat values and not in the intermediate steps" (seed 001,
Augmenters), so shot values are exact fractions until the final value is rounded up.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache

from companion.content import default_systems, lookup_table
from companion.rules import RuleError, roll_or_take

SLUG = "empires-of-dust"

# --- numbers given in the seed's prose (tables are read from content) ---------------------------
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
    "ecm": "ECM targeting roll", "rending": "rending roll", "immolation": "immolation roll",
    "penetration": "armour penetration roll", "penetration_2": "second scatter-shot penetration roll",
    "critical": "critical hit roll", "vampirism": "vampirism roll", "emp": "EMP roll",
}
ROLL_ORDER = tuple(ROLL_WORDS)  # the order in which attack() asks for the dice


# --- reading the seed's tables --------------------------------------------------------------------

def _key(name) -> str:
    """'Assassin's Touch' -> 'assassins-touch', 'Star-port' -> 'star-port'."""
    if not isinstance(name, str):
        raise RuleError(f"Expected a name, got {name!r}.", "name")
    return "-".join(name.strip().lower().replace("'", "").replace("_", " ").split())


def _records(table: str) -> list[dict]:
    raw = lookup_table(SLUG, table)
    return [dict(zip(raw["columns"], row)) for row in raw["rows"]]


def _roll_cell(cell) -> int | None:
    return cell if isinstance(cell, int) else None


@lru_cache(maxsize=1)
def penetration_table() -> tuple[tuple[int, ...], ...]:
    """The 21x21 table, ``[armour][penetration]`` (seed 001, Armour Penetration) from content."""
    raw = lookup_table(SLUG, "penetration")
    rows = tuple(tuple(row[1:]) for row in raw["rows"])
    if [row[0] for row in raw["rows"]] != list(range(21)) or any(len(r) != 21 for r in rows):
        raise RuleError("The penetration table must have armour rows 0-20 and penetration columns 0-20.")
    return rows


@lru_cache(maxsize=1)
def ship_classes() -> dict:
    out = {}
    for r in _records("ship-classes"):
        out[_key(r["Class"])] = {
            "name": r["Class"], "diameter": r["Diameter"], "hp": r["Health points"],
            "weapon_slots": r["Weapon slots"],
            "armour": (r["Armour min"], r["Armour max"]), "speed": (r["Speed min"], r["Speed max"]),
            "stealth": (r["Stealth min"], r["Stealth max"]),
            "detection": (r["Detection min"], r["Detection max"]),
            "stat_total": r["Stat total"] if isinstance(r["Stat total"], int) else None,
            "weapon_modifier": r["Weapon total modifier"],
        }
    return out


@lru_cache(maxsize=1)
def base_classes() -> dict:
    return {_key(r["Class"]): {
        "name": r["Class"], "diameter": r["Diameter"], "hp": r["Health points"],
        "weapon_slots": r["Weapon slots"], "armour_slots": r["Armour slots"], "stealth": r["Stealth"],
        "detection": r["Detection"], "docks": r["Docks"], "attacks": r["Attacks per combat phase"],
    } for r in _records("bases")}


@lru_cache(maxsize=1)
def weapon_types() -> dict:
    return {_key(r["Type"]): {
        "name": r["Type"], "blast": r["Blast diameter"], "range": (r["Range min"], r["Range max"]),
        "penetration": (r["Penetration min"], r["Penetration max"]),
        "damage": (r["Damage min"], r["Damage max"]), "total": r["Stat total"],
        "preferred_armour": _key(r["Preferred armour"]),
    } for r in _records("weapon-types")}


@lru_cache(maxsize=1)
def preferred_armour() -> dict:
    """weapon type -> the armour type that defends at full rating (the 'AR' cell of the table)."""
    out = {}
    for r in _records("armour-vs-weapon"):
        for column, cell in r.items():
            if cell == "AR":
                out[_key(column)] = _key(r["Armour type"])
    return out


@lru_cache(maxsize=1)
def augmenters() -> dict:
    return {r["Id"]: {"name": r["Augmenter"], "cost": r["Cost"], "roll": _roll_cell(r["D20 >"])}
            for r in _records("augmenters")}


@lru_cache(maxsize=1)
def equipment() -> dict:
    return {r["Id"]: {"name": r["Equipment"], "cost": r["Cost"], "roll": _roll_cell(r["D20 >"]),
                      "cooldown": _roll_cell(r["Cooldown"])} for r in _records("equipment")}


@lru_cache(maxsize=1)
def auras() -> dict:
    return {r["Id"]: {"name": r["Aura"], "cost": r["Cost"], "stat": r["Stat"], "modifier": r["Modifier"]}
            for r in _records("auras")}


@lru_cache(maxsize=1)
def specialisations() -> dict:
    """id -> {name, class}; the battleship's 'X 2' row is the two-specialisation rule, not a kind."""
    return {_key(r["Specialisation"]): {"name": r["Specialisation"], "class": _key(r["Ship class"])}
            for r in _records("specialisations") if r["Ship class"] != "Battleship"}


@lru_cache(maxsize=1)
def victory_points() -> dict:
    return {_key(r["Class destroyed"]): r["Points"] for r in _records("victory-points")}


@lru_cache(maxsize=1)
def fleet_sizes() -> dict:
    return {_key(r["Fleet"]): {_key(c): n for c, n in r.items() if c != "Fleet"}
            for r in _records("fleet-sizes")}


@lru_cache(maxsize=1)
def nebulae() -> dict:
    return {_key(r["Nebula"]): {"stealth": r["Stealth modifier"], "detection": r["Detection modifier"],
                                "half_speed": r["Movement"] != "normal"} for r in _records("nebulae")}


def _check_d20(name: str) -> int:
    """The 'D20 >' number of an augmenter or equipment item, from its table."""
    item = augmenters().get(name) or equipment().get(name)
    return item["roll"]


def _ceil(value: Fraction) -> int:
    return math.ceil(value)


def _int(value, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{field} must be a whole number; got {value!r}.", field)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        limits = (f"from {lo} to {hi}" if lo is not None and hi is not None
                  else f"at least {lo}" if lo is not None else f"at most {hi}")
        raise RuleError(f"{field} must be {limits}; got {value}.", field)
    return value


def _pass_chance(needed: int) -> Fraction:
    """P(D20 > needed)."""
    return Fraction(min(D20, max(0, D20 - needed)), D20)


def _d20(needed: int, dice, rng, what: str) -> dict:
    value = roll_or_take(1, D20, dice, rng, what)[0]
    return {"needs": needed, "value": value, "passed": value > needed}


# --- armour, penetration, detection ------------------------------------------------------------

def penetration_needed(armour: int, penetration: int) -> int:
    """What the D20 must be GREATER than (seed 001, Armour Penetration table).

    Penetration above 20 (assassin's touch, boons) reads the 20 column and below 0 (banes) the 0
    column: the table stops there (decision; the seed gives no column beyond 20).
    """
    armour = _int(armour, "armour", 0, ARMOUR_TYPE_MAX)
    penetration = min(20, max(0, _int(penetration, "penetration")))
    return penetration_table()[armour][penetration]


def _armour(armour, field: str = "armour") -> dict:
    if armour is None:
        armour = {}
    if not isinstance(armour, dict):
        raise RuleError(f"{field} must map armour types ({', '.join(ARMOUR_TYPES)}) to ratings.", field)
    out = {t: 0 for t in ARMOUR_TYPES}
    for name, value in armour.items():
        kind = _key(name)
        if kind not in out:
            raise RuleError(f"Unknown armour type {name!r}; armour is {', '.join(ARMOUR_TYPES)}.", field)
        out[kind] = _int(value, f"{field}.{kind}", 0)
    return out


def _weapon_type(name) -> str:
    kind = _key(name)
    if kind not in weapon_types():
        raise RuleError(f"Unknown weapon type {name!r}; weapons are beam, projectile or missile.", "type")
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


def detection_range(stealth: int, detection: int, base: int = DEFAULT_DETECTION_BASE) -> int:
    """Greatest distance at which the target can be locked: base - stealth + detection."""
    return _int(base, "base") - _int(stealth, "stealth") + _int(detection, "detection")


def detection_ok(distance: int, stealth: int, detection: int, base: int = DEFAULT_DETECTION_BASE) -> bool:
    """Distance <= base - target stealth + attacker detection (seed 001, Detecting Targets).

    The seed's formula uses 30, its prose 25: ``base`` is the table's "detection_base" setting
    (default 30)."""
    return _int(distance, "distance", 0) <= detection_range(stealth, detection, base)


def target_stealth(stealth: int, *, cloaked: bool = False, nebula: str | None = None,
                   star: str | None = None, aura: int = 0) -> int:
    """The target's stealth with its modifiers: cloak +10, nebula +10, star gravity well -10 or
    inside the star -20 (seed 001, Cloaking Device, Nebula, Celestial Bodies), aura +-5 per aura."""
    value = _int(stealth, "stealth") + _int(aura, "aura")
    if cloaked:
        value += CLOAK_STEALTH
    if nebula is not None:
        value += _nebula(nebula)["stealth"]
    if star is not None:
        star = _key(star)
        if star not in ("gravity-well", "star"):
            raise RuleError("star must be 'gravity-well' or 'star' (inside the star's diameter).", "star")
        value += STAR_WELL_STEALTH if star == "gravity-well" else STAR_BODY_STEALTH
    return value


def attacker_detection(detection: int, *, nebula: str | None = None, fine_tuned: bool = False,
                       aura: int = 0) -> int:
    """The attacker's detection: nebula -10, fine-tuned detector +20 (seed 001), aura +-5 per aura."""
    value = _int(detection, "detection") + _int(aura, "aura")
    if nebula is not None:
        value += _nebula(nebula)["detection"]
    if fine_tuned:
        value += FINE_TUNED_DETECTION
    return value


def _nebula(name: str) -> dict:
    found = nebulae().get(_key(name))
    if found is None:
        raise RuleError(f"Unknown nebula {name!r}; nebulae are sparse or dense.", "nebula")
    return found


def targeting(distance: int, weapon_range: int, stealth: int, detection: int, *,
              base: int = DEFAULT_DETECTION_BASE, designated: bool = False, docked: bool = False) -> dict:
    """Can the attacker fire at this target?  Detection (or a target designator's mark) and range.

    seed 001, Target Designator: "ships that can't detect it, but are still in range can fire at it";
    Docking: "Once the ship is docked it cannot be targeted by any ships".
    """
    limit = detection_range(stealth, detection, base)
    detected = detection_ok(distance, stealth, detection, base)
    in_range = distance <= _int(weapon_range, "weapon_range", 0)
    allowed = in_range and (detected or designated) and not docked
    if docked:
        why = "docked ships cannot be targeted"
    elif not in_range:
        why = f"out of range ({distance} > {weapon_range})"
    elif detected:
        why = "detected and in range"
    elif designated:
        why = "not detected, but designated and in range"
    else:
        why = "not detected"
    return {"distance": distance, "detection_range": limit, "detected": detected, "in_range": in_range,
            "can_fire": allowed,
            "summary": f"distance {distance} vs detection {base} - {stealth} + {detection} = {limit}, "
                       f"range {weapon_range}: {why}"}


# --- the fleet designer --------------------------------------------------------------------------

def _range_text(bounds: tuple[int, int]) -> str:
    lo, hi = bounds
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _names(values, field: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, list):
        raise RuleError(f"{field} must be a list of names.", field)
    return [_key(v) for v in values]


def _spec_ids(ship: dict) -> list[str]:
    return _names(ship.get("specialisations"), "specialisations")


def _equipment_id(name: str) -> tuple[str, str | None]:
    """'tractor-beam-push' -> ('tractor-beam', 'push')."""
    for mode in ("push", "pull"):
        if name == f"tractor-beam-{mode}":
            return "tractor-beam", mode
    return name, None


def design_violations(ship: dict) -> list[str]:
    """Every broken design rule of a ship, drone or base, one sentence each; [] when legal.

    Ship (seed 001, Ship Stats and Design): armour slots + speed + stealth + detection + 5 per
    piece of equipment + 10 per aura = the class stat total, each stat within the class range.
    Weapons (Weapon Stats and Design): range + penetration + damage + 5 per augmenter = the type
    total (drones -10, battleships +10), each stat within the type range; at most two augmenters,
    none on drone weapons (Augmenters); at most 20 armour of one type (Armour); specialisations by
    class, battleships any two different (Specialization System).
    """
    if not isinstance(ship, dict):
        raise RuleError("A ship is a table of its stats.", "ship")
    cls = _key(ship.get("class", ""))
    if cls in base_classes():
        return _base_violations(ship, cls)
    if cls not in ship_classes():
        known = ", ".join([*ship_classes(), *base_classes()])
        raise RuleError(f"Unknown class {ship.get('class')!r}; choose one of {known}.", "class")
    label = f"{ship.get('name', 'Unnamed')} ({cls})"
    if cls == "drone":
        return _drone_violations(ship, label)
    spec = ship_classes()[cls]
    out: list[str] = []
    specs = _spec_ids(ship)
    out += _specialisation_violations(label, cls, specs)
    armour = _armour(ship.get("armour"))
    extra = _armour(ship.get("extra_armour"), "extra_armour")
    out += _armour_type_violations(label, {t: armour[t] + extra[t] for t in ARMOUR_TYPES})
    if sum(extra.values()):
        # seed 001, Specialization System: Juggernaut "+10 armour slots" (decision: these 10 slots
        # are a free bonus outside the stat total, like Speed Demon's "+10 speed").
        if "juggernaut" not in specs:
            out.append(f"{label}: extra armour slots come only with the Juggernaut specialisation.")
        elif sum(extra.values()) > SPECIALISATION_BONUS:
            out.append(f"{label}: the Juggernaut's extra armour is at most {SPECIALISATION_BONUS}; "
                       f"it has {sum(extra.values())}.")
    if "hp" in ship and _int(ship["hp"], "hp") != spec["hp"]:
        out.append(f"{label}: a {cls} has {spec['hp']} health points, not {ship['hp']}.")
    total_armour = sum(armour.values())
    stats = {"armour": total_armour}
    for stat in ("speed", "stealth", "detection"):
        stats[stat] = _int(ship.get(stat, 0), stat)
    for stat, value in stats.items():
        lo, hi = spec[stat]
        if not lo <= value <= hi:
            out.append(f"{label}: {stat} {value} is outside the {cls} range {_range_text(spec[stat])}.")
    eq_cost, eq_out = _equipment_cost(label, _names(ship.get("equipment"), "equipment"))
    aura_cost, aura_out = _aura_cost(label, _names(ship.get("auras"), "auras"), "psy-ops" in specs)
    out += eq_out + aura_out
    used = total_armour + stats["speed"] + stats["stealth"] + stats["detection"] + eq_cost + aura_cost
    if used != spec["stat_total"]:
        out.append(f"{label}: armour {total_armour} + speed {stats['speed']} + stealth {stats['stealth']}"
                   f" + detection {stats['detection']} + equipment {eq_cost} + auras {aura_cost} = {used},"
                   f" but a {cls}'s stat total is {spec['stat_total']}.")
    out += _weapon_list_violations(label, ship.get("weapons"), spec["weapon_slots"], specs,
                                   spec["weapon_modifier"], cls)
    return out


def _armour_type_violations(label: str, armour: dict) -> list[str]:
    return [f"{label}: {kind} armour {value} is over {ARMOUR_TYPE_MAX}, the most of one type."
            for kind, value in armour.items() if value > ARMOUR_TYPE_MAX]


def _specialisation_violations(label: str, cls: str, specs: list[str]) -> list[str]:
    out = []
    known = specialisations()
    for s in specs:
        if s not in known:
            out.append(f"{label}: unknown specialisation {s!r}; they are {', '.join(v['name'] for v in known.values())}.")
    valid = [s for s in specs if s in known]
    if cls == "battleship":
        if len(set(valid)) != len(valid):
            out.append(f"{label}: a battleship's two specialisations must be different.")
        if len(specs) > BATTLESHIP_SPECIALISATIONS:
            out.append(f"{label}: a battleship takes at most two specialisations; it has {len(specs)}.")
        return out
    if len(specs) > 1:
        out.append(f"{label}: a {cls} takes at most one specialisation; it has {len(specs)}.")
    own = [v["name"] for v in known.values() if v["class"] == cls]
    for s in valid:
        if known[s]["class"] != cls:
            out.append(f"{label}: {known[s]['name']} is a {known[s]['class']} specialisation; a {cls} "
                       f"can take {' or '.join(own)}.")
    return out


def _equipment_cost(label: str, items: list[str]) -> tuple[int, list[str]]:
    cost, out = 0, []
    for item in items:
        kind, mode = _equipment_id(item)
        if kind not in equipment():
            out.append(f"{label}: unknown equipment {item!r}.")
            continue
        if kind == "tractor-beam" and mode is None:
            # seed 001, Tractor Beam: "The beam must be defined as push or pull type."
            out.append(f"{label}: a tractor beam must be defined as push or pull (tractor-beam-push or tractor-beam-pull).")
        cost += equipment()[kind]["cost"]
    return cost, out


def _aura_cost(label: str, items: list[str], psy_ops: bool) -> tuple[int, list[str]]:
    cost, out = 0, []
    for item in items:
        if item not in auras():
            out.append(f"{label}: unknown aura {item!r}; auras are a boon or bane of speed, stealth, "
                       "detection, range, penetration or damage.")
            continue
        cost += auras()[item]["cost"]
    known = [i for i in items if i in auras()]
    if psy_ops and known:
        # seed 001, Specialization System: Psy-Ops "+1 aura, no negative modifier" (decision: one
        # aura generator costs nothing against the stat total).
        cost -= auras()[known[0]]["cost"]
    return cost, out


def _weapon_list_violations(label: str, weapons, slots: int, specs: list[str], modifier: int,
                            host: str) -> list[str]:
    if weapons is None:
        weapons = []
    if not isinstance(weapons, list):
        raise RuleError("weapons must be a list of weapons.", "weapons")
    out = []
    launchers = sum(1 for w in weapons if isinstance(w, dict) and "drone" in w)
    guns = len(weapons) - launchers
    if "berserker" in specs:
        slots += SPECIAL_EXTRA_SLOT
    extra_launcher = SPECIAL_EXTRA_SLOT if "engineer" in specs else 0
    if guns > slots or len(weapons) > slots + min(extra_launcher, launchers):
        more = " (+1 drone launcher slot for an Engineer)" if extra_launcher else ""
        out.append(f"{label}: has {slots} weapon slots{more} but carries {guns} weapons and "
                   f"{launchers} drone launchers.")
    for weapon in weapons:
        out += weapon_violations(weapon, owner=label, modifier=modifier, host=host)
    return out


def weapon_violations(weapon: dict, *, owner: str = "", modifier: int = 0, host: str = "ship") -> list[str]:
    """Broken weapon design rules (seed 001, Weapon Stats and Design, Augmenters, Drone Launchers).

    A weapon with a ``drone`` key is a drone launcher: its stats are the drone's single weapon
    (type total -10, no augmenters) and ``drone.armour`` is the drone's armour (5, one type).
    """
    if not isinstance(weapon, dict):
        raise RuleError("A weapon is a table of type, range, penetration, damage and augmenters.", "weapons")
    out = []
    is_drone = "drone" in weapon or host == "drone"
    kind = _key(weapon.get("type", ""))
    prefix = f"{owner}, " if owner else ""
    label = f"{prefix}{weapon.get('name', 'Unnamed weapon')} ({'drone ' if is_drone else ''}{kind})"
    if kind not in weapon_types():
        return [f"{label}: unknown weapon type; weapons are beam, projectile or missile."]
    wt = weapon_types()[kind]
    augs = _names(weapon.get("augmenters"), "augmenters")
    if is_drone:
        modifier = ship_classes()["drone"]["weapon_modifier"]
        if augs:
            out.append(f"{label}: drone weapons cannot be augmented.")
        if "drone" in weapon:
            out += _drone_armour_violations(label, weapon["drone"])
    else:
        if len(augs) > AUGMENTER_LIMIT:
            out.append(f"{label}: at most {AUGMENTER_LIMIT} augmenters per weapon; it has {len(augs)}.")
        if len(set(augs)) != len(augs):
            # decision: the seed gives no effect for the same augmenter twice
            out.append(f"{label}: its augmenters must be different.")
    for a in augs:
        if a not in augmenters():
            out.append(f"{label}: unknown augmenter {a!r}.")
    values = {stat: _int(weapon.get(stat, 0), stat) for stat in ("range", "penetration", "damage")}
    for stat, value in values.items():
        lo, hi = wt[stat]
        if not lo <= value <= hi:
            out.append(f"{label}: {stat} {value} is outside the {kind} range {_range_text(wt[stat])}.")
    aug_cost = sum(augmenters()[a]["cost"] for a in augs if a in augmenters())
    used = sum(values.values()) + aug_cost
    target = wt["total"] + modifier
    if used != target:
        why = kind if modifier == 0 else (
            f"{kind} {wt['total']}, {modifier:+d} for a {'drone' if is_drone else 'battleship'}")
        out.append(f"{label}: range {values['range']} + penetration {values['penetration']} + damage "
                   f"{values['damage']} + augmenters {aug_cost} = {used}, but it must equal {target} ({why}).")
    return out


def _drone_armour_violations(label: str, drone) -> list[str]:
    if not isinstance(drone, dict):
        raise RuleError("A drone launcher's drone is a table with its armour.", "drone")
    armour = _armour(drone.get("armour"), "drone.armour")
    return _drone_armour_rules(label, armour)


def _drone_armour_rules(label: str, armour: dict) -> list[str]:
    out = []
    if sum(1 for v in armour.values() if v) > 1:
        # seed 001, Armour: "Drones must have all of their armour be of the same type."
        out.append(f"{label}: drones must have all of their armour of one type.")
    lo, hi = ship_classes()["drone"]["armour"]
    if not lo <= sum(armour.values()) <= hi:
        out.append(f"{label}: drone armour {sum(armour.values())} must be {_range_text((lo, hi))}.")
    return out


def _drone_violations(ship: dict, label: str) -> list[str]:
    spec = ship_classes()["drone"]
    out = _drone_armour_rules(label, _armour(ship.get("armour")))
    for stat in ("speed", "stealth", "detection"):
        if stat in ship and _int(ship[stat], stat) != spec[stat][0]:
            out.append(f"{label}: a drone's {stat} is {spec[stat][0]}, not {ship[stat]}.")
    if "hp" in ship and _int(ship["hp"], "hp") != spec["hp"]:
        out.append(f"{label}: a drone has {spec['hp']} health points, not {ship['hp']}.")
    for what in ("equipment", "auras", "specialisations"):
        if ship.get(what):
            # seed 001, Drone Launchers: "unable to have equipment, take aura effects or specializations"
            out.append(f"{label}: drones cannot have {what}.")
    weapons = ship.get("weapons") or []
    if len(weapons) > spec["weapon_slots"]:
        out.append(f"{label}: a drone equips a single weapon; it has {len(weapons)}.")
    for weapon in weapons:
        if isinstance(weapon, dict) and "drone" in weapon:
            out.append(f"{label}: a drone cannot carry a drone launcher.")
        out += weapon_violations(weapon, owner=label, host="drone")
    return out


def _base_violations(base: dict, cls: str) -> list[str]:
    spec = base_classes()[cls]
    label = f"{base.get('name', 'Unnamed')} ({cls})"
    armour = _armour(base.get("armour"))
    out = _armour_type_violations(label, armour)
    if sum(armour.values()) > spec["armour_slots"]:
        out.append(f"{label}: armour {sum(armour.values())} is more than the {spec['armour_slots']} "
                   f"armour slots of a {cls}.")
    for stat in ("hp", "stealth", "detection"):
        if stat in base and _int(base[stat], stat) != spec[stat]:
            out.append(f"{label}: a {cls}'s {stat} is {spec[stat]}, not {base[stat]}.")
    for what in ("equipment", "auras", "specialisations"):
        if base.get(what):
            # decision: bases have no stat total to pay for equipment or auras, and the
            # specialisation table lists ship classes only (seed 001, Bases).
            out.append(f"{label}: bases take weapons and drones only, not {what}.")
    out += _weapon_list_violations(label, base.get("weapons"), spec["weapon_slots"], [], 0, cls)
    return out


def fleet_violations(ships: list[dict]) -> list[str]:
    """Every design violation of every ship of a fleet."""
    return [v for ship in ships for v in design_violations(ship)]


def ship_stats(ship: dict) -> dict:
    """The ship's stats in play: designed stats plus specialisation modifiers (seed 001,
    Specialization System; decision: the modifiers come on top of the designed stat total)."""
    cls = _key(ship.get("class", ""))
    if cls not in ship_classes():
        raise RuleError(f"Unknown ship class {ship.get('class')!r}.", "class")
    specs = _spec_ids(ship) if cls != "drone" else []
    armour = _armour(ship.get("armour"))
    extra = _armour(ship.get("extra_armour"), "extra_armour")
    bonus = {"speed": "speed-demon", "stealth": "seer", "detection": "scout"}
    stats = {stat: _int(ship.get(stat, ship_classes()[cls][stat][0]), stat)
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
    return _int(weapon.get("range", 0), "range") + bonus + _int(aura, "aura")


# --- fleets --------------------------------------------------------------------------------------

def average_fleet() -> list[dict]:
    """The appendix's average fleet (content/empires-of-dust/fleets/average-fleet.toml)."""
    return default_systems()[SLUG].fleets["average-fleet"]["ships"]


def fleet_preset(size: str) -> dict:
    """Suggested ship counts of a fleet size: patrol, escort, battalion, brigade, division, armada."""
    found = fleet_sizes().get(_key(size))
    if found is None:
        raise RuleError(f"Unknown fleet size {size!r}; sizes are {', '.join(fleet_sizes())}.", "size")
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


# --- attacks -------------------------------------------------------------------------------------

POSITIONS = ("direct", "blast", "touching")
SHOTS = ("main", "chain", "furtherance", "point-defence")


def _shot_values(weapon: dict, *, position: str, shot: str, overloader: bool, assassins_touch: bool,
                 penetration_modifier: int, damage_modifier: int, halvings: list[str]) -> tuple[Fraction, Fraction]:
    """Exact (unrounded) penetration and base damage of one shot on one target."""
    pen = Fraction(_int(weapon.get("penetration", 0), "penetration") + _int(penetration_modifier, "penetration_modifier"))
    dmg = Fraction(_int(weapon.get("damage", 0), "damage") + _int(damage_modifier, "damage_modifier"))
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


def _attack_context(weapon: dict, target: dict, attacker: dict | None, *, position: str, shot: str,
                    jump: int, overloader: bool, assassins_touch: bool, penetration_modifier: int,
                    damage_modifier: int, surge_count: int, berserker_second: bool, cloaked: bool,
                    designating: bool, target_ecm: bool, ally: bool) -> dict:
    if not isinstance(weapon, dict) or not isinstance(target, dict):
        raise RuleError("weapon and target must be tables.", "weapon")
    attacker = attacker or {}
    kind = _weapon_type(weapon.get("type", ""))
    augs = set(_names(weapon.get("augmenters"), "augmenters"))
    unknown = augs - set(augmenters())
    if unknown:
        raise RuleError(f"Unknown augmenter {sorted(unknown)[0]!r}.", "augmenters")
    if position not in POSITIONS:
        raise RuleError(f"position must be one of {', '.join(POSITIONS)}.", "position")
    if shot not in SHOTS:
        raise RuleError(f"shot must be one of {', '.join(SHOTS)}.", "shot")
    specs = [_key(s) for s in attacker.get("specialisations") or []]
    conditions = {_key(c) for c in attacker.get("conditions") or []}
    if target.get("docked") and not (ally and _key(attacker.get("class", "")) in base_classes()):
        # seed 001, Docking: "cannot be targeted by any ships ... The base may still target the
        # docked ships with its transference augmented weapons"
        raise RuleError("A docked ship cannot be targeted, except by its base's transference weapons "
                        "(seed 001, Docking).", "target")
    if attacker.get("docked"):
        raise RuleError("A docked ship cannot target anything (seed 001, Docking).", "attacker")
    if "ecm-active" in conditions:
        raise RuleError("A ship with active ECM cannot attack (seed 001, ECM).", "attacker")
    if "afterburner" in conditions:
        raise RuleError("A ship that used its afterburner cannot attack that turn (seed 001, Afterburner).", "attacker")
    cloaked = cloaked or "cloaked" in conditions
    halvings = []
    if cloaked:
        if "suppression" not in augs:
            raise RuleError("A ship with an active cloaking device cannot attack unless the weapon has "
                            "suppression (seed 001, Cloaking Device, Suppression).", "attacker")
        halvings.append("suppression while cloaked")
    if "transference" in augs and not ally:
        raise RuleError("A transference weapon cannot be used against an enemy or neutral target "
                        "(seed 001, Transference).", "target")
    if ally:
        if "transference" not in augs:
            raise RuleError("Only transference weapons fire at your own ships; blast damage does not "
                            "damage allied ships (seed 001, Blast Damage, Transference).", "target")
        if position != "direct":
            raise RuleError("Transference has no blast damage (seed 001, Transference).", "position")
    if shot == "chain":
        if "chain-hit" not in augs:
            raise RuleError("Only a chain-hit weapon jumps to further targets.", "shot")
        if not 1 <= _int(jump, "jump") <= CHAIN_JUMPS:
            raise RuleError(f"A chain-hit makes up to {CHAIN_JUMPS} jumps after the main hit (seed 001, Chain-Hit).", "jump")
    if shot == "furtherance" and "furtherance" not in augs:
        raise RuleError("Only a furtherance weapon goes through to targets behind (seed 001, Furtherance).", "shot")
    if shot == "point-defence":
        if "point-defence" not in augs:
            raise RuleError("Only a point-defence weapon fires in addition to the primary weapon.", "shot")
        if _key(target.get("class", "drone")) != "drone":
            raise RuleError("A point-defence weapon fired in addition to the primary weapon targets "
                            "drones only (seed 001, Point-Defense).", "target")
    if designating:
        if "target-designator" not in augs:
            raise RuleError("Only a target designator weapon designates targets.", "designating")
        halvings.append("target designator")
    if berserker_second:
        if "berserker" not in specs:
            raise RuleError("Only a Berserker fires a second shot (seed 001, Specialization System).", "berserker_second")
        halvings.append("berserker's second shot")
    if not 0 <= _int(surge_count, "surge_count") <= SURGE_MAX:
        raise RuleError(f"The surge counter runs from 0 to {SURGE_MAX}.", "surge_count")
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
    damage = base * passes * HALF if rolls == 2 else (base if penetrated else Fraction(0))
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


class _Dice:
    """Hands out the player's dice (a list in ROLL_ORDER, or a dict by roll name), else the RNG."""

    def __init__(self, dice, rng):
        if dice is not None and not isinstance(dice, (list, tuple, dict)):
            raise RuleError("dice must be a list of D20 results or a table of roll name -> D20.", "dice")
        self.dice, self.rng, self.used, self.log = dice, rng, set(), []

    def take(self, name: str, needs: int) -> bool:
        what = f"D20 for the {ROLL_WORDS[name]}"
        if isinstance(self.dice, dict):
            given = self.dice.get(name)
            self.used.add(name)
        elif isinstance(self.dice, (list, tuple)) and len(self.used) < len(self.dice):
            given = self.dice[len(self.used)]
            self.used.add(len(self.used))
        else:
            given = None
        if given is None and self.rng is None:
            raise RuleError(f"Enter the {what} (D20 > {needs}), or let the companion roll.", f"dice.{name}")
        roll = _d20(needs, None if given is None else [given], self.rng, what)
        self.log.append({"roll": name, **roll})
        return roll["passed"]

    def finish(self) -> None:
        if isinstance(self.dice, dict):
            extra = set(self.dice) - self.used
            if extra:
                raise RuleError(f"This attack does not use the {ROLL_WORDS.get(sorted(extra)[0], sorted(extra)[0])}.",
                                f"dice.{sorted(extra)[0]}")
        elif isinstance(self.dice, (list, tuple)) and len(self.used) < len(self.dice):
            raise RuleError(f"This attack used {len(self.used)} D20s; {len(self.dice)} were entered.", "dice")


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


def _max_hp(ship: dict) -> int | None:
    if "max_hp" in ship:
        return _int(ship["max_hp"], "max_hp", 1)
    cls = _key(ship.get("class", ""))
    if cls in ship_classes():
        return ship_classes()[cls]["hp"]
    if cls in base_classes():
        return base_classes()[cls]["hp"]
    return None


def _apply_hp(result: dict, target: dict, attacker: dict | None, ally: bool) -> None:
    if "hp" in target:
        hp = _int(target["hp"], "target.hp", 0)
        if ally:
            after = heal_hp(hp, result["target_heal"], _max_hp(target))
        else:
            after = max(0, hp - result["damage"])
        result["target_hp"] = after
        result["target_destroyed_at_end_of_phase"] = after == 0
    if attacker and "hp" in attacker:
        hp = _int(attacker["hp"], "attacker.hp", 0)
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
    for combo in itertools.product((True, False), repeat=len(names)):
        outcome = dict(zip(names, combo))
        p = Fraction(1)
        for name, passed in outcome.items():
            chance = _pass_chance(thresholds[name])
            p *= chance if passed else 1 - chance
        if p == 0:
            continue
        res = _resolve(ctx, lambda name, needs: outcome[name])
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


# --- per-ship state: HP, burning, surge, cooldowns, conditions -------------------------------------

def heal_hp(hp: int, amount: int, max_hp: int | None) -> int:
    """Repair: never above the initial hit points (seed 001, Transference)."""
    if max_hp is None:
        raise RuleError("Give the ship's initial hit points (max_hp) to repair it.", "max_hp")
    return min(max_hp, hp + max(0, amount))


def apply_damage(ship: dict, amount: int) -> dict:
    """Damage a ship; at 0 it stays in play (can fire, can be repaired) until the end of the combat
    phase (seed 001, Combat Phase: "all combat is considered to be simultaneous")."""
    hp = _int(ship.get("hp"), "hp", 0)
    amount = _int(amount, "amount", 0)
    after = max(0, hp - amount)
    return {"name": ship.get("name"), "hp": after, "destroyed_at_end_of_phase": after == 0,
            "summary": f"{ship.get('name', 'ship')}: {hp} - {amount} = {after} HP"
                       + (" (destroyed at end of phase unless repaired)" if after == 0 else "")}


def repair(ship: dict, amount: int) -> dict:
    """Repair a ship (transference), capped at its initial hit points."""
    hp = _int(ship.get("hp"), "hp", 0)
    after = heal_hp(hp, _int(amount, "amount", 0), _max_hp(ship))
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
        raise RuleError("phase must be Movement or Combat.", "phase")
    clears = {_key(c) for c in PHASE_END_CLEARS[phase_key]}
    destroyed, surviving = [], []
    for ship in ships:
        hp = _int(ship.get("hp"), "hp", 0)
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
            raise RuleError("Give the fire's base damage or its damage per turn.", "base_damage")
        per_turn = _ceil(Fraction(base_damage) * QUARTER)
    return [*(burns or []), {"per_turn": _int(per_turn, "per_turn", 0), "turns_left": BURN_TURNS}]


def burn_tick(burns: list[dict]) -> dict:
    """One turn of fire: every stacked fire hits; each has one turn fewer left.

    Decision: fires tick in the combat phase of each of the two turns after the hit, so a ship
    burnt to 0 is destroyed at the end of that combat phase like any other damage."""
    damage = 0
    left = []
    for burn in burns:
        damage += _int(burn["per_turn"], "per_turn", 0)
        turns = _int(burn["turns_left"], "turns_left", 1) - 1
        if turns > 0:
            left.append({**burn, "turns_left": turns})
    return {"damage": damage, "burns": left,
            "summary": f"fires burn for {damage} ({len(burns)} fire{'s' if len(burns) != 1 else ''}); "
                       f"{len(left)} still burning"}


def surge_step(count: int, penetrated: bool, *, same_target: bool = True, attacked: bool = True) -> dict:
    """The surge ladder (seed 001, Surge): the bonus this shot earns and the new counter."""
    count = _int(count, "surge_count", 0, SURGE_MAX)
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


def cooldown_ready_at(used_phase: int, item: str = "overloader") -> int:
    """Used in phase N (the Nth movement phase for FTL, the Nth combat phase otherwise) -> ready in
    phase N + 3: "a cool down time of 2 turns, meaning it can be used every third ... phase"
    (seed 001, Equipment)."""
    spec = equipment().get(_key(item))
    if spec is None or spec["cooldown"] is None:
        raise RuleError(f"{item!r} has no cool down.", "item")
    return _int(used_phase, "used_phase", 1) + spec["cooldown"]


def cooldown_ready(last_used: int | None, phase: int, item: str = "overloader") -> bool:
    return last_used is None or _int(phase, "phase", 1) >= cooldown_ready_at(last_used, item)


def use_equipment(item: str, phase: int, last_used: int | None = None) -> dict:
    """Use overloader, assassin's touch, fine-tuned detector or FTL drive in ``phase``."""
    key = _key(item)
    if not cooldown_ready(last_used, phase, key):
        raise RuleError(f"{equipment()[key]['name']} is cooling down: used in phase {last_used}, ready in "
                        f"phase {cooldown_ready_at(last_used, key)}.", "phase")
    ready = cooldown_ready_at(phase, key)
    return {"item": key, "used_phase": phase, "ready_at": ready,
            "summary": f"{equipment()[key]['name']} used in phase {phase}; ready again in phase {ready}"}


def ftl_jump(phase: int, last_used: int | None = None, *, dice=None, rng=None) -> dict:
    """FTL jump drive after moving: D20 > 5 jumps 15 units (seed 001, FTL Jump Drive).
    Decision: the attempt starts the cool down whether or not the roll passes."""
    used = use_equipment("ftl-jump-drive", phase, last_used)
    roll = _d20(_check_d20("ftl-jump-drive"), dice, rng, "D20 for the FTL jump")
    distance = FTL_JUMP if roll["passed"] else 0
    return {**used, "roll": roll, "jumped": roll["passed"], "distance": distance,
            "summary": f"FTL jump: rolled {roll['value']} (> {roll['needs']}): "
                       + (f"jumps {distance} units" if distance else "no jump") + f"; ready again in phase {used['ready_at']}"}


def tractor_beam(mode: str, distance: int, *, dice=None, rng=None) -> dict:
    """Tractor beam at the end of the movement phase: range 20, D20 > 10 moves 10 units, else 5."""
    mode = _key(mode)
    if mode not in ("push", "pull"):
        raise RuleError("A tractor beam is a push or a pull beam.", "mode")
    if _int(distance, "distance", 0) > TRACTOR_RANGE:
        raise RuleError(f"Tractor beams have a range of {TRACTOR_RANGE}; the target is {distance} away.", "distance")
    roll = _d20(_check_d20("tractor-beam"), dice, rng, "D20 for the tractor beam")
    moved = TRACTOR_PASS if roll["passed"] else TRACTOR_FAIL
    return {"mode": mode, "roll": roll, "moved": moved,
            "summary": f"tractor beam ({mode}): rolled {roll['value']} (> {roll['needs']}): {mode}s {moved} units"}


def ecm_targeting(*, dice=None, rng=None) -> dict:
    """Targeting a ship with active ECM: D20 > 5, or the attacker cannot target any other ship."""
    roll = _d20(_check_d20("ecm"), dice, rng, "D20 for the ECM targeting roll")
    return {"roll": roll, "locked": roll["passed"],
            "summary": f"ECM targeting: rolled {roll['value']} (> {roll['needs']}): "
                       + ("target locked" if roll["passed"] else "no lock, cannot target another ship this phase")}


def off_the_edge(*, dice=None, rng=None) -> dict:
    """A ship off the table edge (or hit by a solid moving obstacle) returns where it left on D20 > 10."""
    roll = _d20(OFF_THE_EDGE, dice, rng, "D20 for the off the edge roll")
    return {"roll": roll, "returns": roll["passed"],
            "summary": f"off the edge: rolled {roll['value']} (> {OFF_THE_EDGE}): "
                       + ("returns where it left" if roll["passed"] else "does not return")}


def movement_allowance(speed: int, *, emp: bool = False, afterburner: bool = False,
                       half_speed: bool = False, speed_modifier: int = 0, drone: bool = False) -> dict:
    """Movement this phase: 5 units up to speed (drones 30 any direction); EMP: coast 5 only;
    afterburner +5 and no attack; half speed in a gravity well or dense nebula (decision: rounded
    up, like every other halving in the seed)."""
    top = _int(speed, "speed", 0) + _int(speed_modifier, "speed_modifier")
    if afterburner:
        top += AFTERBURNER_SPEED
    if half_speed:
        top = _ceil(Fraction(top) * HALF)
    low = 0 if drone else MIN_MOVE
    if emp:
        low = top = MIN_MOVE
    notes = []
    if emp:
        notes.append("EMP: coasts at the minimum 5 units; remove the counter after this move")
    if afterburner:
        notes.append("afterburner: cannot attack this turn")
    if not drone and not emp:
        notes.append("or 'about face' in place")
    return {"min": low, "max": max(low, top), "can_attack": not afterburner,
            "summary": f"move {low}-{max(low, top)} units" + (f" ({'; '.join(notes)})" if notes else "")}


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
        raise RuleError("device is cloak or ecm.", "device")
    item, condition = DEVICES[kind]
    if equipment_fitted is not None and item not in _names(equipment_fitted, "equipment"):
        raise RuleError(f"The ship has no {equipment()[item]['name']}.", "device")
    if not combat_phase_start:
        raise RuleError(f"The {equipment()[item]['name']} is switched only at the start of the combat phase.", "device")
    kept = [c for c in conditions or [] if _key(c) != _key(condition)]
    new = [*kept, condition] if on else kept
    return {"conditions": new, "summary": f"{equipment()[item]['name']} {'on' if on else 'off'}"
                                           + (": cannot attack while active" if on else "")}


def apply_emp(conditions: list[str]) -> dict:
    """EMP on a ship: it coasts 5 units in its next move; EMP does not stack (seed 001, EMP)."""
    have = any(_key(c) == "emp" for c in conditions or [])
    return {"conditions": list(conditions or []) if have else [*(conditions or []), "EMP"],
            "summary": "already under EMP (does not stack)" if have else "EMP: coasts 5 units next move"}


def launch_drone(launcher: str, active: list[str], launched_this_turn: int = 0, *,
                 engineer: bool = False) -> dict:
    """Launch a drone in the movement phase (seed 001, Drone Launchers): one drone active per
    launcher, one launch per ship per turn (an Engineer launches 2 at a time)."""
    limit = ENGINEER_LAUNCHES if engineer else LAUNCHES_PER_TURN
    if launcher in (active or []):
        raise RuleError(f"{launcher} already has a drone in flight; a new one launches once it is killed.", "launcher")
    if _int(launched_this_turn, "launched_this_turn", 0) >= limit:
        raise RuleError(f"A ship launches {limit} drone{'s' if limit > 1 else ''} per turn.", "launcher")
    return {"launcher": launcher, "active": [*(active or []), launcher], "launched_this_turn": launched_this_turn + 1,
            "summary": f"{launcher} launches its drone; it may move now and attack this turn"}


def dock(ship_class: str, base_class: str, docked: int = 0) -> dict:
    """Dock a ship at a base during the movement phase (seed 001, Docking).

    Decision: "only dock with a base that is larger than it ... Therefore a battleship may only
    dock in a star-port" -- the battleship and star-port diameters are both 13, so "larger" means a
    base diameter at least the ship's."""
    ship, base = _key(ship_class), _key(base_class)
    if base not in base_classes():
        raise RuleError(f"Unknown base class {base_class!r}.", "base_class")
    if ship == "drone":
        raise RuleError("Drones cannot dock.", "ship_class")
    if ship not in ship_classes():
        raise RuleError(f"Unknown ship class {ship_class!r}.", "ship_class")
    spec = base_classes()[base]
    if ship_classes()[ship]["diameter"] > spec["diameter"]:
        raise RuleError(f"A {ship} cannot dock at a {base}: a ship only docks with a larger base.", "base_class")
    if _int(docked, "docked", 0) >= spec["docks"]:
        raise RuleError(f"The {base} has {spec['docks']} dock{'s' if spec['docks'] > 1 else ''}, all in use.", "base_class")
    return {"docked": docked + 1, "docks": spec["docks"],
            "summary": f"{ship} docks at the {base} ({docked + 1}/{spec['docks']}); it cannot be targeted or fire"}


def base_attacks(base_class: str, attacks: list[dict]) -> dict:
    """Check a base's attacks in a combat phase: outpost 1, station 2 at separate targets with
    different weapons, star-port 3 at different targets (seed 001, Bases: Combat)."""
    base = _key(base_class)
    if base not in base_classes():
        raise RuleError(f"Unknown base class {base_class!r}.", "base_class")
    allowed = base_classes()[base]["attacks"]
    if len(attacks) > allowed:
        raise RuleError(f"A {base} attacks {allowed} time{'s' if allowed > 1 else ''} per combat phase.", "attacks")
    targets = [a.get("target") for a in attacks]
    weapons = [a.get("weapon") for a in attacks]
    if len(set(targets)) != len(targets):
        raise RuleError(f"A {base}'s attacks must be at different targets.", "attacks")
    if len(set(weapons)) != len(weapons):
        # station: "using different weapons"; decision: the star-port too (each weapon fires once)
        raise RuleError(f"A {base}'s attacks must use different weapons.", "attacks")
    return {"attacks": len(attacks), "allowed": allowed,
            "summary": f"{base} attacks {len(attacks)} of {allowed} times, last in the combat phase"}


# --- initiative ----------------------------------------------------------------------------------

def _roll_off(names: list[str], rolls: dict, rng, what: str) -> tuple[list[str], dict]:
    """Highest D20 first; ties are broken with another roll (seed 001, Initiative).
    ``rolls[name]`` is a D20 or a list (the first roll, then tie-breakers)."""
    given = {n: list(rolls.get(n, [])) if isinstance(rolls.get(n, []), (list, tuple)) else [rolls[n]]
             for n in names}
    record = {n: [] for n in names}

    def next_roll(name: str) -> int:
        queue = given[name]
        value = queue.pop(0) if queue else None
        die = roll_or_take(1, D20, None if value is None else [value], rng, f"D20 for {name} ({what})")[0]
        record[name].append(die)
        return die

    def order(group: list[str]) -> list[str]:
        if len(group) <= 1:
            return group
        scores = {n: next_roll(n) for n in group}
        out = []
        for value in sorted(set(scores.values()), reverse=True):
            tied = [n for n in group if scores[n] == value]
            out += order(tied) if len(tied) > 1 else tied
        return out

    return order(list(names)), record


def initiative_order(mode: str, fleets, rolls: dict | None = None, *, turn: int = 1,
                     phase: str = "Movement", rng=None) -> dict:
    """Who moves or attacks first (seed 001, Game Sequence).

    ``mode`` "roll": every fleet rolls a D20 each phase, highest first, ties re-rolled;
    ``fleets`` is a list of fleet names, ``rolls`` {fleet: D20 or [D20, tie-breaks...]}.
    ``mode`` "class": battleships to drones, a D20 roll-off per class in every phase; ``fleets`` is
    {fleet: [classes or ships]}, ``rolls`` {class: {fleet: D20 or [...]}}.
    ``mode`` "rotating": fleets in turn, the first fleet of turn 1 goes last in turn 2, and so on;
    ``fleets`` is the turn-1 order (decided by a D20 roll-off, the winner choosing).
    Bases attack last in the combat phase (seed 001, Bases: Combat).
    """
    mode = _key(mode)
    rolls = rolls or {}
    turn = _int(turn, "turn", 1)
    combat = _key(phase) == "combat"
    tail = " Bases attack last." if combat else ""
    if mode == "roll":
        names = list(fleets)
        order, record = _roll_off(names, rolls, rng, f"{phase} initiative")
        shown = ", ".join(f"{n} ({'/'.join(map(str, record[n]))})" for n in order)
        return {"mode": mode, "phase": phase, "order": order, "rolls": record,
                "summary": f"{phase}: {shown}.{tail}"}
    if mode == "class":
        if not isinstance(fleets, dict):
            raise RuleError("For ship-class initiative give each fleet's ships or classes.", "fleets")
        present = {f: {_key(s.get("class", "") if isinstance(s, dict) else s) for s in ships}
                   for f, ships in fleets.items()}
        steps, record = [], {}
        for cls in CLASS_ORDER:
            having = [f for f in fleets if cls in present[f]]
            if not having:
                continue
            order, used = _roll_off(having, rolls.get(cls, {}), rng, f"{cls} initiative")
            steps.append({"class": cls, "order": order})
            record[cls] = used
        verb = "attack" if combat else "move"
        text = "; ".join(f"{s['class']}s {verb}: {', '.join(s['order'])}" for s in steps)
        return {"mode": mode, "phase": phase, "steps": steps, "rolls": record,
                "order": [f"{s['class']}:{f}" for s in steps for f in s["order"]],
                "summary": f"{phase}: {text}.{tail}"}
    if mode == "rotating":
        names = list(fleets)
        if not names:
            raise RuleError("Give the fleets in their turn-1 order.", "fleets")
        shift = (turn - 1) % len(names)
        order = names[shift:] + names[:shift]
        return {"mode": mode, "phase": phase, "turn": turn, "order": order,
                "summary": f"Turn {turn} {phase.lower()}: {', '.join(order)}.{tail}"}
    raise RuleError("Initiative mode is roll, class or rotating.", "mode")


# --- victory ---------------------------------------------------------------------------------------

def _class_of(ship) -> str:
    return _key(ship.get("class", "") if isinstance(ship, dict) else ship)


def fleet_points(ships: list) -> int:
    """Points for the destroyed ships (dicts with a class, or class names): drone 0, frigate 2,
    destroyer 3, cruiser 5, battleship 8 (seed 001, Turns and Points)."""
    total = 0
    for ship in ships:
        cls = _class_of(ship)
        if cls not in victory_points():
            raise RuleError(f"The seed gives no points for a destroyed {cls or 'ship without class'}.", "class")
        total += victory_points()[cls]
    return total


def points_tally(destroyed_by: dict) -> dict:
    """{fleet: [ships it destroyed]} -> points per fleet and the leader(s) (seed 001, Turns and Points)."""
    points = {fleet: fleet_points(ships) for fleet, ships in destroyed_by.items()}
    best = max(points.values(), default=0)
    leaders = [f for f, p in points.items() if p == best]
    return {"points": points, "leaders": leaders,
            "summary": ", ".join(f"{f} {p}" for f, p in points.items())
                       + (f"; leading: {', '.join(leaders)}" if points else "")}


def _alive(ship: dict) -> bool:
    return _int(ship.get("hp", 1), "hp", 0) > 0 and not ship.get("destroyed")


def checkmate(fleets: dict, in_play: list[str] | None = None) -> dict:
    """At the end of a turn: a fleet without a surviving battleship is removed; the last fleet with
    one wins; if all remaining battleships fell in the same turn, a draw between those fleets
    (seed 001, Checkmate).  ``in_play``: the fleets still in the game at the start of the turn."""
    in_play = list(fleets) if in_play is None else list(in_play)
    for fleet in in_play:
        if not any(_class_of(s) == "battleship" for s in fleets.get(fleet, [])):
            raise RuleError(f"{fleet} has no battleship; checkmate needs one in every fleet.", "fleets")
    still = [f for f in in_play if any(_class_of(s) == "battleship" and _alive(s) for s in fleets[f])]
    out = [f for f in in_play if f not in still]
    winner = still[0] if len(still) == 1 else None
    draw = out if not still else None
    if winner:
        text = f"{winner} wins: the last fleet with a surviving battleship"
    elif draw:
        text = f"draw between {', '.join(draw)}: all remaining battleships destroyed this turn"
    else:
        text = f"in play: {', '.join(still)}" + (f"; eliminated: {', '.join(out)}" if out else "")
    return {"in_play": still, "eliminated": out, "winner": winner, "draw": draw, "summary": text}


def capture_ship(ship: dict, captor: str) -> dict:
    """Capture the Ship: destroying the spawned ship captures it with full hit points (seed 001)."""
    max_hp = _max_hp(ship)
    if max_hp is None:
        raise RuleError("Give the ship's class or max_hp to restore it on capture.", "max_hp")
    return {**ship, "hp": max_hp, "owner": captor,
            "summary": f"{captor} captures {ship.get('name', 'the ship')} with full {max_hp} HP"}


def capture_tally(captured: dict) -> dict:
    """{fleet: number of captured ships} -> the leader(s) at the end of play."""
    best = max(captured.values(), default=0)
    leaders = [f for f, n in captured.items() if n == best]
    return {"captured": captured, "leaders": leaders,
            "summary": ", ".join(f"{f} {n}" for f, n in captured.items()) + f"; most captured: {', '.join(leaders)}"}


def gladiator(fleets: dict) -> dict:
    """Gladiator: one ship per player; the last player surviving wins (seed 001, Gladiator)."""
    for fleet, ships in fleets.items():
        if len(ships) != 1:
            raise RuleError(f"In gladiator each player has only one ship; {fleet} has {len(ships)}.", "fleets")
    alive = [f for f, ships in fleets.items() if _alive(ships[0])]
    winner = alive[0] if len(alive) == 1 else None
    text = (f"{winner} wins" if winner else
            ("no survivor" if not alive else f"still fighting: {', '.join(alive)}"))
    return {"alive": alive, "winner": winner, "summary": text}


def interdiction(games: list[dict]) -> dict:
    """Interdiction: each game one player attacks the convoy and one defends; then the roles switch.
    A player's score is convoy ships destroyed as attacker plus convoy ships surviving as defender;
    the highest wins (seed 001, Interdiction).  games: [{attacker, defender, destroyed, survived}]."""
    score: dict[str, int] = {}
    for i, game in enumerate(games):
        att, dfd = game.get("attacker"), game.get("defender")
        destroyed = _int(game.get("destroyed", 0), f"games[{i}].destroyed", 0)
        survived = _int(game.get("survived", 0), f"games[{i}].survived", 0)
        score[att] = score.get(att, 0) + destroyed
        score[dfd] = score.get(dfd, 0) + survived
    best = max(score.values(), default=0)
    leaders = [p for p, s in score.items() if s == best]
    return {"scores": score, "winners": leaders,
            "summary": ", ".join(f"{p} {s}" for p, s in score.items()) + f"; victor: {', '.join(leaders)}"}
