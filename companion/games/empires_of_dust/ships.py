"""Empires of Dust: equipment, movement, drones and docking (seed 001, Equipment, Drones, Bases)."""
from __future__ import annotations

from companion.actions import action
from companion.actions import core
from companion.rules import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.trackers import cooldown, need_int
from companion.games.empires_of_dust.actions import (SYSTEMS, active_drone, cls_of, conditions, designed, docked_at, game,
                                               in_phase, insert_units, is_base, new_unit, set_condition, stats_of,
                                               weapon_index)
from companion.games.empires_of_dust.attack import _flag, _real_dice

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
