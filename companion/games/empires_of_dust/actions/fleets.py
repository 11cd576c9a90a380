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
from companion.said import Said, _
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
        raise RuleError(_("%(what)s needs a name (1 to %(limit)s characters).", what=what, limit=limit), "fleet")
    value = " ".join(value.split())
    if len(value) > limit:
        raise RuleError(_("%(what)s: the name %(name)r... is longer than %(limit)s characters.", what=what, name=value[:20],
                          limit=limit), "fleet")
    return value


def _number(value, what: str) -> int:
    value = whole(value) if isinstance(value, str) and whole(value) is not None else value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= STAT_LIMIT:
        raise RuleError(_("%(what)s must be a whole number from 0 to %(limit)s.", what=what, limit=STAT_LIMIT), "fleet")
    return value


def _names(value, what: str, limit: int) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or len(value) > limit or not all(isinstance(v, str) for v in value):
        raise RuleError(_("%(what)s must be a list of at most %(limit)s names.", what=what, limit=limit), "fleet")
    return [eod._key(v) for v in value if v.strip()]


def _armour(value, what: str) -> dict:
    if value in (None, ""):
        value = {}
    if not isinstance(value, dict):
        raise RuleError(_("%(what)s must give reflective, reinforced and reactive ratings.", what=what), "fleet")
    out = {}
    for kind in eod.ARMOUR_TYPES:
        out[kind] = _number(value.get(kind, 0), f"{what} {kind}")
    unknown = set(value) - set(eod.ARMOUR_TYPES)
    if unknown:
        raise RuleError(_("%(what)s: unknown armour type %(kind)r; armour is reflective, reinforced or reactive.",
                          what=what, kind=sorted(unknown)[0]), "fleet")
    return out


def clean_weapon(raw, what: str) -> dict:
    if not isinstance(raw, dict):
        raise RuleError(_("%(what)s is not a weapon.", what=what), "fleet")
    name = _text(raw.get("name"), what)
    out = {"name": name, "type": eod._key(raw.get("type") or ""),
           **{stat: _number(raw.get(stat, 0), f"{what} ({name}) {stat}") for stat in ("range", "penetration", "damage")},
           "augmenters": _names(raw.get("augmenters"), _("%(name)s's augmenters", name=name), 4)}
    if raw.get("drone") not in (None, False, ""):
        drone = raw["drone"] if isinstance(raw["drone"], dict) else {}
        out["drone"] = {"armour": _armour(drone.get("armour"), _("%(name)s's drone armour", name=name))}
    return out


def clean_design(raw, index: int = 0) -> dict:
    """A ship, drone or base design as the rules read it, checked for shape (not for the rules)."""
    what = _("Ship %(n)s", n=index + 1)
    if not isinstance(raw, dict):
        raise RuleError(_("%(what)s is not a ship design.", what=what), "fleet")
    name = _text(raw.get("name"), what)
    cls = eod._key(raw.get("class") or "")
    if cls not in eod.ship_classes() and cls not in eod.base_classes():
        known = ", ".join([*eod.ship_classes(), *eod.base_classes()])
        raise RuleError(_("%(name)s: class must be one of %(known)s.", name=name, known=known), "fleet")
    out = {"name": name, "class": cls, "armour": _armour(raw.get("armour"), _("%(name)s's armour", name=name))}
    if cls not in eod.base_classes() and cls != "drone":
        for stat in ("speed", "stealth", "detection"):
            out[stat] = _number(raw.get(stat, 0), _("%(name)s's %(stat)s", name=name, stat=stat))
        out["equipment"] = _names(raw.get("equipment"), _("%(name)s's equipment", name=name), 8)
        out["auras"] = _names(raw.get("auras"), _("%(name)s's auras", name=name), 12)
        out["specialisations"] = _names(raw.get("specialisations"), _("%(name)s's specialisations", name=name), 2)
        if raw.get("extra_armour"):
            out["extra_armour"] = _armour(raw.get("extra_armour"), _("%(name)s's extra armour", name=name))
    weapons = raw.get("weapons") or []
    if not isinstance(weapons, list) or len(weapons) > MAX_WEAPONS:
        raise RuleError(_("%(name)s carries at most %(most)s weapons and drone launchers.", name=name, most=MAX_WEAPONS),
                        "fleet")
    out["weapons"] = [clean_weapon(w, _("%(name)s's weapon %(n)s", name=name, n=i + 1)) for i, w in enumerate(weapons)]
    if raw.get("unique"):
        out["unique"] = True
    return out


