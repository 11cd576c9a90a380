"""Empires of Dust: fleets on the table (seed 001, Ship Stats and Design; Unique Ships): a design
checked for shape, its unit with class HP, cooldown and surge trackers, and ``eod-deploy``.
"""
from __future__ import annotations

import json

from companion import trackers
from companion.actions import action, core
from companion.errors import RuleError, Stale
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.state import EQUIPMENT_TRACKERS, SYSTEMS
from companion.schema import List, Obj, Ref, Text, whole

MAX_SHIPS = 100  # input limit only: the largest preset (armada) is 91 ships
MAX_WEAPONS = 6  # input limit: a star-port has 5 weapon slots (seed 001, Bases)
STAT_LIMIT = 99  # input limit only
# Conditions players set by hand; Burning, Docked, Cloaked, ECM active and "destroyed at end of
# phase" follow from the game state and are shown by the game's own unit panel.
MANUAL_CONDITIONS = ("EMP", "Afterburner", "Designated")
# The designer offers ships and bases by these class lists (seed 001, Ship Stats and Design; Bases).
SHIP_CLASSES = ("frigate", "destroyer", "cruiser", "battleship")
BASE_CLASSES = ("outpost", "station", "star-port")


def _text(value, what: str, limit: int = 40) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RuleError(f"{what} needs a name (1 to {limit} characters).", "fleet")
    value = " ".join(value.split())
    if len(value) > limit:
        raise RuleError(f"{what}: the name {value[:20]!r}... is longer than {limit} characters.", "fleet")
    return value


def _number(value, what: str) -> int:
    value = whole(value) if isinstance(value, str) and whole(value) is not None else value
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


@action("eod-deploy", systems=SYSTEMS, fields={"side": Ref("side"), "preset": Text(60), "name": Text(60),
    "ships": List(Obj(doc="a ship's design (fleets.clean_design checks it)"), MAX_SHIPS)})
def deploy(state: dict, p: dict) -> str:
    """Put a fleet on the table: each ship a unit with its class HP and its design."""
    insert_units(state, p["units"])
    warn = f" ({len(p['warnings'])} design rules broken as printed)" if p["warnings"] else ""
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
    for unit, ship in zip(units, ships, strict=False):
        found = ship_warnings(ship, ctx.system)[1]
        if found:
            unit["warnings"] = found
    if len(state["units"]) + len(units) > core.MAX_UNITS:
        raise RuleError(f"A table holds at most {core.MAX_UNITS} units.", "fleet")
    return {"side": side, "fleet": name, "units": units, "warnings": warnings}
