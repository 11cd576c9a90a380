"""Command checks and Order Cards (seed 002, Basics; Order Cards; Escaping Jeopardy)."""
from __future__ import annotations

from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import (
    ALWAYS_FAILS,
    ALWAYS_SUCCEEDS,
    ESCAPE_EXTRA_INCHES,
    ESCAPE_PENALTY_PER_ENEMY,
    FIRST_MATE_COMMAND,
    FULL_SPEED_AHEAD_DICE,
    ORDERS,
    STAT_INPUT_LIMITS,
    _passes,
    _signed,
)
from companion.schema import whole_argument


def command_check(command: int, dice=None, rng=None, modifier: int = 0, first_mate: bool = False,
                  reroll_allowed: bool = False, what: str = "Command check") -> dict:
    """Seed 002, Basics: D6 (+ modifiers) >= Command passes; a natural 1 fails, a natural 6 passes.

    ``dice`` is [roll] or, where a re-roll is allowed and the roll failed, [roll, re-roll]
    (Basics: "No single dice may be re-rolled more than once").  With ``rng`` a failed roll that
    may be re-rolled is re-rolled at once.
    """
    if first_mate:
        command = FIRST_MATE_COMMAND
    command = whole_argument(command, "command", *STAT_INPUT_LIMITS["command"], what="Command")
    modifier = whole_argument(modifier, "modifier", what="The Command modifier")
    if dice is None:
        rolls = roll_or_take(1, 6, None, rng, "Command die")
        if reroll_allowed and not _passes(rolls[0], command, modifier):
            rolls += roll_or_take(1, 6, None, rng, "re-rolled Command die")
    else:
        dice = list(dice)
        if not 1 <= len(dice) <= 2:
            raise RuleError("Enter the Command die you rolled (and its re-roll, if you took one).", "dice")
        rolls = roll_or_take(1, 6, dice[:1], None, "Command die")
        if len(dice) == 2:
            if not reroll_allowed:
                raise RuleError(f"This {what} may not be re-rolled.", "dice")
            if _passes(rolls[0], command, modifier):
                raise RuleError(f"Only a failed {what} is re-rolled.", "dice")
            rolls += roll_or_take(1, 6, dice[1:], None, "re-rolled Command die")
    natural = rolls[-1]
    passed = _passes(natural, command, modifier)
    note = ""
    if natural == ALWAYS_FAILS:
        note = " (a 1 always fails)"
    elif natural == ALWAYS_SUCCEEDS and natural + modifier < command:
        note = " (a 6 always succeeds)"
    rolled = ", re-rolled ".join(str(die) for die in rolls)
    who = " by the first mate" if first_mate else ""
    return {"command": command, "modifier": modifier, "first_mate": bool(first_mate), "rolls": rolls,
            "rerolled": len(rolls) == 2, "passed": passed,
            "can_reroll": bool(reroll_allowed) and not passed and len(rolls) == 1,
            "summary": f"{what}{who} ({command}+{_signed(modifier)}): rolled {rolled}{note} -> "
                       f"{'passed' if passed else 'failed'}"}


def command_odds(command: int, modifier: int = 0, first_mate: bool = False,
                 reroll_allowed: bool = False) -> dict:
    """The chance a Command check passes (a failed roll re-rolled once where allowed)."""
    if first_mate:
        command = FIRST_MATE_COMMAND
    command = whole_argument(command, "command", *STAT_INPUT_LIMITS["command"], what="Command")
    p = sum(_passes(n, command, modifier) for n in range(1, 7)) / 6
    if reroll_allowed:
        p = 1 - (1 - p) ** 2
    return {"command": command, "modifier": modifier, "p_pass": p,
            "summary": f"Command {command}+{_signed(modifier)}: {p:.0%} to pass"
                       + (" (a failed roll re-rolled once)" if reroll_allowed else "")}


def _order_name(order) -> str:
    wanted = str(order).strip().casefold()
    if wanted == "renai":  # the seed's OCR spelling of Repair
        return "Repair"
    for name in ORDERS:
        if name.casefold() == wanted:
            return name
    raise RuleError(f"Unknown order {order!r}; the orders are {', '.join(ORDERS)}.", "order")


