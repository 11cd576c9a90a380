"""Tiny Duel's one action type: a salvo at a ship, each hit one hull box."""
from __future__ import annotations

from companion.actions import action, chance
from companion.schema import Dice, Int, Ref

from .rules import HIT_ON, salvo
from .state import ship

SLUG = "tiny-duel"


@action("tiny-salvo", systems={SLUG}, chance=True, phase="Fire", doing="A salvo",
        fields={"target": Ref("target"), "dice": Int(1, 6, what="the number of dice", required=True),
                "rolled": Dice(6, 6)})
def fire_salvo(state: dict, p: dict) -> str:
    """Fire a salvo at a ship: {"target", "dice", "rolled"?}; each 5+ takes one hull."""
    # p arrives read by the fields above: p["dice"] is an int ("3" typed in a form is 3 here)
    target = ship(state, p.get("target"))
    result = salvo(p["dice"], p["result"]["dice"])
    hull = target["trackers"]["hull"]
    before = hull["value"]
    hull["value"] = max(0, before - result["hits"])
    return f"salvo {result['dice']}: {result['hits']} hits on {target['name']} (hull {before} → {hull['value']})"


@fire_salvo.decider
def _decide(state: dict, args: dict, ctx) -> dict:
    rolled = args.get("rolled")  # [5, 6, 1] (typed as "5 6 1"), or None: the companion rolls
    result = salvo(args["dice"], rolled, None if rolled is not None else ctx.rng)
    return {**args, "result": result}


@fire_salvo.dice_check
def _salvo_dice(state: dict, p: dict) -> None:
    """An import re-derives the salvo: as many D6s as it fired, its hits the 5s and 6s among them."""
    result = chance.part(p, "result")
    values = chance.dice(result["dice"], 6, "dice", count=p["dice"])
    chance.same(result["hits"], sum(v >= HIT_ON for v in values), "hits")
