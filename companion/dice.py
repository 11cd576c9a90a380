"""Dice: free rolls in standard notation (d20 library), real-dice entry, success pools with exact
odds (icepool).  Pure: no Flask, no database.  Randomness comes from ``secrets.SystemRandom``.
"""
from __future__ import annotations

import math
import re
import secrets
import threading
from fractions import Fraction

import d20
import d20.expression
import icepool

from companion.errors import RuleError
from companion.said import _, figure

MAX_EXPR = 60
MAX_DICE = 100
MAX_SIDES = 1000
MAX_POOL = 60
POOL_SIDES = (6, 8, 10, 12, 20)
MAX_TOTAL = 2 ** 53 - 1  # a total the database and a JavaScript number both hold exactly



class _Source:
    """d20's randomness: the OS's, except while a stored roll is being checked (an import), when
    the thread checking it feeds d20 the dice the roll recorded, so d20 itself recomputes the
    total from them (and says whether the expression could have rolled them at all)."""

    def __init__(self):
        self.system = secrets.SystemRandom()
        self.local = threading.local()

    def randrange(self, *args):
        script = getattr(self.local, "script", None)
        if script is None:
            return self.system.randrange(*args)
        value = next(script, None)
        if len(args) == 3:  # the tens die of d%: 0, 10 ... 90
            if value not in range(*args):
                raise RuleError(_("A d%% die cannot show %(value)r.", value=value), "dice")
            return value
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= args[0]:
            if value is None:
                raise RuleError(_("The roll records fewer dice than its expression rolls."), "dice")
            raise RuleError(_("A d%(sides)s cannot show %(value)r.", sides=args[0], value=value), "dice")
        return value - 1


# d20 rolls with the module-level ``random``; every roll the server makes is decided here, once,
# with the OS's randomness, and then stored in the event (replays never roll again).
_source = _Source()
d20.expression.random = _source


_REROLL = re.compile(r"r[or](?:[lh<>]?\d+)")


def reroll(expr: str, values: list) -> dict:
    """The roll ``expr`` makes when its dice come up ``values`` (in the order they were rolled): what
    a stored roll must say.  RuleError if the expression could not have rolled exactly these dice."""
    _source.local.script = iter(values)
    try:
        # a reroll (ro, rr) keeps only the die's last value, so the dice are fed back without it
        result = roll(_REROLL.sub("", expr) or expr)
        if next(_source.local.script, None) is not None:
            raise RuleError(_("The roll records more dice than its expression rolls."), "dice")
    finally:
        _source.local.script = None
    return {**result, "expr": expr}


def _dice_nodes(node):
    if isinstance(node, (d20.diceast.Dice,)):
        yield node
    for child in getattr(node, "children", []):
        yield from _dice_nodes(child)


def check_expr(expr: str) -> str:
    """Parse and bound a dice expression; a 400-worthy sentence for anything else."""
    if not isinstance(expr, str) or not expr.strip():
        raise RuleError(_("Enter a dice expression such as 2d6, d20+3 or 4d6kh3."), "expr")
    expr = expr.strip().lower().replace(" ", "")
    if len(expr) > MAX_EXPR:
        raise RuleError(_("A dice expression has at most %(most)s characters.", most=MAX_EXPR), "expr")
    try:
        tree = d20.parse(expr)
    except d20.RollSyntaxError:
        raise RuleError(_("%(expr)r is not dice notation; try 2d6, d20+3 or 4d6kh3.", expr=expr), "expr") from None
    total = 0
    for node in _dice_nodes(tree):
        size = 100 if node.size == "%" else node.size
        if size < 2 or size > MAX_SIDES:
            raise RuleError(_("Dice have 2 to %(most)s sides; got d%(sides)s.", most=MAX_SIDES, sides=size), "expr")
        total += node.num
    if total > MAX_DICE:
        raise RuleError(_("At most %(most)s dice in one roll; %(expr)s has %(count)s.", most=MAX_DICE, expr=expr, count=total),
                        "expr")
    return expr


def _dice_of(result) -> list[dict]:
    dice = []

    def walk(node):
        if isinstance(node, d20.Dice):
            for die in node.values:
                dice.append({"sides": die.size, "value": die.number, "kept": bool(die.kept)})
        for child in node.children:
            walk(child)

    walk(result.expr)
    return dice


def roll(expr: str) -> dict:
    """Roll a checked expression: total, every die (kept or dropped) and d20's own text."""
    expr = check_expr(expr)
    try:
        result = d20.roll(expr, allow_comments=False)
        total = result.total  # d20 works the arithmetic out here, lazily: 1d6/0 fails on this line
    except (d20.TooManyRolls, d20.RollValueError, ZeroDivisionError, OverflowError) as exc:
        raise RuleError(_why_not(exc, expr), "expr") from None
    if not isinstance(total, (int, float)) or not math.isfinite(total) or abs(total) > MAX_TOTAL:
        raise RuleError(_("Cannot roll %(expr)s: its total would be larger than %(most)s.", expr=expr,
                          most=figure(MAX_TOTAL)), "expr")
    return {"expr": expr, "total": int(total), "dice": _dice_of(result), "text": str(result)}


