"""Empires of Dust at the table (seed 001): the game's part of the table state and the helpers every
action reads it with.

``state["game"]``: ``initiative`` (mode, this phase's steps, who is next), ``fired`` (attacks this
combat phase), ``ecm_blocked``, ``surge_target``, ``burns``, ``last_damage`` (who scores a kill),
``destroyed`` (the record points are tallied from), ``docked``, ``drones``, ``launched``,
``roles`` (convoy / prize ships), ``victory``, ``last_attack``, ``phase_notes``.  The sentences among them
(``last_attack["text"]``, ``phase_notes``, ``victory["result"]``) are kept as messages (``said.kept``): each
reader draws them in their language (templates: ``say``; Python: ``said.english``).
``unit["design"]``: the ship as designed (class, armour by type, weapons, equipment ...).

Every action type of the game is prefixed ``eod-`` so it never collides with another game's action
of the same name; the rules themselves are ``companion.games.empires_of_dust.rules``.  The action
types live by topic in ``actions``: ``fleets`` (designs, deploying), ``initiative``, ``attack``,
``equipment``, ``drones_and_docking``, ``end_phase`` (the end of each phase; its hook is ``phase``) and
``victory``.
"""
from __future__ import annotations

from companion.actions import core
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.said import N_, _

SLUG = eod.SLUG
SYSTEMS = {SLUG}
EQUIPMENT_TRACKERS = {"ftl-jump-drive": "ftl", "overloader": "overloader",
                      "assassins-touch": "assassins_touch", "fine-tuned-detector": "fine_tuned_detector"}
ROLL_REMINDER = "Roll initiative for this"  # the English start of phase.py's reminder (read a stored one with english())
# why a ship left the table, kept in English with the record (the panel says it in the reader's words)
DESTROYED, LOST_OFF_THE_EDGE, NO_ADMIRAL = N_("destroyed"), N_("lost off the edge"), N_("withdrawn: no admiral")


def game(state: dict) -> dict:
    g = state.setdefault("game", {})
    for key in ("fired", "ecm_blocked", "surge_target", "burns", "last_damage", "docked", "drones",
                "launched", "roles"):
        g.setdefault(key, {})
    g.setdefault("destroyed", [])
    return g


def alive(state: dict, uid, field: str = "unit") -> dict:
    unit = core.unit_of(state, uid)
    if unit["removed"]:
        raise RuleError(_("%(unit)s is off the table.", unit=unit["name"]), field)
    return unit


def designed(state: dict, uid, field: str = "unit") -> dict:
    unit = alive(state, uid, field)
    if "design" not in unit:
        raise RuleError(_("%(unit)s has no design: put ships on the table from the fleet designer.", unit=unit["name"]), field)
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
        raise RuleError(_("%(field)s must be one of %(unit)s's weapons.", field=field, unit=unit["name"]), field)
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
