"""Empires of Dust: the fleet designer's form (rendered by the views): a draft read from the form's
fields, checked as it is typed, and its buttons (add a ship or weapon, load a preset or a saved fleet).
Saved fleets are library items of kind "fleet".
"""
from __future__ import annotations

import json
import re

from companion.errors import RuleError
from companion.game_pages import get_db, store, systems
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.actions.fleets import (
    BASE_CLASSES,
    MAX_SHIPS,
    MAX_WEAPONS,
    SHIP_CLASSES,
    check_fleet,
    clean_design,
    clean_fleet,
)
from companion.games.empires_of_dust.state import SLUG
from companion.said import N_, _
from companion.schema import whole

KIND = "fleet"
AVERAGE = "average-fleet"
GONE = N_("That saved fleet is gone.")
NOT_A_FLEET = N_("That saved item is not an Empires of Dust fleet.")
TOO_MANY = N_("A fleet has at most %(most)s ships.")


def eod_saved_fleets() -> list[dict]:
    return store.library_items(get_db(), SLUG, KIND)


def _int_or_text(value: str):
    value = (value or "").strip()
    return whole(value) if whole(value) is not None else value  # the rules check the number's range


def average_ships() -> dict:
    """class -> the appendix's average ship of that class (seed 001, Appendix: Average Fleet)."""
    return {s["class"]: s for s in systems()[SLUG].fleets[AVERAGE]["ships"]}


def new_ship(cls: str, number: int) -> dict:
    """A ready design of a class: the appendix's average ship, or an empty base.

    The battleship's printed stats add up to 55 against its stat total of 40 (a seed deviation);
    a battleship within its ranges that totals 40 has armour 25, speed 15, stealth 0 and detection
    0 (seed 001, Ship Stats and Design), so a new battleship starts there with the appendix's guns."""
    name = f"{cls.replace('-', ' ').title()} {number}"
    if cls in BASE_CLASSES:
        return {"name": name, "class": cls, "armour": {t: 0 for t in eod.ARMOUR_TYPES}, "weapons": []}
    base = json.loads(json.dumps(average_ships()[cls]))
    ship = {k: base[k] for k in ("class", "speed", "stealth", "detection", "armour", "weapons")}
    if cls == "battleship":
        low = eod.ship_classes()["battleship"]
        ship.update(speed=low["speed"][0], stealth=low["stealth"][0], detection=low["detection"][0],
                    armour={"reflective": 9, "reinforced": 8, "reactive": 8})
        ship["weapons"] = [w for w in ship["weapons"] if "drone" not in w]
    return {**ship, "name": name, "equipment": [], "auras": [], "specialisations": []}


def draft_from_form(form) -> dict:
    """The designer's fields (s0.name, s0.w1.range ...) as a fleet draft, values as typed."""
    indices = sorted({int(m.group(1)) for k in form for m in [re.match(r"s(\d+)\.name$", k)] if m})
    ships = []
    for i in indices[:MAX_SHIPS]:
        p = f"s{i}."
        ship = {"name": form.get(p + "name", ""), "class": form.get(p + "class", "frigate"),
                "armour": {t: _int_or_text(form.get(f"{p}armour.{t}", "0")) for t in eod.ARMOUR_TYPES}}
        if ship["class"] in SHIP_CLASSES:
            for stat in ("speed", "stealth", "detection"):
                ship[stat] = _int_or_text(form.get(p + stat, "0"))
            ship["specialisations"] = [s for s in (form.get(p + "spec1"), form.get(p + "spec2")) if s]
            ship["equipment"] = form.getlist(p + "equipment")
            ship["auras"] = form.getlist(p + "auras")
            extra = {t: _int_or_text(form.get(f"{p}extra.{t}", "0")) for t in eod.ARMOUR_TYPES}
            if any(extra.values()):
                ship["extra_armour"] = extra
        if form.get(p + "unique"):
            ship["unique"] = True
        weapons = sorted({int(m.group(1)) for k in form for m in [re.match(rf"s{i}\.w(\d+)\.name$", k)] if m})
        ship["weapons"] = []
        for j in weapons[:MAX_WEAPONS]:
            q = f"{p}w{j}."
            weapon = {"name": form.get(q + "name", ""), "type": form.get(q + "type", "beam"),
                      **{s: _int_or_text(form.get(q + s, "0")) for s in ("range", "penetration", "damage")},
                      "augmenters": [a for a in (form.get(q + "aug1"), form.get(q + "aug2")) if a]}
            if form.get(q + "launcher"):
                kind = form.get(q + "drone_armour") or "reflective"
                weapon["drone"] = {"armour": {kind: eod.ship_classes()["drone"]["armour"][0]}}
                weapon["augmenters"] = []
            ship["weapons"].append(weapon)
        ships.append(ship)
    return {"name": form.get("fleet_name", "") or "", "size": form.get("size", ""), "ships": ships}


