"""Dreadfleet set-up (seed 002, Setup; Auxiliaries): warships put to sea with their auxiliaries docked,
the scenario, the wind gauge placed with a red and a white die."""
from __future__ import annotations

import copy

from companion import trackers
from companion.actions import action
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.state import GAME, books, retold, set_wind
from companion.said import Said, _
from companion.schema import Dice, Flag, Int, Obj, Text


def _new_unit(state: dict, uid: str, name: str, side: str, template: str, stats: dict, made: dict) -> None:
    # copies: the stored payload must not change when the unit's trackers do later in this apply
    state["units"][uid] = {"id": uid, "name": name, "side": side, "template": template,
                          "stats": copy.deepcopy(stats), "trackers": copy.deepcopy(made), "activated": False,
                          "removed": False}
    state["unit_order"].append(uid)
    state["next_unit"] += 1


def _made(system, template: str, stats: dict) -> dict:
    return {spec["id"]: trackers.create(spec, stats) for spec in system.templates[template].get("trackers", [])}


@action("df-warship", systems=GAME, fields={"name": Text(60, "the warship's name (seed 002)"), "sail": Flag(),
    "stats": Obj(doc="the Warship card's characteristics, typed from the card"),
    "aux": Obj(doc="the auxiliaries' characteristics, if it carries any")})
def put_to_sea(state: dict, p: dict) -> str:
    """Put a warship to sea from its Warship card, with its auxiliaries docked inside it."""
    if any(u["name"] == p["units"][0]["name"] and u["template"] == "warship" for u in state["units"].values()):
        raise RuleError(_("The %(ship)s is already at sea.", ship=p["units"][0]["name"]), "name")
    game = books(state)
    for i, unit in enumerate(p["units"]):
        if unit["unit"] != f"u{state['next_unit']}":
            raise RuleError(_("The table changed while the warship was being added; try again."), "unit")
        _new_unit(state, unit["unit"], unit["name"], unit["side"], unit["template"], unit["stats"],
                  unit["trackers"])
        if i:
            # seed 002, Auxiliaries: "Unless specified, auxiliaries start the game inside their parent"
            game["parent"][unit["unit"]] = game["docked"][unit["unit"]] = p["units"][0]["unit"]
    ship = p["units"][0]
    aux = [u["name"] for u in p["units"][1:]]
    said = {"ship": ship["name"], "side": ship["side"]}
    if aux:
        return Said("%(ship)s (%(side)s) puts to sea with %(auxiliaries)s docked", auxiliaries=", ".join(aux), **said)
    if p.get("aux_missing"):
        return Said("%(ship)s (%(side)s) puts to sea (no auxiliary card entered)", **said)
    return Said("%(ship)s (%(side)s) puts to sea", **said)


@put_to_sea.decider
def decide_put_to_sea(state: dict, args: dict, ctx) -> dict:
    name = df.canonical_name(args.get("name") or "")
    if name not in df.WARSHIPS:
        raise RuleError(_("Choose one of the ten warships (%(ships)s).", ships=", ".join(df.WARSHIPS)), "name")
    side, auxiliaries = df.WARSHIPS[name]
    if side not in state["sides"]:
        raise RuleError(_("The %(ship)s sails for the %(side)s, which is not a side at this table.", ship=name, side=side),
                        "side")
    card = df.validate_warship({**(args.get("stats") or {}), "sail": args.get("sail", False)})
    stats = {**{k: card[k] for k in df.WARSHIP_STATS}, "sail": int(card["sail"]), "captain": True,
             "has_handling": True}
    units = [{"unit": f"u{state['next_unit']}", "name": name, "side": side, "template": "warship",
              "stats": stats, "trackers": _made(ctx.system, "warship", stats)}]
    raw_aux = args.get("aux") or {}
    if auxiliaries and any(raw_aux.get(k) not in (None, "") for k in df.AUXILIARY_STATS):
        aux = df.validate_warship({k: raw_aux.get(k) for k in df.AUXILIARY_STATS}, auxiliary=True)
        for n, aux_name in enumerate(auxiliaries, start=1):
            aux_stats = {**{k: aux[k] for k in df.AUXILIARY_STATS}, "flying": int(df.is_flying(aux_name)),
                         "auxiliary": True}
            label = f"{aux_name}{f' {n}' if len(auxiliaries) > 1 else ''} ({name})"
            units.append({"unit": f"u{state['next_unit'] + n}", "name": label, "side": side,
                          "template": "auxiliary", "stats": aux_stats,
                          "trackers": _made(ctx.system, "auxiliary", aux_stats)})
    return {"units": units, "aux_missing": bool(auxiliaries) and len(units) == 1}


@action("df-scenario", systems=GAME, fields={"name": Text(60), "turns": Int(1, 99), "victory": Text(300)})
def scenario(state: dict, p: dict) -> str:
    """Say which scenario is played: its name, how many turns, the victory conditions."""
    name = " ".join(str(p.get("name") or "").split())
    if not name or len(name) > 60:
        raise RuleError(_("Name the scenario (1 to 60 characters)."), "name")
    turns = p.get("turns")
    victory = " ".join(str(p.get("victory") or "").split())
    if len(victory) > 200:
        raise RuleError(_("Victory conditions are at most 200 characters."), "victory")
    books(state)["scenario"] = {"name": name, "turns": turns, "victory": victory}
    if turns:
        return Said("Scenario: %(name)s, %(turns)s turns", name=name, turns=turns)
    return Said("Scenario: %(name)s, no turn limit", name=name)


@action("df-wind-place", systems=GAME, chance=True, fields={"dice": Dice(6, 2)})
def place_wind(state: dict, p: dict) -> str:
    """Place the wind gauge at set-up: a red die for the first number, a white die for the second."""
    game = books(state)
    if game["wind_placed"]:
        raise RuleError(_("The wind gauge is already placed; Fate cards move it from now on."), "wind")
    set_wind(state, p["position"])
    game["wind_placed"] = True
    placed = retold(p["summary"], lambda: df.placed_summary(p))
    return Said("%(placed)s (real dice)", placed=placed) if p.get("real") else placed


@place_wind.decider
def decide_place_wind(state: dict, args: dict, ctx) -> dict:
    if books(state)["wind_placed"]:
        raise RuleError(_("The wind gauge is already placed; Fate cards move it from now on."), "wind")
    dice = args.get("dice")
    result = df.place_wind(dice, ctx.rng)
    return {**result, "dice": [result["red"], result["white"]], "real": dice is not None}
