"""Empires of Dust: drones and docking at the table (seed 001, Drone Launchers; Docking).
"""
from __future__ import annotations

from companion.actions import action
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.actions.fleets import insert_units, new_unit
from companion.games.empires_of_dust.state import (
    SYSTEMS,
    active_drone,
    cls_of,
    designed,
    docked_at,
    game,
    is_base,
    stats_of,
    weapon_index,
)
from companion.said import N_, Said, _
from companion.schema import Ref


@action("eod-launch-drone", phase="Movement", doing=N_("Launching a drone"), systems=SYSTEMS,
        fields={"unit": Ref("drone"), "launcher": Ref("launcher")})
def launch_drone(state: dict, p: dict) -> str:
    """Launch a launcher's drone in the movement phase: one in flight per launcher (seed 001)."""
    carrier, launcher = _launch_check(state, p)
    insert_units(state, [p["drone"]])
    g = game(state)
    g["drones"][p["drone"]["id"]] = {"carrier": carrier["id"], "launcher": p["launcher"]}
    g["launched"][carrier["id"]] = g["launched"].get(carrier["id"], 0) + 1
    if is_base(carrier):  # a base launches from each launcher once per turn (seed 001, Bases: Combat)
        g.setdefault("launched_from", {}).setdefault(carrier["id"], []).append(p["launcher"])
    return Said("%(unit)s launches %(drone)s: it may move now and attack this turn", unit=carrier["name"],
                drone=p["drone"]["name"])


def _launch_check(state: dict, args: dict):
    carrier = designed(state, args.get("unit"))
    index = weapon_index(carrier, args.get("launcher"), "launcher")
    launcher = carrier["design"]["weapons"][index]
    if "drone" not in launcher:
        raise RuleError(_("%(launcher)s is not a drone launcher.", launcher=launcher["name"]), "launcher")
    if docked_at(state, carrier["id"]):
        raise RuleError(_("%(unit)s is docked: launch it from the base first.", unit=carrier["name"]), "unit")
    active = [launcher["name"]] if active_drone(state, carrier["id"], index) else []
    engineer = "engineer" in (stats_of(carrier)["specialisations"])
    base = cls_of(carrier) if is_base(carrier) else None
    used = index in game(state).get("launched_from", {}).get(carrier["id"], [])
    eod.launch_drone(launcher["name"], active, game(state)["launched"].get(carrier["id"], 0), engineer=engineer,
                     base=base, launcher_used=used)
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


@action("eod-dock", phase="Movement", doing=N_("Docking"), systems=SYSTEMS, fields={"unit": Ref("unit"), "base": Ref("base")})
def dock(state: dict, p: dict) -> str:
    """Dock a ship at a larger base in the movement phase: it cannot fire or be targeted (seed 001)."""
    ship = designed(state, p.get("unit"))
    base = designed(state, p.get("base"), "base")
    if not is_base(base):
        raise RuleError(_("%(base)s is not a base.", base=base["name"]), "base")
    if docked_at(state, ship["id"]):
        raise RuleError(_("%(unit)s is already docked.", unit=ship["name"]), "unit")
    if is_base(ship):
        raise RuleError(_("A base does not dock."), "unit")
    docked = sum(1 for b in game(state)["docked"].values() if b == base["id"])
    result = eod.dock(cls_of(ship), cls_of(base), docked)
    game(state)["docked"][ship["id"]] = base["id"]
    return Said("%(unit)s docks at %(base)s: %(summary)s", unit=ship["name"], base=base["name"], summary=result["summary"])


@action("eod-undock", phase="Movement", doing=N_("Launching a docked ship"), systems=SYSTEMS, fields={"unit": Ref("unit")})
def undock(state: dict, p: dict) -> str:
    """Launch a docked ship from its base at the start of the movement phase (seed 001, Docking)."""
    ship = designed(state, p.get("unit"))
    base = docked_at(state, ship["id"])
    if not base:
        raise RuleError(_("%(unit)s is not docked.", unit=ship["name"]), "unit")
    del game(state)["docked"][ship["id"]]
    return Said("%(unit)s launches from %(base)s", unit=ship["name"], base=state["units"][base]["name"])
