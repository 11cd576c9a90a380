"""Empires of Dust: what the game panel and a unit's card show (Jinja globals ``eod_panel`` and
``eod_unit``, registered by the views' blueprint).  Pure functions of the table state.
"""
from __future__ import annotations

from companion.actions import phase_now
from companion.actions.core import clock as core_clock
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.actions.fleets import BASE_CLASSES, SHIP_CLASSES
from companion.games.empires_of_dust.actions.initiative import _fleets_with_classes, ini_summary, step_text
from companion.games.empires_of_dust.actions.victory import standings
from companion.games.empires_of_dust.state import (
    DESTROYED,
    LOST_OFF_THE_EDGE,
    NO_ADMIRAL,
    active_drone,
    cls_of,
    conditions,
    docked_at,
    game,
    hp_of,
    is_base,
    pending_destroyed,
    sides_alive,
    stats_of,
)
from companion.said import _, joined, kept, recalled
from companion.trackers import cooldown

# why a ship left the table, as its record keeps it (English): said in the reader's words
REASONS = (DESTROYED, LOST_OFF_THE_EDGE, NO_ADMIRAL)


def eod_panel(state: dict) -> dict:
    """What the game panel shows: initiative, who goes next, pending losses, points, win conditions."""
    g = game(state)
    ini = g.get("initiative")
    steps = []
    if ini and ini.get("steps") and ini["tick"] == state["tick"]:
        steps = [{"text": eod.spoken(step_text(s, state)), "done": i < ini["next"], "now": i == ini["next"]}
                 for i, s in enumerate(ini["steps"])]
        ini = {**ini, "summary": eod.spoken(ini_summary(ini, state))}
    pending = [{"name": u["name"], "side": u["side"], "by": g["last_damage"].get(u["id"]),
                "points": eod.victory_points().get(cls_of(u))} for u in pending_destroyed(state)]
    fired = sum(len(v) for v in g["fired"].values())
    alive = [u for u in state["unit_order"] if not state["units"][u]["removed"]]
    return {"phase": phase_now(state), "ini": ini, "steps": steps,
            "next": next((s["text"] for s in steps if s["now"]), None), "pending": pending,
            "standings": _said_standings(standings(state)),
            "destroyed": [{**d, "reason": _(d["reason"])} if d.get("reason") in REASONS else d for d in g["destroyed"]],
            "last_attack": g.get("last_attack"), "notes": kept(joined("; ", [recalled(n) for n in g.get("phase_notes") or []])),
            "fleets": [s for s in state["sides"] if sides_alive(state).get(s)],
            "rolloffs": _class_rolloffs(state),
            "roster": f"{state['tick']}-{fired}-{'.'.join(alive)}"}


def _said_standings(out: dict) -> dict:
    """The standings' summaries (capture the ship, interdiction) in the reader's words."""
    for key in ("capture", "interdiction"):
        if key in out:
            out[key] = {**out[key], "summary": eod.spoken(out[key]["summary"])}
    return out


def _warnings(unit: dict) -> list[str]:
    """The design rules a unit breaks as printed, kept in English with it: said again in the reader's words
    (the same broken rules, found again from its design), else as kept."""
    kept = unit.get("warnings", [])
    if not kept:
        return []
    try:
        again = {str(v): v for v in eod.design_violations(unit["design"])}
    except RuleError:
        return kept
    return [eod.spoken(again.get(w, w)) for w in kept]


