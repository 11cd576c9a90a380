"""Broadsides (seed 002, Broadsides 1-7; Fire As She Bears): the activated warship's shot, or one
fired as she bears, with the Damage cards its unsaved hits draw."""
from __future__ import annotations

from companion.actions import action, chance, needed
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.damage import _told, damage_ready, owe, plan_damage, resolve_damage
from companion.games.dreadfleet.actions.entries import luck
from companion.games.dreadfleet.state import (
    GAME,
    books,
    is_auxiliary,
    order_held,
    reach_step,
    resolve_order,
    turn,
    unit_at_sea,
)
from companion.said import N_, Said, _, joined
from companion.schema import Dice, Flag, Int, Num, Ref


def fired_before(state: dict, unit: dict) -> bool:
    """Whether the ship has fired this scenario (its First Broadside box, or the game's books)."""
    box = unit["trackers"].get("first_broadside")
    if box and box.get("kind") == "boxes":
        return bool(box["marked"][0])
    return unit["id"] in books(state)["fired"]


def _shot_check(state: dict, args: dict) -> tuple[dict, dict, bool]:
    firer = unit_at_sea(state, args.get("firer"), "firer")
    target = unit_at_sea(state, args.get("target"), "target")
    if firer is target:
        raise RuleError(_("A ship cannot fire at itself: choose another target."), "target")
    now = turn(state)
    fasb = args.get("fasb", False)
    if fasb:
        if not order_held(state, firer["id"], "Fire As She Bears"):
            raise RuleError(_("The %(unit)s has no Fire As She Bears order in play.", unit=firer["name"]), "fasb")
    else:
        if now["current"] != firer["id"]:
            raise RuleError(_("The %(unit)s fires in its own activation (activate it first) or with Fire As She Bears.",
                              unit=firer["name"]), "firer")
        if firer["id"] in now["fired"]:
            raise RuleError(_("The %(unit)s has already fired its broadside this activation.", unit=firer["name"]), "firer")
        reach_step(state, firer["id"], 2, A_BROADSIDE)
    return firer, target, fasb


def shot_options(state: dict, args: dict, firer: dict, target: dict) -> dict:
    """The keyword options of a shot (``args`` read by df-broadside's fields: its request, or the odds
    preview's form through ``actions.read_as``); a first broadside is found from the books, not asked."""
    return {"partial": args.get("partial", False), "raking": args.get("raking", False),
            "first_broadside": not fired_before(state, firer), "modifier": args.get("modifier", 0),
            "target_is_auxiliary": is_auxiliary(target)}


A_BROADSIDE = N_("A broadside")
PREVIEWED = ("distance", "partial", "raking", "modifier", "dice", "save_dice")  # what the odds preview reads


@action("df-broadside", phase="Action", doing=A_BROADSIDE, systems=GAME, chance=True, fields={
    "firer": Ref("firer"), "target": Ref("target"),
    "distance": Num(0, 1000, "the range in inches", what=N_("the range"), unit=N_("inches")),
    "fasb": Flag(), "partial": Flag(), "raking": Flag(),
    "modifier": Int(-6, 6), "dice": Dice(6, 60), "save_dice": Dice(6, 60)})
def broadside(state: dict, p: dict) -> str:
    """Fire a broadside: to hit by range, armour saves, a Damage card per unsaved hit drawn at once."""
    firer, target, fasb = _shot_check(state, p)
    if p["first"] == fired_before(state, firer):
        raise RuleError(_("The table changed since the shot was rolled; fire again."), "firer")
    box = firer["trackers"].get("first_broadside")
    if box and box.get("kind") == "boxes":
        box["marked"][0] = True
    books(state)["fired"].append(firer["id"])
    if fasb:
        resolve_order(state, firer["id"], "Fire As She Bears")
    else:
        turn(state)["fired"].append(firer["id"])
    notes = resolve_damage(state, p["steps"])
    owe(state, target["id"], p["owed"])
    shot = p["shot"]
    bonus = []
    if p["first"]:
        bonus.append(Said("first broadside +1"))
    if p.get("raking"):
        bonus.append(Said("raking +1"))
    band = Said("%(band)s range (%(bonus)s)", band=shot["band"], bonus=joined(", ", bonus)) if bonus \
        else Said("%(band)s range", band=shot["band"])
    said = {"firer": firer["name"], "target": target["name"], "range": band, "dice": shot["dice"],
            "hits_on": shot["hits_on"], "hits": shot["hits"], "saved": shot["saved"],
            "cards": df._plural(shot["unsaved"], "Damage card")}
    if fasb:
        label = Said("%(firer)s fires as she bears at the %(target)s, %(range)s: %(dice)s dice at %(hits_on)s+, "
                     "%(hits)s hits, %(saved)s saved → %(cards)s", **said)
    else:
        label = Said("%(firer)s fires at the %(target)s, %(range)s: %(dice)s dice at %(hits_on)s+, %(hits)s hits, "
                     "%(saved)s saved → %(cards)s", **said)
    return _told(label, notes, p["owed"], target["name"])


