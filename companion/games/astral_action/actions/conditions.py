"""Astral Action actions: Conditions, the second half of the attacks (combat): a filled health row
generates one (L93, 2d6 on the table, L96; twice under Brace for Impact, L258), a [Defensive] Command
replaces it (L262), a lucky ship rerolls it (L369), and it is applied.
"""
from __future__ import annotations

from companion.actions import action, chance, entered_dice, entered_int
from companion.errors import RuleError
from companion.games.astral_action.rules.damage import apply_condition, condition_of, has_effect
from companion.games.astral_action.state import (
    SYSTEMS,
    destroy_if_done,
    in_effect,
    roll,
    setting,
    ship_of,
    spend_command,
)
from companion.said import Said, _, joined
from companion.schema import Dice, Either, Flag, Int, List, Obj, Ref, Scalar, Text


def _determine(state: dict, ship: dict, dice: list[int], count: int) -> list[dict]:
    """Condition results from pairs of dice; an entered result with no functional effect is refused."""
    out = []
    for i in range(count):
        total = dice[2 * i] + dice[2 * i + 1]
        name = condition_of(total)
        if not has_effect(ship, ship["card"], name):
            raise RuleError(_("%(roll)s: %(condition)s can have no functional effect on this ship: reroll it (L96).", roll=total,
                              condition=name), "dice")
        out.append({"roll": total, "name": name})
    return out


def _roll_conditions(state: dict, ship: dict, ctx, count: int) -> list[int]:
    """Roll pairs of d6, rerolling any result with no functional effect on this ship (L96)."""
    dice = []
    for _pair in range(count):
        for _attempt in range(100):
            pair = roll(ctx, 2)
            if has_effect(ship, ship["card"], condition_of(sum(pair))):
                dice += pair
                break
    return dice


@action("aa-condition", systems=SYSTEMS, chance=True, fields={"unit": Ref("unit"), "dice": Dice(6, 60)})
def aa_condition(state: dict, p: dict) -> str:
    """Generate a Condition for a filled health row: 2d6 (twice under Brace for Impact, L258)."""
    unit, ship = ship_of(state, p.get("unit"))
    if ship["determined"]:
        raise RuleError(_("Apply %(unit)s's Condition first.", unit=unit["name"]), "unit")
    if ship["pending"] <= 0:
        raise RuleError(_("%(unit)s has no Condition to generate (a health row fills first, L93).", unit=unit["name"]), "unit")
    count = 2 if in_effect(state, unit["id"], "Brace for Impact") else 1
    options = _determine(state, ship, p["dice"], count)
    ship["pending"] -= 1
    ship["determined"] = {"options": options}
    if count == 2:
        return Said("%(unit)s Condition: %(roll)s %(condition)s or %(roll2)s %(condition2)s (Brace for Impact: choose one)",
                    unit=unit["name"], roll=options[0]["roll"], condition=options[0]["name"], roll2=options[1]["roll"],
                    condition2=options[1]["name"])
    return Said("%(unit)s Condition: %(roll)s %(condition)s", unit=unit["name"], roll=options[0]["roll"],
                condition=options[0]["name"])


@aa_condition.decider
def decide_aa_condition(state: dict, args: dict, ctx) -> dict:
    unit, ship = ship_of(state, args.get("unit"))
    count = 2 if in_effect(state, unit["id"], "Brace for Impact") else 1
    dice = entered_dice(args, "dice", count=2 * count) or _roll_conditions(state, ship, ctx, count)
    return {"unit": unit["id"], "dice": dice}


@action("aa-replace-condition", systems=SYSTEMS, chance=True, fields={
    "unit": Ref("unit"), "via": Scalar(60), "dice": Dice(6, 2)})
def aa_replace_condition(state: dict, p: dict) -> str:
    """[Defensive] Command: replace the just-determined Condition with another random one (L262)."""
    unit, ship = ship_of(state, p.get("unit"))
    if not ship["determined"]:
        raise RuleError(_("%(unit)s has no Condition waiting to be applied.", unit=unit["name"]), "unit")
    spent = spend_command(state, unit["id"], "Replace a Condition", p.get("via"))
    ship["determined"] = {"options": _determine(state, ship, p["dice"], 1)}
    new = ship["determined"]["options"][0]
    return Said("%(spent)s: new Condition %(roll)s %(condition)s", spent=spent, roll=new["roll"], condition=new["name"])


@aa_replace_condition.decider
def decide_aa_replace_condition(state: dict, args: dict, ctx) -> dict:
    unit, ship = ship_of(state, args.get("unit"))
    dice = entered_dice(args, "dice", count=2) or _roll_conditions(state, ship, ctx, 1)
    return {"unit": unit["id"], "via": args.get("via"), "dice": dice}