def clean_fleet(ships) -> list[dict]:
    if not isinstance(ships, list) or not 1 <= len(ships) <= MAX_SHIPS:
        raise RuleError(_("A fleet has 1 to %(most)s ships.", most=MAX_SHIPS), "fleet")
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


def first_refusal(refusals: list) -> str:
    """A fleet's first broken rule in the asking phone's words, and how many more there are."""
    first, more = eod.spoken(refusals[0]), len(refusals) - 1
    if more > 1:
        return _("%(problem)s (%(n)s more problems)", problem=first, n=more)
    if more:
        return _("%(problem)s (%(n)s more problem)", problem=first, n=more)
    return first


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
        raise Stale(_("The table changed while the ships were being added; try again."), "fleet")
    if len(state["units"]) + len(units) > core.MAX_UNITS:
        raise RuleError(_("A table holds at most %(most)s units.", most=core.MAX_UNITS), "fleet")
    for unit in units:
        state["units"][unit["id"]] = json.loads(json.dumps(unit))
        state["unit_order"].append(unit["id"])
        state["next_unit"] += 1


def side_arg(state: dict, args: dict, ctx) -> str:
    side = args.get("side") or ctx.side or state["sides"][0]
    if side not in state["sides"]:
        raise RuleError(_("side must be one of %(sides)s.", sides=", ".join(state["sides"])), "side")
    return side


@action("eod-deploy", systems=SYSTEMS, fields={"side": Ref("side"), "preset": Text(60), "name": Text(60),
    "ships": List(Obj(doc="a ship's design (fleets.clean_design checks it)"), MAX_SHIPS)})
def deploy(state: dict, p: dict) -> str:
    """Put a fleet on the table: each ship a unit with its class HP and its design."""
    insert_units(state, p["units"])
    ships = ", ".join(u["name"] for u in p["units"])
    if p["warnings"]:
        return Said("%(fleet)s joins %(side)s: %(ships)s (%(n)s design rules broken as printed)", fleet=p["fleet"],
                    side=p["side"], ships=ships, n=len(p["warnings"]))
    return Said("%(fleet)s joins %(side)s: %(ships)s", fleet=p["fleet"], side=p["side"], ships=ships)


@deploy.decider
def decide_deploy(state: dict, args: dict, ctx) -> dict:
    side = side_arg(state, args, ctx)
    preset = args.get("preset")
    if preset:
        if preset not in ctx.system.fleets:
            raise RuleError(_("preset must be one of %(presets)s.", presets=", ".join(ctx.system.fleets)), "preset")
        fleet = ctx.system.fleets[preset]
        name, raw = fleet.get("name", preset), fleet["ships"]
    else:
        name, raw = args.get("name") or "Fleet", args.get("ships")
        name = _text(name, _("The fleet"))
    ships = clean_fleet(raw)
    refusals, warnings = check_fleet(ships, ctx.system)
    if refusals:
        raise RuleError(first_refusal(refusals), "fleet")
    start = state["next_unit"]
    units = [new_unit(f"u{start + i}", ship, side, ctx.system) for i, ship in enumerate(ships)]
    for unit, ship in zip(units, ships, strict=False):
        found = ship_warnings(ship, ctx.system)[1]
        if found:
            unit["warnings"] = found
    if len(state["units"]) + len(units) > core.MAX_UNITS:
        raise RuleError(_("A table holds at most %(most)s units.", most=core.MAX_UNITS), "fleet")
    return {"side": side, "fleet": name, "units": units, "warnings": warnings}
