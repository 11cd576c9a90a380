"""Empires of Dust at the table (seed 001): fleets, initiative, attacks and the end of each phase.

Every type is prefixed ``eod-`` so it never collides with another game's action of the same name.
The rules themselves are ``companion.games.empires_of_dust.rules``; this module keeps the table's state:

  ``state["game"]``: ``initiative`` (mode, this phase's steps, who is next), ``fired`` (attacks this
  combat phase), ``ecm_blocked``, ``surge_target``, ``burns``, ``last_damage`` (who scores a kill),
  ``destroyed`` (the record points are tallied from), ``docked``, ``drones``, ``launched``,
  ``roles`` (convoy / prize ships), ``victory``, ``last_attack``, ``phase_notes``.
  ``unit["design"]``: the ship as designed (class, armour by type, weapons, equipment ...).

The end of a phase (fires burning, EMP wearing off, ships at 0 HP removed and scored, checkmate)
happens in the phase hook, so it is the same whether ``eod-end-phase`` or the core ``next-phase``
moved the turn on.  This module holds the state helpers, designs, deploying and initiative; attacks,
the phases and victory, and ships' equipment each have a module of their own beside it.
"""
from __future__ import annotations

import json

from companion import trackers
from companion.actions import Stale, action
from companion.actions import core
from companion.rules import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.trackers import need_int

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
