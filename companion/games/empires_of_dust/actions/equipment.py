"""Empires of Dust: equipment at the table (seed 001, Equipment; Off the Edge; Detecting Targets):
cloak and ECM, afterburner, FTL jump, tractor beam, a ship off the edge, the detection base.
"""
from __future__ import annotations

from companion.actions import action, chance, core, entered_int, needed
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.state import (
    LOST_OFF_THE_EDGE,
    SYSTEMS,
    cls_of,
    conditions,
    designed,
    game,
    is_base,
    set_condition,
    stats_of,
)
from companion.said import N_, Said, _
from companion.schema import Dice, Flag, Int, Ref, Text
from companion.trackers import cooldown

# each of these rolls one D20 (seed 001, FTL Jump Drive, Tractor Beam, Off the Edge)
ONE_D20 = Dice(eod.D20, 1, "the real D20, or empty to roll")


def _roll_payload(args: dict, ctx, needs: int) -> dict:
    dice = args.get("rolled")
    value = dice[0] if dice else ctx.rng.randint(1, eod.D20)
    chance = eod._pass_chance(needs)
    return {"roll": value, "real": bool(dice),
            "luck": {"expected": float(chance), "actual": int(value > needs), "what": "successes"}}


@action("eod-device", phase="Combat", doing=N_("Switching a cloak or ECM"), systems=SYSTEMS,
        fields={"unit": Ref("unit"), "device": Text(20), "on": Flag()})
def device(state: dict, p: dict) -> str:
    """Cloak or ECM on or off, at the start of the combat phase (seed 001, Equipment)."""
    unit = designed(state, p.get("unit"))
    kind = p.get("device")
    if kind not in eod.DEVICES:
        raise RuleError(_("device must be cloak or ecm."), "device")
    if eod.DEVICES[kind][0] not in unit["design"].get("equipment", []):
        raise RuleError(_("%(unit)s has no %(item)s.", unit=unit["name"], item=eod.equipment()[eod.DEVICES[kind][0]]["name"]),
                        "device")
    if game(state)["fired"]:
        raise RuleError(_("Cloaks and ECM switch only at the start of the combat phase, before the first "
                          "attack (seed 001, Cloaking Device, ECM)."), "device")
    on = p.get("on", False)
    name = eod.DEVICES[kind][1]
    if (name in conditions(unit)) == on:
        item = eod.equipment()[eod.DEVICES[kind][0]]["name"]
        raise RuleError(_("%(unit)s's %(item)s is already on.", unit=unit["name"], item=item) if on
                        else _("%(unit)s's %(item)s is already off.", unit=unit["name"], item=item), "device")
    result = eod.switch_device(conditions(unit), kind, on, equipment_fitted=unit["design"].get("equipment", []))
    set_condition(unit, name, on)
    return Said("%(unit)s: %(summary)s", unit=unit["name"], summary=result["summary"])


@action("eod-afterburner", phase="Movement", doing=N_("Firing an afterburner"), systems=SYSTEMS, fields={"unit": Ref("unit")})
def afterburner(state: dict, p: dict) -> str:
    """Afterburner: +5 speed this turn, no attack (seed 001, Afterburner)."""
    unit = designed(state, p.get("unit"))
    if cls_of(unit) == "drone" or is_base(unit):
        raise RuleError(_("Only ships (not drones or bases) use an afterburner."), "unit")
    if not set_condition(unit, "Afterburner", True):
        raise RuleError(_("%(unit)s already has its afterburner on this turn.", unit=unit["name"]), "unit")
    move = eod.movement_allowance(stats_of(unit)["speed"], afterburner=True,
                                  emp="EMP" in conditions(unit))
    return Said("%(unit)s afterburner: %(move)s", unit=unit["name"], move=move["summary"])


@action("eod-ftl-jump", phase="Movement", doing=N_("An FTL jump"), systems=SYSTEMS, chance=True, fields={
    "unit": Ref("unit"), "rolled": ONE_D20})
def ftl_jump(state: dict, p: dict) -> str:
    """FTL jump after moving: D20 > 5 jumps 15 units; usable every third movement phase."""
    unit = designed(state, p.get("unit"))
    if "ftl-jump-drive" not in unit["design"].get("equipment", []):
        raise RuleError(_("%(unit)s has no FTL jump drive.", unit=unit["name"]), "unit")
    tracker = unit["trackers"]["ftl"]
    cooldown.use(tracker, {}, core.clock(state))
    result = eod.ftl_jump(state["round"], None, dice=[p["roll"]])
    moved = Said("jumps %(n)s units", n=result["distance"]) if result["jumped"] else Said("no jump")
    return Said("%(unit)s FTL jump: rolled %(roll)s (> %(needs)s): %(moved)s; ready again in turn %(turn)s",
                unit=unit["name"], roll=p["roll"], needs=result["roll"]["needs"], moved=moved, turn=tracker["ready_at"])