def eod_unit(state: dict, unit: dict) -> dict | None:
    """A designed unit's card: stats, weapons, burns, launchers, docking, devices, what it may do."""
    design = unit.get("design")
    if not design:
        return None
    g = game(state)
    stats = stats_of(unit)
    phase = phase_now(state)
    equipment = design.get("equipment", [])
    launchers = [{"index": i, "name": w["name"], "drone": active_drone(state, unit["id"], i)}
                 for i, w in enumerate(design.get("weapons", [])) if "drone" in w]
    for launcher in launchers:
        if launcher["drone"]:
            launcher["drone_name"] = state["units"][launcher["drone"]]["name"]
    docked = docked_at(state, unit["id"])
    bases = [u for u in state["unit_order"] if not state["units"][u]["removed"]
             and is_base(state["units"][u]) and u != unit["id"]]
    return {
        "cls": design["class"], "stats": stats, "weapons": design.get("weapons", []),
        "equipment": [eod.equipment()[e.replace("-push", "").replace("-pull", "")]["name"]
                      + (" (push)" if e.endswith("-push") else " (pull)" if e.endswith("-pull") else "")
                      for e in equipment if e.replace("-push", "").replace("-pull", "") in eod.equipment()],
        "auras": [eod.auras()[a]["name"] for a in design.get("auras", []) if a in eod.auras()],
        "specs": [eod.specialisations()[s]["name"] for s in design.get("specialisations", [])
                  if s in eod.specialisations()],
        "hp": hp_of(unit), "dying": hp_of(unit) == 0,
        "burns": g["burns"].get(unit["id"], []), "launchers": launchers,
        "docked": state["units"][docked]["name"] if docked else None,
        "docked_here": [state["units"][s]["name"] for s, b in g["docked"].items() if b == unit["id"]],
        "bases": [(b, state["units"][b]["name"]) for b in bases],
        "cloak": "cloaking-device" in equipment, "ecm": "ecm" in equipment,
        "cloaked": "Cloaked" in conditions(unit), "ecm_on": "ECM active" in conditions(unit),
        "ftl": "ftl-jump-drive" in equipment,
        "tractor": any(e.startswith("tractor-beam") for e in equipment),
        "ship": design["class"] in SHIP_CLASSES, "base": design["class"] in BASE_CLASSES,
        "phase": phase, "fired": g["fired"].get(unit["id"], []),
        "role": g["roles"].get(unit["id"]), "warnings": _warnings(unit),
        "launch_note": _launch_note(design["class"]) if launchers else None,
        "targets": [(u, state["units"][u]["name"]) for u in state["unit_order"]
                    if not state["units"][u]["removed"] and u != unit["id"]],
    }


def _launch_note(cls: str) -> str | None:
    """How many drones a base launches a turn: the app's reading of seed 001, Bases: Combat ("Some
    bases may ... launch multiple drones per turn"), shown where a player would wonder."""
    if cls not in eod.base_classes():
        return None
    n = eod.base_classes()[cls]["attacks"]
    if n > 1:
        return _("A %(base)s launches up to %(n)s drones a turn, one per launcher (as many as it attacks; seed 001, "
                 "Bases: Combat).", base=cls.replace("-", " "), n=n)
    return _("A %(base)s launches up to %(n)s drone a turn, one per launcher (as many as it attacks; seed 001, "
             "Bases: Combat).", base=cls.replace("-", " "), n=n)


def _class_rolloffs(state: dict) -> list[dict]:
    """The ship classes two or more fleets have: each is a D20 roll-off in initiative by ship class
    (seed 001, Initiative: Ship Class), from battleships to drones."""
    present = _fleets_with_classes(state)
    out = []
    for cls in eod.CLASS_ORDER:
        fleets = [f for f, classes in present.items() if cls in classes]
        if len(fleets) > 1:
            out.append({"class": cls, "fleets": fleets})
    return out


# A cooldown tracker's short name on a closed row (the card has the full label).
COOLDOWN_WORDS = {"ftl": "FTL", "overloader": "Overloader", "assassins_touch": "Assassin's touch",
                  "fine_tuned_detector": "Detector"}


def eod_row(state: dict, unit: dict) -> dict:
    """What a ship's closed row shows: HP now/max, burning, conditions, equipment cooling down,
    whether it has fired this combat phase and may still fire (the row's "Fire" link)."""
    g = game(state)
    hp = unit["trackers"].get("hp") or {"value": None, "max": None}
    now = core_clock(state)
    cooling = [COOLDOWN_WORDS.get(tid, t["label"]) for tid, t in unit["trackers"].items()
               if t["kind"] == "cooldown" and not cooldown.is_ready(t, now)]
    burns = g["burns"].get(unit["id"], [])
    fired = [f for f in g["fired"].get(unit["id"], []) if f["shot"] == "main"]
    attacks = eod.base_classes()[cls_of(unit)]["attacks"] if is_base(unit) else 1
    combat = phase_now(state) == "Combat"
    docked = docked_at(state, unit["id"])
    return {"hp": hp["value"], "max": hp["max"], "cls": cls_of(unit) if unit.get("design") else None,
            "dying": hp["value"] == 0, "burning": sum(b["per_turn"] for b in burns),
            "conditions": [c for c in conditions(unit) if c not in ("Burning", "Destroyed at end of phase")],
            "cooling": cooling, "fired": bool(fired) and combat,
            "can_fire": combat and "design" in unit and not docked and len(fired) < attacks
            and any("drone" not in w for w in unit["design"].get("weapons", []))}