@broadside.decider
def decide_broadside(state: dict, args: dict, ctx) -> dict:
    firer, target, fasb = _shot_check(state, args)
    distance = needed(args, "distance")
    options = shot_options(state, args, firer, target)
    odds = df.broadside_odds(firer["stats"].get("broadside", 0), distance, target["stats"]["armour"], **options)
    damage_ready(state)
    hits = args.get("dice")
    shot = df.broadside(firer["stats"].get("broadside", 0), distance, target["stats"]["armour"], **options,
                        dice=hits, save_dice=args.get("save_dice"), rng=None if hits else ctx.rng,
                        firer=firer["name"], target=target["name"])
    if shot["awaiting"]:
        raise RuleError(_("1 hit: now enter the 1 armour save rolled for the %(unit)s (Armour %(armour)s+).",
                          unit=target["name"], armour=shot["armour"]) if shot["hits"] == 1 else
                        _("%(n)s hits: now enter the %(n)s armour saves rolled for the %(unit)s (Armour %(armour)s+).",
                          n=shot["hits"], unit=target["name"], armour=shot["armour"]), "save_dice")
    steps = plan_damage(state, ctx.rng, [(target["id"], shot["unsaved"])])
    physical = state["decks"]["damage"]["mode"] != "virtual"
    return {"firer": firer["id"], "target": target["id"], "fasb": fasb, "first": options["first_broadside"],
            "raking": options["raking"], "shot": {k: v for k, v in shot.items() if k != "summary"},
            "dice": shot["hit_dice"], "real": hits is not None, "steps": steps,
            "owed": shot["unsaved"] if physical else 0,
            "luck": luck(odds["mean"], shot["unsaved"], N_("Damage cards"))}


@broadside.dice_check
def broadside_dice(state: dict, p: dict) -> None:
    """An imported broadside (issue 15): the shot worked out again from the firer's Broadside, the
    range and the target's Armour, its D6s as many as the rules roll, hits and saves from them
    (seed 002, Broadsides steps 3-6)."""
    shot = chance.part(p, "shot")
    firer, target = state["units"][p["firer"]], state["units"][p["target"]]
    chance.same(shot["broadside"], firer["stats"].get("broadside", 0), "broadside")
    chance.same(shot["armour"], target["stats"]["armour"], "armour")
    band = df.range_band(shot["distance"])
    chance.same((shot["band"], shot["needed"]), (band["band"], band["needed"]), "range band")
    chance.same(shot["dice"], df.broadside_dice(shot["broadside"], shot["partial"]), "number of dice")
    chance.same(shot["hits_on"], df.lowest_success(shot["needed"], shot["modifier"]), "to-hit score")
    hit_dice = chance.dice(shot["hit_dice"], 6, "hit dice", count=shot["dice"])
    chance.same(p["dice"], hit_dice, "dice")
    chance.same(shot["hits"], sum(df._passes(d, shot["needed"], shot["modifier"]) for d in hit_dice), "hits")
    saves = chance.dice(shot["save_dice"], 6, "armour saves", count=shot["hits"] if shot["save_dice"] else 0)
    chance.same(shot["saved"], sum(1 for d in saves if d >= shot["armour"]), "saves")
    chance.same(shot["unsaved"], shot["hits"] - shot["saved"], "unsaved hits")
