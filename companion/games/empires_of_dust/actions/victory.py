"""Empires of Dust: win conditions at the table (seed 001, Win Condition): checkmate and gladiator
at the end of a turn, the chosen conditions, convoy and prize ships, captures, and the standings.
"""
from __future__ import annotations

from companion.actions import action
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.state import NO_ADMIRAL, SYSTEMS, cls_of, designed, game, hp_of, points, set_hp
from companion.said import Said, _, kept
from companion.schema import Flag, Int, Ref, Text

VICTORY = ("checkmate", "points", "capture", "gladiator", "interdiction")


def victory_checks(state: dict) -> list[str]:
    """Checkmate and gladiator at the end of the turn (seed 001, Win Condition)."""
    g = game(state)
    victory = g.get("victory") or {}
    notes = []
    if victory.get("checkmate"):
        in_play = victory.get("in_play") or [s for s in state["sides"]]
        fleets = {s: [] for s in in_play}
        for unit in state["units"].values():
            if unit["side"] in fleets and "design" in unit:
                fleets[unit["side"]].append({"class": cls_of(unit), "hp": hp_of(unit),
                                             "destroyed": unit["removed"]})
        problem = eod.checkmate_problem(fleets, in_play)
        if problem:
            return [Said("Checkmate: %(problem)s", problem=problem)]
        try:
            result = eod.checkmate(fleets, in_play)
        except RuleError as exc:
            return [Said("Checkmate: %(problem)s", problem=exc.message)]
        for fleet in result["eliminated"]:
            for unit in state["units"].values():
                if unit["side"] == fleet and not unit["removed"]:
                    unit["removed"] = True
                    g["destroyed"].append({"unit": unit["id"], "name": unit["name"], "class": cls_of(unit),
                                           "side": fleet, "by": "", "round": state["round"],
                                           "reason": NO_ADMIRAL})
        victory["in_play"] = result["in_play"]
        victory["result"] = kept(result["summary"])
        notes.append(Said("Checkmate: %(summary)s", summary=result["summary"]))
    if victory.get("gladiator"):
        fleets = {s: [{"class": cls_of(u), "hp": hp_of(u), "destroyed": u["removed"]}
                      for u in state["units"].values() if u["side"] == s and "design" in u]
                  for s in state["sides"]}
        fleets = {s: ships for s, ships in fleets.items() if ships}
        problem = eod.gladiator_problem(fleets)
        try:
            notes.append(Said("Gladiator: %(summary)s", summary=problem or eod.gladiator(fleets)["summary"]))
        except RuleError as exc:
            notes.append(Said("Gladiator: %(summary)s", summary=exc.message))
    return notes


@action("eod-victory", systems=SYSTEMS, fields={"turns": Int(1, 99), **{v: Flag() for v in VICTORY}})
def victory(state: dict, p: dict) -> str:
    """Choose the win conditions (checkmate, points, capture, gladiator, interdiction) and turns."""
    chosen = [v for v in VICTORY if p.get(v, False)]
    if not chosen:
        raise RuleError(_("Pick at least one win condition (seed 001, Win Condition)."), "victory")
    turns = p.get("turns")
    g = game(state)
    old = g.get("victory") or {}
    g["victory"] = {**{v: v in chosen for v in VICTORY}, "turns": turns,
                    "in_play": old.get("in_play"), "result": old.get("result")}
    if turns:
        return Said("Win conditions: %(chosen)s over %(turns)s turns", chosen=", ".join(chosen), turns=turns)
    return Said("Win conditions: %(chosen)s", chosen=", ".join(chosen))


@action("eod-role", systems=SYSTEMS, fields={"unit": Ref("unit"), "role": Text(20)})
def role(state: dict, p: dict) -> str:
    """Mark a ship as a convoy ship (interdiction) or the prize (capture the ship), or neither."""
    unit = designed(state, p.get("unit"))
    kind = p.get("role") or "none"
    if kind not in ("convoy", "prize", "none"):
        raise RuleError(_("role must be convoy, prize or none."), "role")
    roles = game(state)["roles"]
    if roles.get(unit["id"], "none") == kind:
        raise RuleError(_("%(unit)s is already unmarked.", unit=unit["name"]) if kind == "none"
                        else _("%(unit)s is already a convoy ship.", unit=unit["name"]) if kind == "convoy"
                        else _("%(unit)s is already a prize ship.", unit=unit["name"]), "role")
    if kind == "none":
        del roles[unit["id"]]
    else:
        roles[unit["id"]] = kind
    if kind == "none":
        return Said("%(unit)s is no longer marked", unit=unit["name"])
    if kind == "convoy":
        return Said("%(unit)s is a convoy ship", unit=unit["name"])
    return Said("%(unit)s is a prize ship", unit=unit["name"])


@action("eod-capture", systems=SYSTEMS, fields={"unit": Ref("unit"), "fleet": Ref("fleet")})
def capture(state: dict, p: dict) -> str:
    """Capture a ship for a fleet: full hit points, it changes sides (seed 001, Capture the Ship)."""
    unit = designed(state, p.get("unit"))
    fleet = p.get("fleet")
    if fleet not in state["sides"]:
        raise RuleError(_("fleet must be one of %(fleets)s.", fleets=", ".join(state["sides"])), "fleet")
    if fleet == unit["side"]:
        raise RuleError(_("%(unit)s already flies for %(fleet)s.", unit=unit["name"], fleet=fleet), "fleet")
    result = eod.capture_ship({"class": cls_of(unit), "max_hp": unit["trackers"]["hp"]["max"],
                               "name": unit["name"]}, fleet)
    set_hp(unit, result["hp"])
    unit["side"] = fleet
    game(state)["docked"].pop(unit["id"], None)
    return result["summary"]


def standings(state: dict) -> dict:
    """What the panel shows for the chosen win conditions."""
    g = game(state)
    victory = g.get("victory") or {}
    out = {"points": points(state), "victory": victory}
    roles = g["roles"]
    if victory.get("capture"):
        held = {s: sum(1 for u, r in roles.items() if r == "prize" and not state["units"][u]["removed"]
                       and state["units"][u]["side"] == s) for s in state["sides"]}
        out["capture"] = eod.capture_tally(held)
    if victory.get("interdiction"):
        convoy = [state["units"][u] for u, r in roles.items() if r == "convoy"]
        if convoy:
            defender = convoy[0]["side"]
            attackers = [s for s in state["sides"] if s != defender]
            destroyed = sum(1 for u in convoy if u["removed"])
            out["interdiction"] = eod.interdiction([{"attacker": attackers[0] if attackers else "",
                                                     "defender": defender, "destroyed": destroyed,
                                                     "survived": len(convoy) - destroyed}])
    return out
