"""Empires of Dust at the table (seed 001): fleets, initiative, attacks and the end of each phase.

Every type is prefixed ``eod-`` so it never collides with another game's action of the same name.
The rules themselves are ``companion.rules.empires_of_dust``; this module keeps the table's state:

  ``state["game"]``: ``initiative`` (mode, this phase's steps, who is next), ``fired`` (attacks this
  combat phase), ``ecm_blocked``, ``surge_target``, ``burns``, ``last_damage`` (who scores a kill),
  ``destroyed`` (the record points are tallied from), ``docked``, ``drones``, ``launched``,
  ``roles`` (convoy / prize ships), ``victory``, ``last_attack``, ``phase_notes``.
  ``unit["design"]``: the ship as designed (class, armour by type, weapons, equipment ...).

The end of a phase (fires burning, EMP wearing off, ships at 0 HP removed and scored, checkmate)
happens in the phase hook, so it is the same whether ``eod-end-phase`` or the core ``next-phase``
moved the turn on.
"""
from __future__ import annotations

import json

from companion import trackers
from companion.actions import REMINDER_HOOKS, Stale, action
from companion.actions import core
from companion.rules import RuleError
from companion.rules import empires_of_dust as eod
from companion.trackers import cooldown, gauge, need_int

SLUG = eod.SLUG
SYSTEMS = {SLUG}
MAX_SHIPS = 100  # input limit only: the largest preset (armada) is 91 ships
MAX_WEAPONS = 6  # input limit: a star-port has 5 weapon slots (seed 001, Bases)
STAT_LIMIT = 99  # input limit only
EQUIPMENT_TRACKERS = {"ftl-jump-drive": "ftl", "overloader": "overloader",
                      "assassins-touch": "assassins_touch", "fine-tuned-detector": "fine_tuned_detector"}
# Conditions players set by hand; Burning, Docked, Cloaked, ECM active and "destroyed at end of
# phase" follow from the game state and are shown by the game's own unit panel.
MANUAL_CONDITIONS = ("EMP", "Afterburner", "Designated")
TERRAIN = ("sparse", "dense", "gravity-well", "star")
EXTRA_HITS = {"blast": ("blast", None, 1), "touching": ("touching", None, 1),
              "chain": ("direct", "chain", 1), "chain-2": ("direct", "chain", 2),
              "furtherance": ("direct", "furtherance", 1)}
SHOT_KINDS = ("main", "berserker", "point-defence")
VICTORY = ("checkmate", "points", "capture", "gladiator", "interdiction")
ROLL_REMINDER = "Roll initiative for this"


# --- state helpers --------------------------------------------------------------------------------

def game(state: dict) -> dict:
    g = state.setdefault("game", {})
    for key in ("fired", "ecm_blocked", "surge_target", "burns", "last_damage", "docked", "drones",
                "launched", "roles"):
        g.setdefault(key, {})
    g.setdefault("destroyed", [])
    return g


def phase_name(state: dict) -> str:
    return state["phases"][state["phase"]]


def in_phase(state: dict, wanted: str, what: str) -> None:
    if phase_name(state) != wanted:
        raise RuleError(f"{what} in the {wanted.lower()} phase; it is the {phase_name(state).lower()} "
                        f"phase now (seed 001, Game Sequence).", "type")


def alive(state: dict, uid, field: str = "unit") -> dict:
    unit = core.unit_of(state, uid)
    if unit["removed"]:
        raise RuleError(f"{unit['name']} is off the table.", field)
    return unit


def designed(state: dict, uid, field: str = "unit") -> dict:
    unit = alive(state, uid, field)
    if "design" not in unit:
        raise RuleError(f"{unit['name']} has no design: put ships on the table from the fleet designer.", field)
    return unit


def cls_of(unit: dict) -> str:
    return unit.get("design", {}).get("class", unit.get("template", ""))


def is_base(unit: dict) -> bool:
    return cls_of(unit) in eod.base_classes()


def hp_of(unit: dict) -> int | None:
    hp = unit["trackers"].get("hp")
    return hp["value"] if hp and hp["kind"] == "counter" else None


def set_hp(unit: dict, value: int) -> None:
    hp = unit["trackers"]["hp"]
    hp["value"] = min(hp["max"], max(hp["min"], value))


def conditions(unit: dict) -> list[str]:
    tracker = unit["trackers"].get("conditions")
    return list(tracker["active"]) if tracker else []


def set_condition(unit: dict, name: str, on: bool) -> bool:
    """Turn a condition on or off; True if it changed."""
    tracker = unit["trackers"].get("conditions")
    if tracker is None:
        return False
    if on and name not in tracker["active"]:
        tracker["active"][name] = {"count": None, "until": None}
        return True
    if not on and name in tracker["active"]:
        del tracker["active"][name]
        return True
    return False


def stats_of(unit: dict) -> dict:
    """Speed, stealth, detection, armour by type and specialisations as the ship plays."""
    design = unit["design"]
    cls = design["class"]
    if cls in eod.base_classes():
        spec = eod.base_classes()[cls]
        return {"speed": 0, "stealth": spec["stealth"], "detection": spec["detection"],
                "armour": eod._armour(design.get("armour")), "specialisations": []}
    return eod.ship_stats(design)


def weapon_index(unit: dict, index, field: str = "weapon") -> int:
    weapons = unit["design"].get("weapons", [])
    if isinstance(index, str) and index.isdigit():
        index = int(index)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(weapons):
        raise RuleError(f"{field} must be one of {unit['name']}'s weapons.", field)
    return index


def active_drone(state: dict, carrier: str, launcher: int) -> str | None:
    for uid, link in game(state)["drones"].items():
        if link["carrier"] == carrier and link["launcher"] == launcher and not state["units"][uid]["removed"]:
            return uid
    return None


def docked_at(state: dict, uid: str) -> str | None:
    return game(state)["docked"].get(uid)


def sides_alive(state: dict) -> dict:
    out = {s: [] for s in state["sides"]}
    for uid in state["unit_order"]:
        unit = state["units"][uid]
        if not unit["removed"] and "design" in unit:
            out.setdefault(unit["side"], []).append(unit)
    return out


def pending_destroyed(state: dict) -> list[dict]:
    """Ships at 0 HP: still firing, still repairable, removed when the combat phase ends."""
    return [state["units"][u] for u in state["unit_order"]
            if not state["units"][u]["removed"] and hp_of(state["units"][u]) == 0]


def points(state: dict) -> dict:
    """Points per fleet from the ships it destroyed (seed 001, Win Condition: Turns and Points)."""
    by = {s: [] for s in state["sides"]}
    for record in game(state)["destroyed"]:
        if record.get("by") in by:
            by[record["by"]].append(record["class"])
    scorable = {f: [c for c in ships if c in eod.victory_points()] for f, ships in by.items()}
    return eod.points_tally(scorable)


# --- designs and units ----------------------------------------------------------------------------

def _text(value, what: str, limit: int = 40) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RuleError(f"{what} needs a name (1 to {limit} characters).", "fleet")
    value = " ".join(value.split())
    if len(value) > limit:
        raise RuleError(f"{what}: the name {value[:20]!r}... is longer than {limit} characters.", "fleet")
    return value


