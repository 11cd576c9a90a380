"""Empires of Dust: initiative at the table (seed 001, Game Sequence): a D20 per phase, by ship
class, or rotating; and who goes next.
"""
from __future__ import annotations

import re

from companion.actions import action, chance, phase_now
from companion.errors import RuleError, Stale
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.state import ROLL_REMINDER, SYSTEMS, cls_of, game, sides_alive
from companion.said import Said, _, english
from companion.schema import Int, Obj, Ref, Text
from companion.trackers import need_int


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


def ini_summary(ini: dict, state: dict):
    """The initiative's summary (as the decider or the phase's start made it) said again from its steps
    and rolls: a Said each reader draws in their own words; the English stored if it says otherwise."""
    def build():
        phase, steps = phase_now(state), ini["steps"]
        if ini["mode"] == "roll":
            return eod.roll_summary(phase, [s["side"] for s in steps], ini["rolls"])
        if ini["mode"] == "class":
            grouped: list[dict] = []
            for s in steps:
                if not grouped or grouped[-1]["class"] != s["class"]:
                    grouped.append({"class": s["class"], "order": []})
                grouped[-1]["order"].append(s["side"])
            return eod.class_summary(phase, grouped)
        return eod.rotating_summary(phase, state["round"] - ini["since"] + 1, [s["side"] for s in steps])
    return eod.retold(ini.get("summary"), build)


def rotating_steps(state: dict, ini: dict) -> tuple[list[dict], str]:
    turn = state["round"] - ini["since"] + 1
    result = eod.initiative_order("rotating", ini["first"], turn=turn, phase=phase_now(state))
    return initiative_steps("rotating", result), result["summary"]

MAX_ROLL_OFF_DICE = 6  # input limit only: a first D20 and up to five tie-breaks


@action("eod-initiative", systems=SYSTEMS, chance=True, fields={"mode": Text(20), "first": Ref("fleet"),
    "d20": Obj(doc="the real D20s by fleet (or by class): {fleet: d20}")})
def initiative(state: dict, p: dict) -> str:
    """Set the initiative mode and this phase's order (D20 per phase, ship class, rotating)."""
    g = game(state)
    g["initiative"] = {"mode": p["mode"], "first": p.get("first"), "since": state["round"],
                       "tick": state["tick"], "steps": p["steps"], "next": 0, "summary": p["summary"],
                       "rolls": p["rolls"]}
    state["reminders"] = [r for r in state["reminders"] if not english(r).startswith(ROLL_REMINDER)]
    return Said("Initiative (%(mode)s): %(summary)s", mode=p["mode"], summary=ini_summary(g["initiative"], state))


@initiative.decider
def decide_initiative(state: dict, args: dict, ctx) -> dict:
    mode = args.get("mode") or (game(state).get("initiative") or {}).get("mode")
    if mode not in ("roll", "class", "rotating"):
        raise RuleError(_("Initiative mode must be roll (D20 per phase), class (by ship class) or rotating "
                          "(fleets take turns) (seed 001, Game Sequence)."), "mode")
    now = game(state).get("initiative")
    if now and now["mode"] == mode and now["tick"] == state["tick"] and now.get("steps"):
        raise RuleError(_("Initiative for this %(phase)s phase is already settled: %(summary)s",
                          phase=phase_now(state).lower(), summary=eod.spoken(ini_summary(now, state))), "mode")
    fleets = [s for s in state["sides"] if sides_alive(state).get(s)]
    if len(fleets) < 2:
        raise RuleError(_("Initiative needs at least two fleets with ships on the table."), "mode")
    entered = args.get("d20") or {}
    if not isinstance(entered, dict):
        raise RuleError(_("d20 must map fleets (or, by ship class, classes) to their real D20s."), "d20")
    phase = phase_now(state)
    if mode == "class":
        present = _fleets_with_classes(state)
        result = eod.initiative_order("class", present, _class_d20s(entered, present), phase=phase, rng=ctx.rng)
        return {"mode": mode, "steps": initiative_steps(mode, result), "summary": result["summary"],
                "rolls": result["rolls"]}
    rolls = {}
    for fleet, value in entered.items():
        if value in ("", None):
            continue
        if fleet not in fleets:
            raise RuleError(_("%(fleet)s has no ships on the table to roll for.", fleet=fleet), "d20")
        rolls[fleet] = real_d20s(value, fleet)
    if mode == "rotating":
        first = args.get("first")
        if first and rolls:
            raise RuleError(_("Either choose the fleet that goes first or enter the roll-off D20s, not both."), "first")
        if first:
            if first not in fleets:
                raise RuleError(_("first must be one of %(fleets)s.", fleets=", ".join(fleets)), "first")
            order = [first] + [f for f in fleets if f != first]
            rolled = {}
        else:  # seed 001, Turns: "Use a roll of a D20 to determine the initial turn order"
            off = eod.initiative_order("roll", fleets, rolls, phase=phase, rng=ctx.rng)
            order, rolled = off["order"], off["rolls"]
        result = eod.initiative_order("rotating", order, turn=1, phase=phase)
        return {"mode": mode, "first": order, "steps": initiative_steps(mode, result),
                "summary": result["summary"], "rolls": rolled}
    result = eod.initiative_order("roll", fleets, rolls, phase=phase, rng=ctx.rng)
    return {"mode": mode, "steps": initiative_steps(mode, result), "summary": result["summary"],
            "rolls": result["rolls"]}