@action("aa-lucky", systems=SYSTEMS, fields={"unit": Ref("unit"), "lucky": Flag("mark (true) or unmark (false)")})
def aa_lucky(state: dict, p: dict) -> str:
    """Mark a ship as "lucky" (optional rule, L358: agreed by both players; L369)."""
    unit, ship = ship_of(state, p.get("unit"))
    ship["lucky"] = p.get("lucky", False)
    return (Said("%(unit)s is a lucky ship (optional rule)", unit=unit["name"]) if ship["lucky"]
            else Said("%(unit)s is no longer a lucky ship", unit=unit["name"]))


@action("aa-lucky-reroll", systems=SYSTEMS, chance=True, fields={"unit": Ref("unit"),
    "pick": Int(0, 99, "which of the determined Conditions (two under Brace for Impact)"), "dice": Dice(6, 2)})
def aa_lucky_reroll(state: dict, p: dict) -> str:
    """A lucky ship rerolls a Condition roll before it is applied (L369 "may be allowed to reroll on
    any Condition rolls"); the new roll stands.  How often is not said: the table's reading
    ``lucky_rerolls`` (0: once per roll, 1: as often as the players like)."""
    unit, ship = ship_of(state, p.get("unit"))
    if not ship.get("lucky"):
        raise RuleError(_("%(unit)s is not marked as a lucky ship (an optional rule, L369).", unit=unit["name"]), "unit")
    determined = ship["determined"]
    if not determined:
        raise RuleError(_("%(unit)s has no Condition waiting to be applied.", unit=unit["name"]), "unit")
    pick = entered_int(p, "pick", 0, hi=len(determined["options"]) - 1)
    old = determined["options"][pick]
    if old.get("rerolls") and not setting(state, "lucky_rerolls"):
        raise RuleError(_("This Condition roll was already rerolled: one reroll per roll, as the table reads it."), "unit")
    new = {**_determine(state, ship, p["dice"], 1)[0], "rerolls": old.get("rerolls", 0) + 1}
    determined["options"][pick] = new
    return Said("%(unit)s (lucky ship) rerolls %(old_roll)s %(old)s: %(roll)s %(condition)s", unit=unit["name"],
                old_roll=old["roll"], old=old["name"], roll=new["roll"], condition=new["name"])


@aa_lucky_reroll.decider
def decide_aa_lucky_reroll(state: dict, args: dict, ctx) -> dict:
    unit, ship = ship_of(state, args.get("unit"))
    dice = entered_dice(args, "dice", count=2) or _roll_conditions(state, ship, ctx, 1)
    return {"unit": unit["id"], "pick": args.get("pick", 0), "dice": dice}


@aa_lucky_reroll.dice_check
def aa_lucky_reroll_dice(state: dict, p: dict) -> None:
    """An imported lucky reroll: its two dice are D6s (the Condition table is 2d6, L96)."""
    chance.every_die(p, 6)


@action("aa-apply-condition", systems=SYSTEMS, fields={"unit": Ref("unit"), "pick": Int(0, 99),
    "items": Either(List(Int(0, 99), 50), Obj(doc="the card's checkboxes: items.0, items.3 ..."), Text(300), Int(0, 99)),
    "option": Scalar(60)})
def aa_apply_condition(state: dict, p: dict) -> str:
    """Apply the determined Condition (choosing under Brace, and what a Condition deactivates)."""
    unit, ship = ship_of(state, p.get("unit"))
    determined = ship["determined"]
    if not determined:
        raise RuleError(_("%(unit)s has no Condition waiting to be applied.", unit=unit["name"]), "unit")
    pick = entered_int(p, "pick", 0, hi=len(determined["options"]) - 1)
    name = determined["options"][pick]["name"]
    items = p.get("items")
    if isinstance(items, dict):  # the card's checkboxes: items.0, items.3 ...
        items = [int(k) for k, v in items.items() if v and str(k).isdigit()]
    elif isinstance(items, str):
        items = [int(x) for x in items.replace(",", " ").split() if x.lstrip("-").isdigit()]
    elif isinstance(items, int):
        items = [items]
    effects = apply_condition(ship, ship["card"], name, items or [], p.get("option"))
    ship["determined"] = None
    gone = destroy_if_done(state, unit["id"], ship)
    said = Said("%(unit)s: %(condition)s: %(effects)s", unit=unit["name"], condition=name, effects=joined("; ", effects))
    return joined("; ", [said, gone]) if gone else said


@aa_condition.dice_check
def aa_condition_dice(state: dict, p: dict) -> None:
    """An imported aa-condition (issue 15): every die it records is a D6 (the seed rolls D6s)."""
    chance.every_die(p, 6)


@aa_replace_condition.dice_check
def aa_replace_condition_dice(state: dict, p: dict) -> None:
    """An imported aa-replace-condition (issue 15): every die it records is a D6 (the seed rolls D6s)."""
    chance.every_die(p, 6)