def _check_full_speed_ahead(current_speed, in_irons: bool, at_anchor: bool) -> None:
    if current_speed is None:
        raise RuleError("Full Speed Ahead needs the warship's current Speed.", "speed")
    if whole_argument(current_speed, "speed", 0, what="Speed") == 0:
        # seed 002, Full Speed Ahead: "cannot be issued to a warship with a current Speed of 0"
        raise RuleError("Full Speed Ahead cannot be issued to a warship with a current Speed of 0.", "order")
    if in_irons:
        raise RuleError("A sail class warship caught in irons may not use Full Speed Ahead.", "order")
    if at_anchor:
        # seed 002, Dropping Anchor: at anchor "It may not now move for any reason."
        raise RuleError("A warship at anchor may not move for any reason, so not at Full Speed Ahead.", "order")


def issue_order(order: str, command: int, *, current_speed: int | None = None, in_irons: bool = False,
                at_anchor: bool = False, first_mate: bool = False, modifier: int = 0,
                dice=None, rng=None) -> dict:
    """Seed 002, Order Cards: one order per activation, issued on a passed Command check.

    A warship at anchor may re-roll the check for a Repair order (seed 002, Dropping Anchor).
    """
    order = _order_name(order)
    if order == "Full Speed Ahead":
        _check_full_speed_ahead(current_speed, in_irons, at_anchor)
    check = command_check(command, dice, rng, modifier, first_mate,
                          reroll_allowed=order == "Repair" and at_anchor, what=f"{order} order")
    verdict = "issued" if check["passed"] else "not issued (return it to your hand)"
    return {**check, "order": order, "issued": check["passed"],
            "summary": f"{check['summary']}: {order} {verdict}"}


def full_speed_ahead(current_speed: int, *, in_irons: bool = False, at_anchor: bool = False,
                     dice=None, rng=None) -> dict:
    """Seed 002, Full Speed Ahead: after its other moves the warship must move 2D6" straight forwards."""
    _check_full_speed_ahead(current_speed, in_irons, at_anchor)
    rolled = roll_or_take(FULL_SPEED_AHEAD_DICE, 6, dice, rng, "Full Speed Ahead dice")
    inches = sum(rolled)
    return {"dice": rolled, "inches": inches,
            "summary": f"Full Speed Ahead: must move {inches}\" straight forwards (rolled "
                       f"{' + '.join(map(str, rolled))}), even if it runs aground or contacts a ship"}


def escape_jeopardy(command: int, enemies_in_contact: int = 0, *, at_anchor: bool = False,
                    auxiliary: bool = False, first_mate: bool = False, dice=None, move_dice=None,
                    rng=None) -> dict:
    """Seed 002, Escaping Jeopardy: Command check at -1 per enemy in base contact, then move up to D3+1".

    ``move_dice`` is [the D3] (1-3) once the check has passed.
    """
    if auxiliary:
        raise RuleError("Auxiliaries cannot escape jeopardy.", "auxiliary")  # seed 002, Auxiliaries
    if at_anchor:
        raise RuleError("A warship at anchor may not escape jeopardy.", "at_anchor")
    enemies = whole_argument(enemies_in_contact, "enemies_in_contact", 0, what="Enemies in base contact")
    check = command_check(command, dice, rng, ESCAPE_PENALTY_PER_ENEMY * enemies, first_mate,
                          what="Escape jeopardy")
    result = {"check": check, "escaped": check["passed"], "d3": None, "move_inches": 0, "awaiting": None}
    if not check["passed"]:
        return {**result, "summary": f"{check['summary']}: it may not move at all this turn"}
    if move_dice is None and rng is None:
        result["awaiting"] = {"field": "move_dice", "count": 1, "sides": 3,
                              "prompt": "Roll a D3 for the escape move (D3+1\")."}
        return {**result, "move_inches": None, "summary": f"{check['summary']}: roll a D3 to move"}
    d3 = roll_or_take(1, 3, move_dice, rng, "D3", field="move_dice")[0]
    move = d3 + ESCAPE_EXTRA_INCHES
    return {**result, "d3": d3, "move_inches": move,
            "summary": f"{check['summary']}: move up to {move}\" facing the same way, out of contact, "
                       "then a free change of heading"}
