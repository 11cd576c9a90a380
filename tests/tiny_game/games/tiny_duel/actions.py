"""Tiny Duel's one action type: a salvo at a ship, each hit one hull box."""
from __future__ import annotations

from companion.actions import action, chance, entered_dice, entered_int
from companion.errors import RuleError
from companion.schema import Dice, Int, Ref

from .rules import HIT_ON, salvo

SLUG = "tiny-duel"


@action("tiny-salvo", systems={SLUG}, chance=True,
        fields={"target": Ref("target"), "dice": Int(1, 6), "rolled": Dice(6, 6)})
def fire_salvo(state: dict, p: dict) -> str:
    """Fire a salvo at a ship: {"target", "dice", "rolled"?}; each 5+ takes one hull."""
    target = state["units"].get(p.get("target")) if isinstance(p.get("target"), str) else None
    if target is None or target["removed"]:
        raise RuleError("Choose a ship at this table.", "target")
    result = salvo(entered_int(p, "dice"), p["result"]["dice"])
    hull = target["trackers"]["hull"]
    before = hull["value"]
    hull["value"] = max(0, before - result["hits"])
    return f"salvo {result['dice']}: {result['hits']} hits on {target['name']} (hull {before} → {hull['value']})"


@fire_salvo.decider
def _decide(state: dict, args: dict, ctx) -> dict:
    rolled = entered_dice(args, "rolled")  # read by the Dice field declared above: "5 6 1" or [5, 6, 1]
    result = salvo(entered_int(args, "dice"), rolled, None if rolled is not None else ctx.rng)
    return {**args, "result": result}


@fire_salvo.dice_check
def _salvo_dice(state: dict, p: dict) -> None:
    """An import re-derives the salvo: as many D6s as it fired, its hits the 5s and 6s among them."""
    result = chance.part(p, "result")
    values = chance.dice(result["dice"], 6, "dice", count=entered_int(p, "dice"))
    chance.same(result["hits"], sum(v >= HIT_ON for v in values), "hits")
