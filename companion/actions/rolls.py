"""Dice actions: a free roll, real dice entered by a player, a success pool with its odds."""
from __future__ import annotations

from companion import dice
from companion.actions import action, entered_dice
from companion.errors import RuleError
from companion.said import Said, _, joined
from companion.schema import Dice, Int, Text
from companion.trackers import need_int

MAX_WHY = 60


def _why(args: dict) -> str:
    why = args.get("why") or ""
    if not isinstance(why, str) or len(why) > MAX_WHY:
        raise RuleError(_("The reason for a roll is at most %(most)s characters.", most=MAX_WHY), "why")
    return why.strip()


def _count(state: dict) -> None:
    state["rolls"] = state.get("rolls", 0) + 1


@action("roll", chance=True, fields={
    "expr": Text(dice.MAX_EXPR, "dice notation, e.g. 2d6+1"), "why": Text(MAX_WHY)})
def roll(state: dict, p: dict) -> str:
    """Roll dice in standard notation: {"expr": "2d6+1", "why"}."""
    _count(state)
    faces = " ".join(str(d["value"]) if d["kept"] else f"({d['value']})" for d in p["dice"])
    if p.get("why"):
        return Said("rolled %(expr)s for %(why)s: [%(faces)s] = %(total)s", expr=p["expr"], why=p["why"], faces=faces,
                    total=p["total"])
    return Said("rolled %(expr)s: [%(faces)s] = %(total)s", expr=p["expr"], faces=faces, total=p["total"])


@roll.decider
def decide_roll(state: dict, args: dict, ctx) -> dict:
    return {**dice.roll(args.get("expr")), "why": _why(args)}


@action("roll-real", chance=True, fields={"sides": Int(2, dice.MAX_SIDES), "dice": Dice(dice.MAX_SIDES, dice.MAX_DICE),
                                          "modifier": Int(-1000, 1000), "why": Text(MAX_WHY)})
def roll_real(state: dict, p: dict) -> str:
    """Record dice rolled on the table: {"sides": 6, "dice": [5, 2], "modifier": 0, "why"}."""
    _count(state)
    mod = p.get("modifier", 0)
    mod_text = f" {mod:+d}" if mod else ""
    said = {"count": len(p["dice"]), "sides": p["sides"], "dice": " ".join(map(str, p["dice"])), "mod": mod_text,
            "total": p["total"]}
    if p.get("why"):
        return Said("rolled real %(count)sd%(sides)s for %(why)s: [%(dice)s]%(mod)s = %(total)s", why=p["why"], **said)
    return Said("rolled real %(count)sd%(sides)s: [%(dice)s]%(mod)s = %(total)s", **said)


@roll_real.decider
def decide_roll_real(state: dict, args: dict, ctx) -> dict:
    sides = need_int(args, "sides", 2, dice.MAX_SIDES, default=6)
    values = dice.real_dice(sides, entered_dice(args, "dice"))
    mod = need_int(args, "modifier", -1000, 1000, default=0)
    return {"sides": sides, "dice": values, "modifier": mod, "total": sum(values) + mod, "why": _why(args)}


@action("pool", chance=True, fields={"dice": Int(1, dice.MAX_POOL), "target": Int(2, 20),
                                "save": Int(0, 20), "sides": Int(2, 20), "rolled": Dice(20, dice.MAX_POOL),
                                "saves_rolled": Dice(20, dice.MAX_POOL), "why": Text(MAX_WHY)})
def pool(state: dict, p: dict) -> str:
    """Success pool: {"dice": N, "target": X, "save": Y?, "rolled": [...]?, "saves_rolled": [...]?}."""
    _count(state)
    r = p["result"]
    if r["successes"] == 1:
        result = Said("%(count)s success", count=r["successes"])
    else:
        result = Said("%(count)s successes", count=r["successes"])
    said = {"count": len(r["dice"]), "sides": r["sides"], "target": r["target"], "dice": " ".join(map(str, r["dice"])),
            "result": result}
    if p.get("why"):
        text = Said("pool %(count)sd%(sides)s at %(target)s+ for %(why)s: [%(dice)s] → %(result)s", why=p["why"], **said)
    else:
        text = Said("pool %(count)sd%(sides)s at %(target)s+: [%(dice)s] → %(result)s", **said)
    if r["save"]:
        text = joined("; ", (text, Said("saves at %(save)s+ [%(saves)s] → %(unsaved)s unsaved", save=r["save"],
                                        saves=" ".join(map(str, r["saves"])), unsaved=r["unsaved"])))
    return Said("%(roll)s (expected %(mean).2f)", roll=text, mean=p["odds"]["mean"])


@pool.decider
def decide_pool(state: dict, args: dict, ctx) -> dict:
    n = need_int(args, "dice", 1, dice.MAX_POOL)
    target = need_int(args, "target", 2, 20)
    save = need_int(args, "save", 2, 20) if args.get("save") not in (None, "", 0) else None
    sides = need_int(args, "sides", 2, 20, default=6)

    def values(key):
        return entered_dice(args, key)

    odds = dice.pool_odds(n, target, save, sides)
    result = dice.pool_roll(n, target, save, sides, values("rolled"), values("saves_rolled"), ctx.rng)
    return {"result": result, "odds": {"mean": odds["mean"], "probabilities": odds["probabilities"]},
            "real": values("rolled") is not None, "why": _why(args)}