def real_d20s(value, who: str) -> list[int]:
    """A fleet's real D20s for a roll-off: the first, then its tie-breaks (12, [12, 7] or "12 7");
    seed 001, Initiative: "Tied rolls are broken with another roll".  A phone's number pad has no
    space, so "12.7" and "12,7" read as 12 then 7 too."""
    if isinstance(value, str):
        parts = [p for p in re.split(r"[\s,;/.]+", value.strip()) if p]
    else:
        parts = value if isinstance(value, list) else [value]
    if not 1 <= len(parts) <= MAX_ROLL_OFF_DICE:
        raise RuleError(_("D20 for %(who)s: enter 1 to %(most)s D20s (the first, then tie-breaks).", who=who,
                          most=MAX_ROLL_OFF_DICE), "d20")
    what = _("D20 for %(who)s", who=who)
    return [need_int({what: p}, what, 1, 20) for p in parts]


def _class_d20s(entered: dict, present: dict) -> dict:
    """{class: {fleet: D20s}} for initiative by ship class: "For each hull class and phase the
    players roll a D20 for initiative. Tied rolls are broken with another roll" (seed 001)."""
    out: dict = {}
    for cls, by_fleet in entered.items():
        if cls not in eod.CLASS_ORDER:
            raise RuleError(_("By ship class, enter the D20s by class (%(classes)s); %(cls)r is not a ship class.",
                              classes=", ".join(eod.CLASS_ORDER), cls=cls), "d20")
        if not isinstance(by_fleet, dict):
            raise RuleError(_("Enter the %(cls)s roll-off as each fleet's D20s.", cls=cls), "d20")
        for fleet, value in by_fleet.items():
            if value in ("", None):
                continue
            if cls not in present.get(fleet, []):
                raise RuleError(_("%(fleet)s has no %(cls)ss on the table to roll for.", fleet=fleet, cls=cls), "d20")
            out.setdefault(cls, {})[fleet] = real_d20s(value, f"{fleet} ({cls}s)")
    return out


def step_text(step: dict, state: dict) -> Said:
    moves = phase_now(state) == "Movement"
    if step.get("class"):
        if moves:
            return Said("%(fleet)s %(kind)ss move", fleet=step["side"], kind=step["class"])
        return Said("%(fleet)s %(kind)ss fire", fleet=step["side"], kind=step["class"])
    return Said("%(fleet)s moves", fleet=step["side"]) if moves else Said("%(fleet)s fires", fleet=step["side"])


@action("eod-initiative-done", systems=SYSTEMS, fields={
    "expect": Int(0, 999, "the initiative step this was made against")})
def initiative_done(state: dict, p: dict) -> str:
    """The fleet (or class) whose turn it is has moved or fired: the next one goes."""
    ini = game(state).get("initiative")
    if not ini or not ini.get("steps") or ini["tick"] != state["tick"]:
        raise RuleError(_("No initiative order for this phase yet: roll or set it first."), "initiative")
    if "expect" in p and p["expect"] != ini["next"]:
        raise Stale(_("Someone already moved the order on; here it is now."), "initiative")
    if ini["next"] >= len(ini["steps"]):
        raise RuleError(_("Every fleet has had its go this phase: end the phase."), "initiative")
    done = ini["steps"][ini["next"]]
    ini["next"] += 1
    if ini["next"] < len(ini["steps"]):
        return Said("%(step)s: done; next: %(next)s", step=step_text(done, state),
                    next=step_text(ini["steps"][ini["next"]], state))
    return Said("%(step)s: done; every fleet has gone", step=step_text(done, state))


@initiative.dice_check
def initiative_dice(state: dict, p: dict) -> None:
    """An imported initiative roll (issue 15): every D20 shows 1 to 20, and a D20 roll-off's order
    is the one those dice give (highest first, ties rolled again: seed 001, Game Sequence)."""
    chance.every_die(p, eod.D20, keys=("rolls",))
    if p.get("mode") == "roll" and p.get("rolls"):
        again = eod.initiative_order("roll", list(p["rolls"]), p["rolls"], phase=phase_now(state))
        chance.same([s["side"] for s in p["steps"]], again["order"], "initiative order")