@ftl_jump.decider
def decide_ftl_jump(state: dict, args: dict, ctx) -> dict:
    unit = designed(state, args.get("unit"))
    if "ftl-jump-drive" not in unit["design"].get("equipment", []):
        raise RuleError(_("%(unit)s has no FTL jump drive.", unit=unit["name"]), "unit")
    if not cooldown.is_ready(unit["trackers"]["ftl"], core.clock(state)):
        raise RuleError(_("%(unit)s's FTL jump drive is cooling down: ready again in turn %(turn)s (seed 001, Equipment).",
                          unit=unit["name"], turn=unit["trackers"]["ftl"]["ready_at"]), "unit")
    return {"unit": unit["id"], **_roll_payload(args, ctx, eod._check_d20("ftl-jump-drive"))}


@action("eod-tractor-beam", phase="Movement", doing=N_("A tractor beam"), systems=SYSTEMS, chance=True, fields={
    "unit": Ref("unit"), "target": Ref("target"), "distance": Int(0, 999),
    "rolled": ONE_D20})
def tractor_beam(state: dict, p: dict) -> str:
    """Tractor beam at the end of the movement phase: range 20, D20 > 10 moves 10 units, else 5."""
    unit, target, mode = _tractor_check(state, p)
    result = eod.tractor_beam(mode, p["distance"], dice=[p["roll"]])
    return Said("%(unit)s %(summary)s (%(target)s)", unit=unit["name"], summary=result["summary"], target=target["name"])


def _tractor_check(state: dict, args: dict):
    unit = designed(state, args.get("unit"))
    mode = next((m for m in ("push", "pull") if f"tractor-beam-{m}" in unit["design"].get("equipment", [])), None)
    if mode is None:
        raise RuleError(_("%(unit)s has no tractor beam.", unit=unit["name"]), "unit")
    target = designed(state, args.get("target"), "target")
    if target["id"] == unit["id"]:
        raise RuleError(_("A tractor beam works on another ship."), "target")
    return unit, target, mode


@tractor_beam.decider
def decide_tractor_beam(state: dict, args: dict, ctx) -> dict:
    unit, target, mode = _tractor_check(state, args)
    distance = needed(args, "distance")
    if distance > eod.TRACTOR_RANGE:
        raise RuleError(_("Tractor beams have a range of %(range)s; %(target)s is %(distance)s away (seed 001, Tractor Beam).",
                          range=eod.TRACTOR_RANGE, target=target["name"], distance=distance), "distance")
    return {"unit": unit["id"], "target": target["id"], "distance": distance,
            **_roll_payload(args, ctx, eod._check_d20("tractor-beam"))}


@action("eod-off-the-edge", systems=SYSTEMS, chance=True, fields={
    "unit": Ref("unit"), "rolled": ONE_D20})
def off_the_edge(state: dict, p: dict) -> str:
    """A ship off the table returns where it left on D20 > 10; otherwise it is lost (decision)."""
    unit = designed(state, p.get("unit"))
    result = eod.off_the_edge(dice=[p["roll"]])
    if not result["returns"]:
        return Said("%(lost)s: %(summary)s", lost=_lost(state, unit), summary=result["summary"])
    return Said("%(unit)s %(summary)s", unit=unit["name"], summary=result["summary"])


def _lost(state: dict, unit: dict) -> str:
    unit["removed"] = True
    game(state)["destroyed"].append({"unit": unit["id"], "name": unit["name"], "class": cls_of(unit),
                                     "side": unit["side"], "by": "", "round": state["round"],
                                     "reason": LOST_OFF_THE_EDGE})
    return Said("%(unit)s is lost off the edge", unit=unit["name"])


@off_the_edge.decider
def decide_off_the_edge(state: dict, args: dict, ctx) -> dict:
    unit = designed(state, args.get("unit"))
    return {"unit": unit["id"], **_roll_payload(args, ctx, eod.OFF_THE_EDGE)}


@action("eod-detection-base", systems=SYSTEMS, fields={
    "base": Int(0, 100, "the detection base for this game")})
def detection_base(state: dict, p: dict) -> str:
    """Set the detection base distance: 30 (the seed's formula), 25 (its prose) or as agreed."""
    before = state["settings"].get("detection_base", eod.DEFAULT_DETECTION_BASE)
    if p["base"] == before:
        raise RuleError(_("The detection base is already %(base)s.", base=before), "base")
    state["settings"]["detection_base"] = p["base"]
    return Said("Detection base %(before)s → %(base)s: detected when distance ≤ %(base)s − stealth + detection",
                before=before, base=p["base"])


@detection_base.decider
def decide_detection_base(state: dict, args: dict, ctx) -> dict:
    spec = ctx.system.settings.get("detection_base", {})
    return {"base": entered_int(args, "base", lo=spec.get("min", 0), hi=spec.get("max", 100))}


def _d20_roll(state: dict, p: dict) -> None:
    """An imported FTL jump, tractor beam or off-the-edge roll (issue 15): one D20 showing 1 to 20
    (whether it passes is worked out again from it as the event replays)."""
    chance.dice([p["roll"]], eod.D20, "D20")


ftl_jump.dice_check(_d20_roll)
tractor_beam.dice_check(_d20_roll)
off_the_edge.dice_check(_d20_roll)