def _number(value, what: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= STAT_LIMIT:
        raise RuleError(f"{what} must be a whole number from 0 to {STAT_LIMIT}.", "fleet")
    return value


def _names(value, what: str, limit: int) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or len(value) > limit or not all(isinstance(v, str) for v in value):
        raise RuleError(f"{what} must be a list of at most {limit} names.", "fleet")
    return [eod._key(v) for v in value if v.strip()]


def _armour(value, what: str) -> dict:
    if value in (None, ""):
        value = {}
    if not isinstance(value, dict):
        raise RuleError(f"{what} must give reflective, reinforced and reactive ratings.", "fleet")
    out = {}
    for kind in eod.ARMOUR_TYPES:
        out[kind] = _number(value.get(kind, 0), f"{what} {kind}")
    unknown = set(value) - set(eod.ARMOUR_TYPES)
    if unknown:
        raise RuleError(f"{what}: unknown armour type {sorted(unknown)[0]!r}; armour is reflective, "
                        "reinforced or reactive.", "fleet")
    return out


def clean_weapon(raw, what: str) -> dict:
    if not isinstance(raw, dict):
        raise RuleError(f"{what} is not a weapon.", "fleet")
    name = _text(raw.get("name"), what)
    out = {"name": name, "type": eod._key(raw.get("type") or ""),
           **{stat: _number(raw.get(stat, 0), f"{what} ({name}) {stat}") for stat in ("range", "penetration", "damage")},
           "augmenters": _names(raw.get("augmenters"), f"{name}'s augmenters", 4)}
    if raw.get("drone") not in (None, False, ""):
        drone = raw["drone"] if isinstance(raw["drone"], dict) else {}
        out["drone"] = {"armour": _armour(drone.get("armour"), f"{name}'s drone armour")}
    return out


def clean_design(raw, index: int = 0) -> dict:
    """A ship, drone or base design as the rules read it, checked for shape (not for the rules)."""
    what = f"Ship {index + 1}"
    if not isinstance(raw, dict):
        raise RuleError(f"{what} is not a ship design.", "fleet")
    name = _text(raw.get("name"), what)
    cls = eod._key(raw.get("class") or "")
    if cls not in eod.ship_classes() and cls not in eod.base_classes():
        known = ", ".join([*eod.ship_classes(), *eod.base_classes()])
        raise RuleError(f"{name}: class must be one of {known}.", "fleet")
    out = {"name": name, "class": cls, "armour": _armour(raw.get("armour"), f"{name}'s armour")}
    if cls not in eod.base_classes() and cls != "drone":
        for stat in ("speed", "stealth", "detection"):
            out[stat] = _number(raw.get(stat, 0), f"{name}'s {stat}")
        out["equipment"] = _names(raw.get("equipment"), f"{name}'s equipment", 8)
        out["auras"] = _names(raw.get("auras"), f"{name}'s auras", 12)
        out["specialisations"] = _names(raw.get("specialisations"), f"{name}'s specialisations", 2)
        if raw.get("extra_armour"):
            out["extra_armour"] = _armour(raw.get("extra_armour"), f"{name}'s extra armour")
    weapons = raw.get("weapons") or []
    if not isinstance(weapons, list) or len(weapons) > MAX_WEAPONS:
        raise RuleError(f"{name} carries at most {MAX_WEAPONS} weapons and drone launchers.", "fleet")
    out["weapons"] = [clean_weapon(w, f"{name}'s weapon {i + 1}") for i, w in enumerate(weapons)]
    if raw.get("unique"):
        out["unique"] = True
    return out


def clean_fleet(ships) -> list[dict]:
    if not isinstance(ships, list) or not 1 <= len(ships) <= MAX_SHIPS:
        raise RuleError(f"A fleet has 1 to {MAX_SHIPS} ships.", "fleet")
    return [clean_design(s, i) for i, s in enumerate(ships)]


def seed_deviations(system) -> set[str]:
    """Violations the seed's own fleets carry (the average battleship's 55 against 40)."""
    return {d for fleet in system.fleets.values() for s in fleet.get("ships", [])
            for d in s.get("seed_deviations", [])}


def ship_warnings(ship: dict, system) -> tuple[list[str], list[str]]:
    """(refusals, warnings) of one ship: seed deviations and unique ships (seed 001, Unique Ships)
    only warn."""
    allowed = seed_deviations(system)
    refusals, warnings = [], []
    for sentence in eod.design_violations(ship):
        (warnings if sentence in allowed or ship.get("unique") else refusals).append(sentence)
    return refusals, warnings


def check_fleet(ships: list[dict], system) -> tuple[list[str], list[str]]:
    refusals, warnings = [], []
    for ship in ships:
        r, w = ship_warnings(ship, system)
        refusals += r
        warnings += w
    return refusals, warnings


def template_id(design: dict) -> str:
    if design["class"] == "drone":
        return "drone"
    return "base" if design["class"] in eod.base_classes() else "ship"


def unit_stats(design: dict) -> dict:
    """The stats the board shows, in the content template's terms."""
    cls = design["class"]
    if cls in eod.base_classes():
        spec = eod.base_classes()[cls]
        return {"hp": spec["hp"], "docks": spec["docks"]}
    if cls == "drone":
        return {"hp": eod.ship_classes()["drone"]["hp"]}
    s = eod.ship_stats(design)
    return {"hp": s["hp"], **s["armour"], "speed": s["speed"], "stealth": s["stealth"],
            "detection": s["detection"], "weapon_slots": s["weapon_slots"]}


def unit_trackers(design: dict, template: dict, stats: dict) -> dict:
    """HP from the class; a cooldown per fitted item; a surge ladder per surge weapon; conditions."""
    specs = {s["id"]: s for s in template.get("trackers", [])}
    made = {"hp": trackers.create(specs["hp"], stats)}
    for item in design.get("equipment", []):
        tid = EQUIPMENT_TRACKERS.get(item)
        if tid and tid in specs:
            made[tid] = trackers.create(specs[tid], stats)
    if "surge" in specs:
        for i, weapon in enumerate(design.get("weapons", [])):
            if "surge" in weapon.get("augmenters", []):
                made[f"surge-{i}"] = trackers.create(
                    {**specs["surge"], "id": f"surge-{i}", "label": f"Surge: {weapon['name']}"}, stats)
    if "conditions" in specs:
        spec = specs["conditions"]
        options = [o for o in spec.get("options", []) if o in MANUAL_CONDITIONS]
        made["conditions"] = trackers.create({**spec, "options": options}, stats)
    return made


def new_unit(uid: str, design: dict, side: str, system, name: str | None = None) -> dict:
    template = system.templates[template_id(design)]
    stats = unit_stats(design)
    return {"id": uid, "name": name or design["name"], "side": side, "template": template_id(design),
            "stats": stats, "trackers": unit_trackers(design, template, stats), "activated": False,
            "removed": False, "design": design}


def insert_units(state: dict, units: list[dict]) -> None:
    first = f"u{state['next_unit']}"
    if not units or units[0]["id"] != first:
        raise Stale("The table changed while the ships were being added; try again.", "fleet")
    if len(state["units"]) + len(units) > core.MAX_UNITS:
        raise RuleError(f"A table holds at most {core.MAX_UNITS} units.", "fleet")
    for unit in units:
        state["units"][unit["id"]] = json.loads(json.dumps(unit))
        state["unit_order"].append(unit["id"])
        state["next_unit"] += 1


def side_arg(state: dict, args: dict, ctx) -> str:
    side = args.get("side") or ctx.side or state["sides"][0]
    if side not in state["sides"]:
        raise RuleError(f"side must be one of {', '.join(state['sides'])}.", "side")
    return side


# --- putting a fleet on the table -----------------------------------------------------------------

@action("eod-deploy", systems=SYSTEMS)
def deploy(state: dict, p: dict) -> str:
    """Put a fleet on the table: each ship a unit with its class HP and its design."""
    insert_units(state, p["units"])
    warn = f" (seed deviations kept: {len(p['warnings'])})" if p["warnings"] else ""
    return f"{p['fleet']} joins {p['side']}: {', '.join(u['name'] for u in p['units'])}{warn}"


@deploy.decider
def decide_deploy(state: dict, args: dict, ctx) -> dict:
    side = side_arg(state, args, ctx)
    preset = args.get("preset")
    if preset:
        if preset not in ctx.system.fleets:
            raise RuleError(f"preset must be one of {', '.join(ctx.system.fleets)}.", "preset")
        fleet = ctx.system.fleets[preset]
        name, raw = fleet.get("name", preset), fleet["ships"]
    else:
        name, raw = args.get("name") or "Fleet", args.get("ships")
        name = _text(name, "The fleet")
    ships = clean_fleet(raw)
    refusals, warnings = check_fleet(ships, ctx.system)
    if refusals:
        more = f" ({len(refusals) - 1} more problem{'s' if len(refusals) > 2 else ''})" if len(refusals) > 1 else ""
        raise RuleError(refusals[0] + more, "fleet")
    start = state["next_unit"]
    units = [new_unit(f"u{start + i}", ship, side, ctx.system) for i, ship in enumerate(ships)]
    for unit, ship in zip(units, ships):
        found = ship_warnings(ship, ctx.system)[1]
        if found:
            unit["warnings"] = found
    if len(state["units"]) + len(units) > core.MAX_UNITS:
        raise RuleError(f"A table holds at most {core.MAX_UNITS} units.", "fleet")
    return {"side": side, "fleet": name, "units": units, "warnings": warnings}


# --- initiative -----------------------------------------------------------------------------------

def _fleets_with_classes(state: dict) -> dict:
    out = {}
    for side, units in sides_alive(state).items():
        classes = [cls_of(u) for u in units if cls_of(u) in eod.ship_classes()]
        if classes:
            out[side] = classes
    return out


def initiative_steps(mode: str, result: dict) -> list[dict]:
    if mode == "class":
        return [{"side": f, "class": s["class"]} for s in result["steps"] for f in s["order"]]
    return [{"side": f, "class": None} for f in result["order"]]


def rotating_steps(state: dict, ini: dict) -> tuple[list[dict], str]:
    turn = state["round"] - ini["since"] + 1
    result = eod.initiative_order("rotating", ini["first"], turn=turn, phase=phase_name(state))
    return initiative_steps("rotating", result), result["summary"]


@action("eod-initiative", systems=SYSTEMS, chance=True)
def initiative(state: dict, p: dict) -> str:
    """Set the initiative mode and this phase's order (D20 per phase, ship class, rotating)."""
    g = game(state)
    g["initiative"] = {"mode": p["mode"], "first": p.get("first"), "since": state["round"],
                       "tick": state["tick"], "steps": p["steps"], "next": 0, "summary": p["summary"],
                       "rolls": p["rolls"]}
    state["reminders"] = [r for r in state["reminders"] if not r.startswith(ROLL_REMINDER)]
    return f"Initiative ({p['mode']}): {p['summary']}"


@initiative.decider
def decide_initiative(state: dict, args: dict, ctx) -> dict:
    mode = args.get("mode") or (game(state).get("initiative") or {}).get("mode")
    if mode not in ("roll", "class", "rotating"):
        raise RuleError("Initiative mode must be roll (D20 per phase), class (by ship class) or rotating "
                        "(fleets take turns) (seed 001, Game Sequence).", "mode")
    now = game(state).get("initiative")
    if now and now["mode"] == mode and now["tick"] == state["tick"] and now.get("steps"):
        raise RuleError(f"Initiative for this {phase_name(state).lower()} phase is already settled: "
                        f"{now['summary']}", "mode")
    fleets = [s for s in state["sides"] if sides_alive(state).get(s)]
    if len(fleets) < 2:
        raise RuleError("Initiative needs at least two fleets with ships on the table.", "mode")
    rolls = {k: v for k, v in (args.get("d20") or {}).items() if v not in ("", None)}
    for fleet, value in rolls.items():
        if fleet not in fleets:
            raise RuleError(f"{fleet} has no ships on the table to roll for.", "d20")
        need_int({f"D20 for {fleet}": value}, f"D20 for {fleet}", 1, 20)
    phase = phase_name(state)
    if mode == "rotating":
        first = args.get("first")
        if first:
            if first not in fleets:
                raise RuleError(f"first must be one of {', '.join(fleets)}.", "first")
            order = [first] + [f for f in fleets if f != first]
            rolled = {}
        else:  # seed 001, Turns: "Use a roll of a D20 to determine the initial turn order"
            off = eod.initiative_order("roll", fleets, rolls, phase=phase, rng=ctx.rng)
            order, rolled = off["order"], off["rolls"]
        result = eod.initiative_order("rotating", order, turn=1, phase=phase)
        return {"mode": mode, "first": order, "steps": initiative_steps(mode, result),
                "summary": result["summary"], "rolls": rolled}
    if mode == "class":
        result = eod.initiative_order("class", _fleets_with_classes(state), {}, phase=phase, rng=ctx.rng)
    else:
        result = eod.initiative_order("roll", fleets, rolls, phase=phase, rng=ctx.rng)
    return {"mode": mode, "steps": initiative_steps(mode, result), "summary": result["summary"],
            "rolls": result["rolls"]}


def step_text(step: dict, state: dict) -> str:
    verb = "moves" if phase_name(state) == "Movement" else "fires"
    if step.get("class"):
        return f"{step['side']} {step['class']}s {verb.rstrip('s')}"
    return f"{step['side']} {verb}"


@action("eod-initiative-done", systems=SYSTEMS)
def initiative_done(state: dict, p: dict) -> str:
    """The fleet (or class) whose turn it is has moved or fired: the next one goes."""
    ini = game(state).get("initiative")
    if not ini or not ini.get("steps") or ini["tick"] != state["tick"]:
        raise RuleError("No initiative order for this phase yet: roll or set it first.", "initiative")
    if "expect" in p and p["expect"] != ini["next"]:
        raise Stale("Someone already moved the order on; here it is now.", "initiative")
    if ini["next"] >= len(ini["steps"]):
        raise RuleError("Every fleet has had its go this phase: end the phase.", "initiative")
    done = ini["steps"][ini["next"]]
    ini["next"] += 1
    after = (f"; next: {step_text(ini['steps'][ini['next']], state)}" if ini["next"] < len(ini["steps"])
             else "; every fleet has gone")
    return f"{step_text(done, state)}: done{after}"


# --- attacks --------------------------------------------------------------------------------------

def _flag(args: dict, key: str) -> bool:
    return args.get(key) not in (None, "", 0, "0", False, "off")


def _modifier(args: dict, key: str) -> int:
    raw = (args.get("aura") or {}).get(key, 0)
    if raw in (None, ""):
        return 0
    return need_int({f"aura.{key}": raw}, f"aura.{key}", -50, 50)


def _terrain(value, field: str, allowed=TERRAIN) -> str | None:
    if value in (None, "", "none"):
        return None
    if value not in allowed:
        raise RuleError(f"{field} must be one of {', '.join(allowed)} (or nothing).", field)
    return value


def _cooldown_use(unit: dict, item: str, state: dict, *, per_phase: bool) -> bool:
    """Whether using ``item`` now starts its cooldown (False: already running for this turn)."""
    if item not in unit["design"].get("equipment", []):
        raise RuleError(f"{unit['name']} has no {eod.equipment()[item]['name']}.", item.replace("-", "_"))
    tracker = unit["trackers"][EQUIPMENT_TRACKERS[item]]
    now = core.clock(state)
    if cooldown.is_ready(tracker, now):
        return True
    if per_phase and tracker["ready_at"] == now.round + tracker["every"]:
        return False  # seed 001: the overloader lasts its combat phase, the detector its turn
    raise RuleError(f"{tracker['label']} is cooling down: ready again in turn {tracker['ready_at']} "
                    f"(seed 001, Equipment).", item.replace("-", "_"))


def fire_check(state: dict, attacker: dict, windex: int, shot: str, target_id: str) -> None:
    """The moment and the once-per-phase rules (seed 001, Combat Phase; Bases: Combat)."""
    in_phase(state, "Combat", "Ships fire")
    g = game(state)
    aid = attacker["id"]
    if g["ecm_blocked"].get(aid):
        raise RuleError(f"{attacker['name']} failed an ECM target lock this phase and cannot target "
                        "another ship (seed 001, ECM).", "attacker")
    fired = g["fired"].get(aid, [])
    mains = [f for f in fired if f["shot"] == "main"]
    if shot == "main":
        if is_base(attacker):
            eod.base_attacks(cls_of(attacker), [*mains, {"target": target_id, "weapon": windex}])
        elif mains:
            raise RuleError(f"{attacker['name']} has already fired this combat phase: each ship fires one "
                            "of its weapons (seed 001, Combat Phase).", "attacker")
    elif shot == "berserker":
        if "berserker" not in stats_of(attacker)["specialisations"]:
            raise RuleError("Only a Berserker fires a second shot (seed 001, Specialization System).", "shot")
        if not any(f["weapon"] == windex for f in mains):
            raise RuleError("A Berserker's second shot is from the same weapon as its first: fire that "
                            "weapon first (seed 001, Specialization System).", "weapon")
        if any(f["shot"] == "berserker" for f in fired):
            raise RuleError(f"{attacker['name']} has already fired its second shot this phase.", "shot")
    elif shot == "point-defence":
        if any(f["shot"] == "point-defence" for f in fired):
            raise RuleError(f"{attacker['name']} has already fired point-defence this phase.", "shot")
    else:
        raise RuleError(f"shot must be one of {', '.join(SHOT_KINDS)}.", "shot")


def target_of(unit: dict, state: dict) -> dict:
    s = stats_of(unit)
    hp = unit["trackers"]["hp"]
    return {"name": unit["name"], "class": cls_of(unit), "armour": s["armour"], "hp": hp["value"],
            "max_hp": hp["max"], "docked": bool(docked_at(state, unit["id"]))}


def attacker_of(unit: dict, state: dict) -> dict:
    s = stats_of(unit)
    conds = conditions(unit) + (["Docked"] if docked_at(state, unit["id"]) else [])
    return {"name": unit["name"], "class": cls_of(unit), "specialisations": s["specialisations"],
            "conditions": conds, "docked": bool(docked_at(state, unit["id"]))}


def plan_attack(state: dict, args: dict, detection_base: int | None = None) -> dict:
    """Everything an attack needs, checked: the shooter, the weapon, detection and range, each hit.

    Shared by the attack and by the attack helper's preview, so both say the same sentence."""
    attacker = designed(state, args.get("attacker"), "attacker")
    windex = weapon_index(attacker, args.get("weapon", 0))
    weapon = attacker["design"]["weapons"][windex]
    if "drone" in weapon:
        raise RuleError(f"{weapon['name']} is a drone launcher: launch its drone in the movement phase "
                        "and the drone fires (seed 001, Drone Launchers).", "weapon")
    shot = args.get("shot") or "main"
    target = designed(state, args.get("target"), "target")
    if target["id"] == attacker["id"]:
        raise RuleError("A ship cannot fire at itself.", "target")
    fire_check(state, attacker, windex, shot, target["id"])
    ally = target["side"] == attacker["side"]
    distance = need_int(args, "distance", 0, 999) if args.get("distance") not in (None, "") else None
    if distance is None:
        raise RuleError("Enter the distance to the target (in units) for the detection and range check.",
                        "distance")
    a_stats, t_stats = stats_of(attacker), stats_of(target)
    fine = False
    uses = []
    if _flag(args, "fine_tuned"):
        if _cooldown_use(attacker, "fine-tuned-detector", state, per_phase=True):
            uses.append("fine-tuned-detector")
        fine = True
    overload = _flag(args, "overloader")
    if overload and _cooldown_use(attacker, "overloader", state, per_phase=True):
        uses.append("overloader")
    touch = _flag(args, "assassins_touch")
    if touch and _cooldown_use(attacker, "assassins-touch", state, per_phase=False):
        uses.append("assassins-touch")
    target_in = _terrain(args.get("target_in"), "target_in")
    attacker_in = _terrain(args.get("attacker_in"), "attacker_in", ("sparse", "dense"))
    stealth = eod.target_stealth(
        t_stats["stealth"], cloaked="Cloaked" in conditions(target),
        nebula=target_in if target_in in ("sparse", "dense") else None,
        star=target_in if target_in in ("gravity-well", "star") else None, aura=_modifier(args, "stealth"))
    detection = eod.attacker_detection(a_stats["detection"], nebula=attacker_in, fine_tuned=fine,
                                       aura=_modifier(args, "detection"))
    base = detection_base if detection_base is not None else state["settings"].get(
        "detection_base", eod.DEFAULT_DETECTION_BASE)
    reach = eod.weapon_range(weapon, specialisations=a_stats["specialisations"], aura=_modifier(args, "range"))
    aim = eod.targeting(distance, reach, max(0, stealth), max(0, detection), base=base,
                        designated="Designated" in conditions(target),
                        docked=bool(docked_at(state, target["id"])) and not (ally and is_base(attacker)))
    if not aim["can_fire"]:
        raise RuleError(f"{attacker['name']} cannot fire {weapon['name']} at {target['name']}: "
                        f"{aim['summary']}.", "distance")
    augs = set(weapon.get("augmenters", []))
    options = {"attacker": attacker_of(attacker, state), "overloader": overload, "assassins_touch": touch,
               "penetration_modifier": _modifier(args, "penetration"),
               "damage_modifier": _modifier(args, "damage"),
               "designating": "target-designator" in augs,
               "berserker_second": shot == "berserker"}
    main_shot = "point-defence" if shot == "point-defence" else "main"
    surge = 0
    if "surge" in augs:
        last = game(state)["surge_target"].get(attacker["id"], {}).get(str(windex))
        tracker = attacker["trackers"].get(f"surge-{windex}")
        # seed 001, Surge: changing targets resets the counter to zero
        surge = gauge.value(tracker) if tracker and last == target["id"] else 0
    hits = [{"target": target["id"], "position": "direct", "shot": main_shot, "jump": 1, "ally": ally,
             "options": {**options, "position": "direct", "shot": main_shot, "surge_count": surge,
                         "target_ecm": "ECM active" in conditions(target), "ally": ally}}]
    extra = args.get("hits") or {}
    if not isinstance(extra, dict):
        raise RuleError("hits must map ships to blast, touching, chain, chain-2 or furtherance.", "hits")
    for uid, kind in extra.items():
        if kind in (None, "", "none"):
            continue
        other = designed(state, uid, "hits")
        if kind not in EXTRA_HITS:
            raise RuleError(f"{other['name']}: a further hit is blast, touching, chain, chain-2 or "
                            "furtherance.", "hits")
        if other["id"] in (target["id"], attacker["id"]):
            raise RuleError(f"{other['name']} is already in this attack as its shooter or main target.", "hits")
        if other["side"] == attacker["side"]:
            raise RuleError(f"Blast damage does not damage the attacking or allied ships: leave "
                            f"{other['name']} out (seed 001, Blast Damage).", "hits")
        position, kind_shot, jump = EXTRA_HITS[kind]
        hit_shot = kind_shot or main_shot
        hits.append({"target": other["id"], "position": position, "shot": hit_shot, "jump": jump,
                     "ally": False, "options": {**options, "position": position, "shot": hit_shot,
                                                "jump": jump, "surge_count": 0, "target_ecm": False,
                                                "ally": False}})
    if len(hits) > 12:
        raise RuleError("At most 11 further ships in one attack.", "hits")
    return {"attacker": attacker, "weapon": weapon, "windex": windex, "shot": shot, "target": target,
            "aim": aim, "uses": uses, "hits": hits, "ally": ally}


def hit_odds(state: dict, plan: dict, hit: dict) -> dict:
    target = state["units"][hit["target"]]
    return eod.attack_odds(plan["weapon"], target_of(target, state), **hit["options"])


def _real_dice(raw) -> list[int] | None:
    if raw in (None, "", []):
        return None
    values = raw if isinstance(raw, list) else [p for p in str(raw).replace(",", " ").split() if p]
    out = []
    for v in values:
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= eod.D20:
            raise RuleError(f"Each D20 must be a whole number from 1 to 20; got {v!r}.", "rolled")
        out.append(v)
    if len(out) > 8:
        raise RuleError("An attack uses at most 8 D20s per target.", "rolled")
    return out


@action("eod-attack", systems=SYSTEMS, chance=True)
def attack(state: dict, p: dict) -> str:
    """Fire one weapon: detection, armour, the D20 from the penetration table, augmenter rolls, damage."""
    g = game(state)
    attacker = alive(state, p["attacker"], "attacker")
    fire_check(state, attacker, p["weapon"], p["shot"], p["hits"][0]["target"])
    self_hp = hp_of(attacker)
    for i, hit in enumerate(p["hits"]):
        target = alive(state, hit["target"], "target")
        r = hit["result"]
        if hit["ally"]:
            set_hp(target, hp_of(target) + r["target_heal"])
        elif r["damage"]:
            set_hp(target, hp_of(target) - r["damage"])
            g["last_damage"][target["id"]] = attacker["side"]
        if r["emp"]:
            set_condition(target, "EMP", True)  # seed 001, EMP: "does not stack"
        if r["burn"]:
            burns = eod.add_burn(g["burns"].get(target["id"], []), per_turn=r["burn"]["per_turn"])
            burns[-1]["by"] = attacker["side"]
            g["burns"][target["id"]] = burns
        if r["designated"] and i == 0:
            set_condition(target, "Designated", True)
        if r["ecm_blocked"]:
            g["ecm_blocked"][attacker["id"]] = True
        # decision: immolation burns the shooter once per shot (its main hit), vampirism per ship hit
        self_hp = self_hp - (r["self_damage"] if i == 0 else 0) + r["attacker_heal"]
    if self_hp != hp_of(attacker):
        set_hp(attacker, self_hp)
        if hp_of(attacker) == 0:
            g["last_damage"][attacker["id"]] = ""
    main = p["hits"][0]["result"]
    if main["surge_count"] is not None:
        tracker = attacker["trackers"].get(f"surge-{p['weapon']}")
        if tracker:
            tracker["index"] = tracker["positions"].index(main["surge_count"])
        g["surge_target"].setdefault(attacker["id"], {})[str(p["weapon"])] = p["hits"][0]["target"]
    for item in p["uses"]:
        tracker = attacker["trackers"][EQUIPMENT_TRACKERS[item]]
        cooldown.use(tracker, {}, core.clock(state))
    g["fired"].setdefault(attacker["id"], []).append(
        {"weapon": p["weapon"], "target": p["hits"][0]["target"], "shot": p["shot"]})
    text = attack_text(state, p)
    g["last_attack"] = {"text": text, "side": attacker["side"], "round": state["round"]}
    return text


def attack_text(state: dict, p: dict) -> str:
    attacker = state["units"][p["attacker"]]
    weapon = attacker["design"]["weapons"][p["weapon"]]
    parts = []
    for hit in p["hits"]:
        r = hit["result"]
        target = state["units"][hit["target"]]
        if hit["position"] != "direct":
            where = f" ({'in the blast' if hit['position'] == 'blast' else 'touching the blast'})"
        elif hit["shot"] == "chain":
            where = f" (chain-hit jump {hit.get('jump', 1)})"
        elif hit["shot"] == "furtherance":
            where = " (furtherance)"
        else:
            where = ""
        rolls = ", ".join(f"{x['value']}" for x in r["rolls"])
        if r["ecm_blocked"]:
            outcome = "ECM: no target lock"
        elif hit["ally"]:
            outcome = f"repairs {r['target_heal']}" if r["penetrated"] else "no repair"
        else:
            outcome = f"{r['damage']} damage" if r["penetrated"] else "no penetration"
        extras = [e for e in (
            "EMP" if r["emp"] else "", f"burning {r['burn']['per_turn']}/turn" if r["burn"] else "",
            "designated" if r["designated"] and hit is p["hits"][0] else "",
            f"surge {r['surge_count']}" if r["surge_count"] and hit is p["hits"][0] else "",
            f"knockback {r['knockback']['target_pushed']}" if r["knockback"] else "",
            f"shooter -{r['self_damage']}" if r["self_damage"] and hit is p["hits"][0] else "",
            f"shooter +{r['attacker_heal']}" if r["attacker_heal"] else "") if e]
        hp = hp_of(target)
        state_text = " (destroyed at end of combat phase)" if hp == 0 else ""
        parts.append(f"{target['name']}{where}: armour {r['armour']} {r['armour_type']}, penetration "
                     f"{r['penetration']}, D20 > {r['needed']}, rolled {rolls or '-'}: {outcome}"
                     + (f", {', '.join(extras)}" if extras else "") + f", HP {hp}{state_text}")
    uses = [eod.equipment()[u]["name"] for u in p["uses"]]
    kind = {"berserker": " (Berserker's second shot)", "point-defence": " (point-defence)"}.get(p["shot"], "")
    head = f"{attacker['name']} fires {weapon['name']}{kind}" + (f" with {', '.join(uses)}" if uses else "")
    return head + " → " + "; ".join(parts)


@attack.decider
def decide_attack(state: dict, args: dict, ctx) -> dict:
    plan = plan_attack(state, args)
    hit_dice = args.get("hit_dice") or {}
    if not isinstance(hit_dice, dict):
        raise RuleError("hit_dice must map ships to their D20s.", "hit_dice")
    expected, hits = 0.0, []
    for i, hit in enumerate(plan["hits"]):
        target = state["units"][hit["target"]]
        dice = _real_dice(args.get("rolled")) if i == 0 else _real_dice(hit_dice.get(hit["target"]))
        result = eod.attack(plan["weapon"], target_of(target, state), **hit["options"], dice=dice, rng=ctx.rng)
        expected += hit_odds(state, plan, hit)["expected"]
        hits.append({"target": hit["target"], "position": hit["position"], "shot": hit["shot"],
                     "jump": hit["jump"], "ally": hit["ally"], "real": dice is not None,
                     "result": {k: result[k] for k in (
                         "armour", "armour_type", "penetration", "needed", "rolls", "penetrated", "passes",
                         "damage", "self_damage", "attacker_heal", "target_heal", "emp", "burn", "knockback",
                         "designated", "ecm_blocked", "surge_count", "notes", "summary")}})
    actual = sum(h["result"]["target_heal"] if h["ally"] else h["result"]["damage"] for h in hits)
    return {"attacker": plan["attacker"]["id"], "weapon": plan["windex"], "shot": plan["shot"],
            "distance": plan["aim"]["distance"], "detection": plan["aim"]["summary"], "uses": plan["uses"],
            "hits": hits, "luck": {"expected": round(expected, 4), "actual": actual,
                                   "what": "repair" if plan["ally"] else "damage"}}


# --- the end of a phase ---------------------------------------------------------------------------

def _destroy(state: dict, unit: dict, reason: str) -> str:
    g = game(state)
    by = g["last_damage"].get(unit["id"])
    if by is None:  # damage entered by hand: with two fleets the other one destroyed it
        others = [s for s in state["sides"] if s != unit["side"]]
        by = others[0] if len(others) == 1 else ""
    unit["removed"] = True
    cls = cls_of(unit)
    g["destroyed"].append({"unit": unit["id"], "name": unit["name"], "class": cls, "side": unit["side"],
                           "by": by, "round": state["round"], "reason": reason})
    worth = eod.victory_points().get(cls)
    score = f" ({by} +{worth})" if by and worth else ""
    return f"{unit['name']} {reason}{score}"


def _capture_prize(state: dict, unit: dict) -> str | None:
    """Capture the Ship: destroying the prize captures it with full HP (seed 001)."""
    g = game(state)
    captor = g["last_damage"].get(unit["id"])
    if g["roles"].get(unit["id"]) != "prize" or not (g.get("victory") or {}).get("capture") or not captor:
        return None
    result = eod.capture_ship({"class": cls_of(unit), "hp": 0, "max_hp": unit["trackers"]["hp"]["max"],
                               "name": unit["name"]}, captor)
    set_hp(unit, result["hp"])
    unit["side"] = captor
    g["last_damage"].pop(unit["id"], None)
    return result["summary"]


def close_combat(state: dict) -> list[str]:
    """End of the combat phase: ships at 0 HP are removed and scored, expiring effects cleared."""
    g = game(state)
    notes = []
    for unit in pending_destroyed(state):
        notes.append(_capture_prize(state, unit) or _destroy(state, unit, "destroyed"))
    for uid, targets in list(g["surge_target"].items()):
        unit = state["units"][uid]
        shots = {str(f["weapon"]) for f in g["fired"].get(uid, [])}
        for windex in list(targets):
            tracker = unit["trackers"].get(f"surge-{windex}")
            if windex not in shots:  # seed 001, Surge: skipping a turn resets the counter
                del targets[windex]
                if tracker and tracker["index"]:
                    tracker["index"] = 0
                    notes.append(f"{unit['name']}: {tracker['label']} reset (no attack)")
    for unit in state["units"].values():
        for name in ("Designated", "Afterburner"):
            set_condition(unit, name, False)
    g["fired"], g["ecm_blocked"] = {}, {}
    g["docked"] = {s: b for s, b in g["docked"].items()
                   if not state["units"][s]["removed"] and not state["units"][b]["removed"]}
    notes += victory_checks(state)
    return notes


def close_movement(state: dict) -> list[str]:
    """End of the movement phase: EMP is removed after the affected ship's move (seed 001, EMP)."""
    out = []
    for unit in state["units"].values():
        if not unit["removed"] and set_condition(unit, "EMP", False):
            out.append(f"{unit['name']}: EMP counter removed")
    return out


def burn_fires(state: dict) -> list[str]:
    """Fires burn as the combat phase starts, for two turns after the hit (seed 001, Burning)."""
    g = game(state)
    notes = []
    for uid in list(g["burns"]):
        unit = state["units"][uid]
        burns = g["burns"][uid]
        if unit["removed"] or not burns:
            del g["burns"][uid]
            continue
        tick = eod.burn_tick(burns)
        before = hp_of(unit)
        set_hp(unit, before - tick["damage"])
        if tick["damage"] and hp_of(unit) < before:
            g["last_damage"][uid] = burns[-1].get("by", "")
        kept = [b for b in burns if b["turns_left"] > 1]
        for burn in kept:
            burn["turns_left"] -= 1
        g["burns"][uid] = kept
        if not kept:
            del g["burns"][uid]
        notes.append(f"{unit['name']} burns for {tick['damage']} (HP {before} → {hp_of(unit)})"
                     + (": destroyed at end of combat phase" if hp_of(unit) == 0 else ""))
    return notes


def victory_checks(state: dict) -> list[str]:
    """Checkmate and gladiator at the end of the turn (seed 001, Win Condition)."""
    g = game(state)
    victory = g.get("victory") or {}
    notes = []
    if victory.get("checkmate"):
        in_play = victory.get("in_play") or [s for s in state["sides"]]
        fleets = {s: [] for s in in_play}
        for unit in state["units"].values():
            if unit["side"] in fleets and "design" in unit:
                fleets[unit["side"]].append({"class": cls_of(unit), "hp": hp_of(unit),
                                             "destroyed": unit["removed"]})
        try:
            result = eod.checkmate(fleets, in_play)
        except RuleError as exc:
            return [f"Checkmate: {exc.message}"]
        for fleet in result["eliminated"]:
            for unit in state["units"].values():
                if unit["side"] == fleet and not unit["removed"]:
                    unit["removed"] = True
                    g["destroyed"].append({"unit": unit["id"], "name": unit["name"], "class": cls_of(unit),
                                           "side": fleet, "by": "", "round": state["round"],
                                           "reason": "withdrawn: no admiral"})
        victory["in_play"] = result["in_play"]
        victory["result"] = result["summary"]
        notes.append(f"Checkmate: {result['summary']}")
    if victory.get("gladiator"):
        fleets = {s: [{"class": cls_of(u), "hp": hp_of(u), "destroyed": u["removed"]}
                      for u in state["units"].values() if u["side"] == s and "design" in u]
                  for s in state["sides"]}
        fleets = {s: ships for s, ships in fleets.items() if ships}
        try:
            notes.append(f"Gladiator: {eod.gladiator(fleets)['summary']}")
        except RuleError as exc:
            notes.append(f"Gladiator: {exc.message}")
    return notes


def open_phase(state: dict) -> list[str]:
    g = game(state)
    notes = []
    if phase_name(state) == "Combat":
        notes += burn_fires(state)
    else:
        g["launched"] = {}
    ini = g.get("initiative")
    if ini:
        ini["tick"], ini["next"] = state["tick"], 0
        if ini["mode"] == "rotating":
            ini["steps"], ini["summary"] = rotating_steps(state, ini)
        else:
            ini["steps"], ini["summary"], ini["rolls"] = None, "", {}
    turns = (g.get("victory") or {}).get("turns")
    if turns and phase_name(state) == state["phases"][0] and state["round"] > turns:
        notes.append(f"The agreed {turns} turns are played: tally the points (seed 001, Turns and Points).")
    return notes


def phase_hook(state: dict) -> list[str]:
    """Runs as each phase starts (core next-phase): close the last phase, open this one."""
    if not state.get("tick"):
        return []
    g = game(state)
    notes: list[str] = []
    if g.get("phase_tick") != state["tick"]:
        g["phase_tick"] = state["tick"]
        ended = state["phases"][(state["phase"] - 1) % len(state["phases"])]
        notes += close_combat(state) if ended == "Combat" else close_movement(state)
        notes += open_phase(state)
        g["phase_notes"] = notes
    ini = g.get("initiative")
    if ini and ini["mode"] != "rotating":
        notes = notes + [f"{ROLL_REMINDER} {phase_name(state).lower()} phase ({ini['mode']})."]
    return notes


REMINDER_HOOKS[SLUG] = phase_hook


@action("eod-end-phase", systems=SYSTEMS)
def end_phase(state: dict, p: dict) -> str:
    """End this phase (fires, EMP, destroyed ships removed and scored) and go to the next."""
    ended = phase_name(state)
    label = core.next_phase(state, p)
    notes = game(state).get("phase_notes") or []
    return f"End of {ended.lower()} phase" + (f": {'; '.join(notes)}" if notes else "") + f" → {label}"


# --- equipment, movement, drones, docking ---------------------------------------------------------

def _roll_payload(args: dict, ctx, needs: int, what: str) -> dict:
    dice = _real_dice(args.get("rolled"))
    if dice and len(dice) != 1:
        raise RuleError(f"Enter one D20 for the {what}.", "rolled")
    value = dice[0] if dice else ctx.rng.randint(1, eod.D20)
    chance = eod._pass_chance(needs)
    return {"roll": value, "real": bool(dice),
            "luck": {"expected": float(chance), "actual": int(value > needs), "what": "successes"}}


@action("eod-device", systems=SYSTEMS)
def device(state: dict, p: dict) -> str:
    """Cloak or ECM on or off, at the start of the combat phase (seed 001, Equipment)."""
    unit = designed(state, p.get("unit"))
    kind = p.get("device")
    if kind not in eod.DEVICES:
        raise RuleError("device must be cloak or ecm.", "device")
    if eod.DEVICES[kind][0] not in unit["design"].get("equipment", []):
        raise RuleError(f"{unit['name']} has no {eod.equipment()[eod.DEVICES[kind][0]]['name']}.", "device")
    in_phase(state, "Combat", "Cloaks and ECM switch")
    if game(state)["fired"]:
        raise RuleError("Cloaks and ECM switch only at the start of the combat phase, before the first "
                        "attack (seed 001, Cloaking Device, ECM).", "device")
    on = _flag(p, "on")
    name = eod.DEVICES[kind][1]
    if (name in conditions(unit)) == on:
        raise RuleError(f"{unit['name']}'s {eod.equipment()[eod.DEVICES[kind][0]]['name']} is already "
                        f"{'on' if on else 'off'}.", "device")
    result = eod.switch_device(conditions(unit), kind, on, equipment_fitted=unit["design"].get("equipment", []))
    set_condition(unit, name, on)
    return f"{unit['name']}: {result['summary']}"


@action("eod-afterburner", systems=SYSTEMS)
def afterburner(state: dict, p: dict) -> str:
    """Afterburner: +5 speed this turn, no attack (seed 001, Afterburner)."""
    unit = designed(state, p.get("unit"))
    in_phase(state, "Movement", "Afterburners fire")
    if cls_of(unit) == "drone" or is_base(unit):
        raise RuleError("Only ships (not drones or bases) use an afterburner.", "unit")
    if not set_condition(unit, "Afterburner", True):
        raise RuleError(f"{unit['name']} already has its afterburner on this turn.", "unit")
    move = eod.movement_allowance(stats_of(unit)["speed"], afterburner=True,
                                  emp="EMP" in conditions(unit))
    return f"{unit['name']} afterburner: {move['summary']}"


@action("eod-ftl-jump", systems=SYSTEMS, chance=True)
def ftl_jump(state: dict, p: dict) -> str:
    """FTL jump after moving: D20 > 5 jumps 15 units; usable every third movement phase."""
    unit = designed(state, p.get("unit"))
    in_phase(state, "Movement", "FTL jumps")
    if "ftl-jump-drive" not in unit["design"].get("equipment", []):
        raise RuleError(f"{unit['name']} has no FTL jump drive.", "unit")
    tracker = unit["trackers"]["ftl"]
    cooldown.use(tracker, {}, core.clock(state))
    result = eod.ftl_jump(state["round"], None, dice=[p["roll"]])
    moved = f"jumps {result['distance']} units" if result["jumped"] else "no jump"
    return (f"{unit['name']} FTL jump: rolled {p['roll']} (> {result['roll']['needs']}): {moved}; "
            f"ready again in turn {tracker['ready_at']}")


@ftl_jump.decider
def decide_ftl_jump(state: dict, args: dict, ctx) -> dict:
    unit = designed(state, args.get("unit"))
    in_phase(state, "Movement", "FTL jumps")
    if "ftl-jump-drive" not in unit["design"].get("equipment", []):
        raise RuleError(f"{unit['name']} has no FTL jump drive.", "unit")
    if not cooldown.is_ready(unit["trackers"]["ftl"], core.clock(state)):
        raise RuleError(f"{unit['name']}'s FTL jump drive is cooling down: ready again in turn "
                        f"{unit['trackers']['ftl']['ready_at']} (seed 001, Equipment).", "unit")
    return {"unit": unit["id"], **_roll_payload(args, ctx, eod._check_d20("ftl-jump-drive"), "FTL jump")}


@action("eod-tractor-beam", systems=SYSTEMS, chance=True)
def tractor_beam(state: dict, p: dict) -> str:
    """Tractor beam at the end of the movement phase: range 20, D20 > 10 moves 10 units, else 5."""
    unit, target, mode = _tractor_check(state, p)
    result = eod.tractor_beam(mode, p["distance"], dice=[p["roll"]])
    return f"{unit['name']} {result['summary']} ({target['name']})"


def _tractor_check(state: dict, args: dict):
    unit = designed(state, args.get("unit"))
    in_phase(state, "Movement", "Tractor beams work")
    mode = next((m for m in ("push", "pull") if f"tractor-beam-{m}" in unit["design"].get("equipment", [])), None)
    if mode is None:
        raise RuleError(f"{unit['name']} has no tractor beam.", "unit")
    target = designed(state, args.get("target"), "target")
    if target["id"] == unit["id"]:
        raise RuleError("A tractor beam works on another ship.", "target")
    return unit, target, mode


@tractor_beam.decider
def decide_tractor_beam(state: dict, args: dict, ctx) -> dict:
    unit, target, mode = _tractor_check(state, args)
    distance = need_int(args, "distance", 0, 999)
    if distance > eod.TRACTOR_RANGE:
        raise RuleError(f"Tractor beams have a range of {eod.TRACTOR_RANGE}; {target['name']} is {distance} "
                        "away (seed 001, Tractor Beam).", "distance")
    return {"unit": unit["id"], "target": target["id"], "distance": distance,
            **_roll_payload(args, ctx, eod._check_d20("tractor-beam"), "tractor beam")}


@action("eod-off-the-edge", systems=SYSTEMS, chance=True)
def off_the_edge(state: dict, p: dict) -> str:
    """A ship off the table returns where it left on D20 > 10; otherwise it is lost (decision)."""
    unit = designed(state, p.get("unit"))
    result = eod.off_the_edge(dice=[p["roll"]])
    if not result["returns"]:
        return f"{_lost(state, unit)}: {result['summary']}"
    return f"{unit['name']} {result['summary']}"


def _lost(state: dict, unit: dict) -> str:
    unit["removed"] = True
    game(state)["destroyed"].append({"unit": unit["id"], "name": unit["name"], "class": cls_of(unit),
                                     "side": unit["side"], "by": "", "round": state["round"],
                                     "reason": "lost off the edge"})
    return f"{unit['name']} is lost off the edge"


@off_the_edge.decider
def decide_off_the_edge(state: dict, args: dict, ctx) -> dict:
    unit = designed(state, args.get("unit"))
    return {"unit": unit["id"], **_roll_payload(args, ctx, eod.OFF_THE_EDGE, "off the edge roll")}


@action("eod-launch-drone", systems=SYSTEMS)
def launch_drone(state: dict, p: dict) -> str:
    """Launch a launcher's drone in the movement phase: one in flight per launcher (seed 001)."""
    carrier, launcher = _launch_check(state, p)
    insert_units(state, [p["drone"]])
    g = game(state)
    g["drones"][p["drone"]["id"]] = {"carrier": carrier["id"], "launcher": p["launcher"]}
    g["launched"][carrier["id"]] = g["launched"].get(carrier["id"], 0) + 1
    return f"{carrier['name']} launches {p['drone']['name']}: it may move now and attack this turn"


def _launch_check(state: dict, args: dict):
    carrier = designed(state, args.get("unit"))
    in_phase(state, "Movement", "Drones launch")
    index = weapon_index(carrier, args.get("launcher"), "launcher")
    launcher = carrier["design"]["weapons"][index]
    if "drone" not in launcher:
        raise RuleError(f"{launcher['name']} is not a drone launcher.", "launcher")
    if docked_at(state, carrier["id"]):
        raise RuleError(f"{carrier['name']} is docked: launch it from the base first.", "unit")
    active = [launcher["name"]] if active_drone(state, carrier["id"], index) else []
    engineer = "engineer" in (stats_of(carrier)["specialisations"])
    eod.launch_drone(launcher["name"], active, game(state)["launched"].get(carrier["id"], 0), engineer=engineer)
    return carrier, launcher


@launch_drone.decider
def decide_launch_drone(state: dict, args: dict, ctx) -> dict:
    carrier, launcher = _launch_check(state, args)
    index = weapon_index(carrier, args.get("launcher"), "launcher")
    design = {"name": launcher["name"], "class": "drone", "armour": launcher["drone"]["armour"],
              "weapons": [{k: launcher[k] for k in ("name", "type", "range", "penetration", "damage")}
                          | {"augmenters": []}]}
    name = f"{launcher['name']} ({carrier['name']})"[:40]
    drone = new_unit(f"u{state['next_unit']}", design, carrier["side"], ctx.system, name)
    return {"unit": carrier["id"], "launcher": index, "drone": drone}


@action("eod-dock", systems=SYSTEMS)
def dock(state: dict, p: dict) -> str:
    """Dock a ship at a larger base in the movement phase: it cannot fire or be targeted (seed 001)."""
    ship = designed(state, p.get("unit"))
    base = designed(state, p.get("base"), "base")
    in_phase(state, "Movement", "Ships dock")
    if not is_base(base):
        raise RuleError(f"{base['name']} is not a base.", "base")
    if docked_at(state, ship["id"]):
        raise RuleError(f"{ship['name']} is already docked.", "unit")
    if is_base(ship):
        raise RuleError("A base does not dock.", "unit")
    docked = sum(1 for b in game(state)["docked"].values() if b == base["id"])
    result = eod.dock(cls_of(ship), cls_of(base), docked)
    game(state)["docked"][ship["id"]] = base["id"]
    return f"{ship['name']} docks at {base['name']}: {result['summary']}"


@action("eod-undock", systems=SYSTEMS)
def undock(state: dict, p: dict) -> str:
    """Launch a docked ship from its base at the start of the movement phase (seed 001, Docking)."""
    ship = designed(state, p.get("unit"))
    in_phase(state, "Movement", "Docked ships launch")
    base = docked_at(state, ship["id"])
    if not base:
        raise RuleError(f"{ship['name']} is not docked.", "unit")
    del game(state)["docked"][ship["id"]]
    return f"{ship['name']} launches from {state['units'][base]['name']}"


@action("eod-detection-base", systems=SYSTEMS)
def detection_base(state: dict, p: dict) -> str:
    """Set the detection base distance: 30 (the seed's formula), 25 (its prose) or as agreed."""
    before = state["settings"].get("detection_base", eod.DEFAULT_DETECTION_BASE)
    if p["base"] == before:
        raise RuleError(f"The detection base is already {before}.", "base")
    state["settings"]["detection_base"] = p["base"]
    return f"Detection base {before} → {p['base']}: detected when distance ≤ {p['base']} − stealth + detection"


@detection_base.decider
def decide_detection_base(state: dict, args: dict, ctx) -> dict:
    spec = ctx.system.settings.get("detection_base", {})
    return {"base": need_int(args, "base", spec.get("min", 0), spec.get("max", 100))}


# --- victory --------------------------------------------------------------------------------------

@action("eod-victory", systems=SYSTEMS)
def victory(state: dict, p: dict) -> str:
    """Choose the win conditions (checkmate, points, capture, gladiator, interdiction) and turns."""
    chosen = [v for v in VICTORY if _flag(p, v)]
    if not chosen:
        raise RuleError("Pick at least one win condition (seed 001, Win Condition).", "victory")
    turns = need_int(p, "turns", 1, 99) if p.get("turns") not in (None, "") else None
    g = game(state)
    old = g.get("victory") or {}
    g["victory"] = {**{v: v in chosen for v in VICTORY}, "turns": turns,
                    "in_play": old.get("in_play"), "result": old.get("result")}
    return f"Win conditions: {', '.join(chosen)}" + (f" over {turns} turns" if turns else "")


@action("eod-role", systems=SYSTEMS)
def role(state: dict, p: dict) -> str:
    """Mark a ship as a convoy ship (interdiction) or the prize (capture the ship), or neither."""
    unit = designed(state, p.get("unit"))
    kind = p.get("role") or "none"
    if kind not in ("convoy", "prize", "none"):
        raise RuleError("role must be convoy, prize or none.", "role")
    roles = game(state)["roles"]
    if roles.get(unit["id"], "none") == kind:
        raise RuleError(f"{unit['name']} is already {'unmarked' if kind == 'none' else 'a ' + kind + ' ship'}.", "role")
    if kind == "none":
        del roles[unit["id"]]
    else:
        roles[unit["id"]] = kind
    return f"{unit['name']} is {'no longer marked' if kind == 'none' else 'a ' + kind + ' ship'}"


@action("eod-capture", systems=SYSTEMS)
def capture(state: dict, p: dict) -> str:
    """Capture a ship for a fleet: full hit points, it changes sides (seed 001, Capture the Ship)."""
    unit = designed(state, p.get("unit"))
    fleet = p.get("fleet")
    if fleet not in state["sides"]:
        raise RuleError(f"fleet must be one of {', '.join(state['sides'])}.", "fleet")
    if fleet == unit["side"]:
        raise RuleError(f"{unit['name']} already flies for {fleet}.", "fleet")
    result = eod.capture_ship({"class": cls_of(unit), "max_hp": unit["trackers"]["hp"]["max"],
                               "name": unit["name"]}, fleet)
    set_hp(unit, result["hp"])
    unit["side"] = fleet
    game(state)["docked"].pop(unit["id"], None)
    return result["summary"]


def standings(state: dict) -> dict:
    """What the panel shows for the chosen win conditions."""
    g = game(state)
    victory = g.get("victory") or {}
    out = {"points": points(state), "victory": victory}
    roles = g["roles"]
    if victory.get("capture"):
        held = {s: sum(1 for u, r in roles.items() if r == "prize" and not state["units"][u]["removed"]
                       and state["units"][u]["side"] == s) for s in state["sides"]}
        out["capture"] = eod.capture_tally(held)
    if victory.get("interdiction"):
        convoy = [state["units"][u] for u, r in roles.items() if r == "convoy"]
        if convoy:
            defender = convoy[0]["side"]
            attackers = [s for s in state["sides"] if s != defender]
            destroyed = sum(1 for u in convoy if u["removed"])
            out["interdiction"] = eod.interdiction([{"attacker": attackers[0] if attackers else "",
                                                     "defender": defender, "destroyed": destroyed,
                                                     "survived": len(convoy) - destroyed}])
    return out