def _why_not(exc: Exception, expr: str) -> str:
    if isinstance(exc, (ZeroDivisionError, d20.RollValueError)) and "zero" in str(exc).lower():
        return _("Cannot roll %(expr)s: it divides by zero (or takes a remainder by zero).", expr=expr)
    if isinstance(exc, d20.TooManyRolls):
        return _("Cannot roll %(expr)s: it would roll too many dice.", expr=expr)
    return _("Cannot roll %(expr)s: %(why)s", expr=expr, why=str(exc).rstrip(".") + ".")  # (d20's own words)


def real_dice(sides: int, values: list) -> list[int]:
    """Dice the players rolled on the table, checked one by one."""
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_DICE:
        raise RuleError(_("Enter 1 to %(most)s dice results.", most=MAX_DICE), "dice")
    out = []
    for v in values:
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides:
            raise RuleError(_("Each result must be a whole number from 1 to %(sides)s; got %(value)r.", sides=sides, value=v),
                            "dice")
        out.append(v)
    return out


# --- success pools: N dice needing X+, optionally followed by saves on Y+ ------------------------

def _pool_args(dice: int, target: int, save: int | None, sides: int) -> None:
    if not 1 <= dice <= MAX_POOL:
        raise RuleError(_("A pool has 1 to %(most)s dice.", most=MAX_POOL), "dice")
    if sides not in POOL_SIDES:
        raise RuleError(_("Pool dice have 6, 8, 10, 12 or 20 sides."), "sides")
    if not 2 <= target <= sides:
        raise RuleError(_("Success needs 2+ to %(sides)s+ on a d%(sides)s.", sides=sides), "target")
    if save is not None and not 2 <= save <= sides:
        raise RuleError(_("Saves need 2+ to %(sides)s+ on a d%(sides)s.", sides=sides), "save")


def pool_odds(dice: int, target: int, save: int | None = None, sides: int = 6) -> dict:
    """Exact distribution of (unsaved) successes: each die succeeds on >= target and is then
    cancelled by a save on >= save."""
    _pool_args(dice, target, save, sides)
    succeed = sides - target + 1
    fail_save = (save - 1) if save else sides
    weight = succeed * fail_save  # out of sides * sides
    one = icepool.Die({1: weight, 0: sides * sides - weight})
    dist = dice @ one
    probs = [[int(k), float(Fraction(int(dist.quantity(k)), int(dist.denominator())))]
             for k in range(dice + 1)]
    mean = Fraction(dice * weight, sides * sides)
    return {"dice": dice, "target": target, "save": save, "sides": sides,
            "probabilities": probs, "mean": float(mean), "at_least_one": 1 - probs[0][1]}


def at_least(probabilities: list, k: int) -> float:
    """The chance of k or more, from a distribution ``pool_odds`` gave ([[n, p], ...]): how likely a
    roll was to do as well as it did (the display's "41% to do this well"), read off the odds the
    event carries, never worked out a second time."""
    return sum(p for n, p in probabilities if n >= k)


def pool_roll(dice: int, target: int, save: int | None = None, sides: int = 6,
              rolled: list | None = None, saves_rolled: list | None = None, rng=None) -> dict:
    """Roll (or take the player's) success dice, then one save per success."""
    _pool_args(dice, target, save, sides)
    rng = rng or secrets.SystemRandom()
    values = real_dice(sides, rolled) if rolled is not None else [rng.randint(1, sides) for _ in range(dice)]
    if len(values) != dice:
        raise RuleError(_("Enter exactly %(count)s results for the pool.", count=dice), "dice")
    successes = sum(1 for v in values if v >= target)
    saves = []
    if save is not None and successes:
        if saves_rolled is not None:
            saves = real_dice(sides, saves_rolled)
            if len(saves) != successes:
                raise RuleError(_("Enter exactly %(count)s save results (one per success).", count=successes), "saves")
        else:
            saves = [rng.randint(1, sides) for _ in range(successes)]
    saved = sum(1 for v in saves if v >= save) if save is not None else 0
    return {"dice": values, "successes": successes, "saves": saves, "saved": saved,
            "unsaved": successes - saved, "target": target, "save": save, "sides": sides}


# --- the player's own dice or fresh rolls: what every game's procedures share -------------------

def roll_or_take(count: int, sides: int, dice, rng, what: str = "dice", field: str = "dice") -> list[int]:
    """The player's own dice if given (checked), otherwise ``count`` fresh rolls from ``rng``;
    a refusal names the control ``field`` (the one the dice were typed in)."""
    if dice is None:
        if rng is None:
            raise RuleError(_("Enter the %(count)s %(what)s you rolled, or let the companion roll.", count=count, what=_(what)),
                            field)
        return [rng.randint(1, sides) for _ in range(count)]
    dice = list(dice)
    if len(dice) != count:
        raise RuleError(_("Expected %(count)s %(what)s (D%(sides)s), got %(got)s.", count=count, what=_(what), sides=sides,
                          got=len(dice)), field)
    for value in dice:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RuleError(_("Each die must be a whole number from 1 to %(sides)s; got %(value)r.", sides=sides, value=value),
                            field)
    return dice