def check_draft(draft: dict) -> dict:
    """Each violation in one sentence; seed deviations and unique ships as warnings."""
    try:
        ships = clean_fleet(draft["ships"])
        refusals, warnings = check_fleet(ships, systems()[SLUG])
    except RuleError as exc:
        return {"refusals": [exc.message], "warnings": [], "composition": None}
    refusals, warnings = [eod.spoken(r) for r in refusals], [eod.spoken(w) for w in warnings]
    composition = None
    if draft.get("size") in eod.fleet_sizes():
        composition = eod.fleet_composition(ships, draft["size"])
    return {"refusals": refusals, "warnings": warnings, "composition": composition}


def _apply_op(draft: dict, op: str) -> str | None:
    """Designer buttons: add or remove ships and weapons, start from a preset or saved fleet."""
    ships = draft["ships"]
    word, _sep, rest = op.partition(":")
    if word == "add-ship" and (rest in SHIP_CLASSES or rest in BASE_CLASSES):
        if len(ships) >= MAX_SHIPS:
            return _(TOO_MANY, most=MAX_SHIPS)
        ships.append(new_ship(rest, 1 + sum(1 for s in ships if s.get("class") == rest)))
    elif word == "remove-ship" and rest.isdigit() and int(rest) < len(ships):
        ships.pop(int(rest))
    elif word == "add-weapon" and rest.isdigit() and int(rest) < len(ships):
        weapons = ships[int(rest)]["weapons"]
        if len(weapons) >= MAX_WEAPONS:
            return _("A ship carries at most %(most)s weapons here.", most=MAX_WEAPONS)
        weapons.append({"name": _("Weapon %(n)s", n=len(weapons) + 1), "type": "beam", "range": 30, "penetration": 10,
                        "damage": 10, "augmenters": []})
    elif word == "remove-weapon":
        i, _sep, j = rest.partition(":")
        if i.isdigit() and j.isdigit() and int(i) < len(ships) and int(j) < len(ships[int(i)]["weapons"]):
            ships[int(i)]["weapons"].pop(int(j))
    elif word == "load" and rest == AVERAGE:
        fleet = systems()[SLUG].fleets[AVERAGE]
        draft["name"] = fleet["name"]
        draft["ships"] = [clean_design(s, i) for i, s in enumerate(fleet["ships"])]
    elif word == "load" and rest.startswith("library-") and rest[8:].isdigit():
        try:
            item = store.library_item(get_db(), int(rest[8:]))
        except store.NotFound:
            return _(GONE)
        if item["system"] != SLUG or item["kind"] != KIND:
            return _(NOT_A_FLEET)
        draft["name"], draft["ships"] = item["name"], item["data"]["ships"]
    elif word == "new":
        draft["name"], draft["ships"] = "", []
    elif word == "fill" and draft.get("size") in eod.fleet_sizes():
        wanted = eod.fleet_preset(draft["size"])
        if sum(wanted.values()) > MAX_SHIPS:
            return _(TOO_MANY, most=MAX_SHIPS)
        for cls, count in wanted.items():
            have = sum(1 for s in ships if s.get("class") == cls)
            for n in range(have, count):
                ships.append(new_ship(cls, n + 1))
        if len(ships) > MAX_SHIPS:
            del ships[MAX_SHIPS:]
            return _("A fleet has at most %(most)s ships; the rest were left out.", most=MAX_SHIPS)
    return None


def designer_context(draft: dict, message: str | None = None, error: str | None = None,
                     open_ship: int | None = None) -> dict:
    return {"draft": draft, "check": check_draft(draft) if draft["ships"] else None,
            "message": message, "error": error, "open": open_ship, "classes": SHIP_CLASSES, "bases": BASE_CLASSES,
            "equipment": eod.equipment(), "auras": eod.auras(), "augmenters": eod.augmenters(),
            "specs": eod.specialisations(), "weapon_types": eod.weapon_types(),
            "sizes": eod.fleet_sizes(), "saved": eod_saved_fleets(), "armour_types": eod.ARMOUR_TYPES}
