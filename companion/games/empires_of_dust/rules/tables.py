"""Empires of Dust (seed 001): the seed's tables, read from ``content/empires-of-dust/tables/``
(the single source): penetration, ship classes, bases, weapon types, armour vs weapon, augmenters,
equipment, auras, specialisations, fleet sizes, victory points and nebulae.
"""
from __future__ import annotations

from functools import lru_cache

from companion.content import lookup_table
from companion.errors import RuleError
from companion.said import _

from .seed_numbers import SLUG, _key


def _records(table: str) -> list[dict]:
    raw = lookup_table(SLUG, table)
    return [dict(zip(raw["columns"], row, strict=False)) for row in raw["rows"]]


def _roll_cell(cell) -> int | None:
    return cell if isinstance(cell, int) else None


@lru_cache(maxsize=1)
def penetration_table() -> tuple[tuple[int, ...], ...]:
    """The 21x21 table, ``[armour][penetration]`` (seed 001, Armour Penetration) from content."""
    raw = lookup_table(SLUG, "penetration")
    rows = tuple(tuple(row[1:]) for row in raw["rows"])
    if [row[0] for row in raw["rows"]] != list(range(21)) or any(len(r) != 21 for r in rows):
        raise RuleError(_("The penetration table must have armour rows 0-20 and penetration columns 0-20."))
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
