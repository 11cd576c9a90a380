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
    _said,
    _signed,
    spoken,
)
from companion.said import N_, Said, _
from companion.schema import whole_argument

COMMAND_CHECK, ESCAPE = N_("Command check"), N_("Escape jeopardy")


def command_check(command: int, dice=None, rng=None, modifier: int = 0, first_mate: bool = False,
                  reroll_allowed: bool = False, what: str = COMMAND_CHECK) -> dict:
    """Seed 002, Basics: D6 (+ modifiers) >= Command passes; a natural 1 fails, a natural 6 passes.

    ``dice`` is [roll] or, where a re-roll is allowed and the roll failed, [roll, re-roll]
    (Basics: "No single dice may be re-rolled more than once").  With ``rng`` a failed roll that
    may be re-rolled is re-rolled at once.  ``what`` names the check: a message (marked N_) or a Said.
    """
    if first_mate:
        command = FIRST_MATE_COMMAND
    command = whole_argument(command, "command", *STAT_INPUT_LIMITS["command"], what=N_("Command"))
    modifier = whole_argument(modifier, "modifier", what=N_("The Command modifier"))
    if dice is None:
        rolls = roll_or_take(1, 6, None, rng, N_("Command die"))
        if reroll_allowed and not _passes(rolls[0], command, modifier):
            rolls += roll_or_take(1, 6, None, rng, N_("re-rolled Command die"))
    else:
        dice = list(dice)
        if not 1 <= len(dice) <= 2:
            raise RuleError(_("Enter the Command die you rolled (and its re-roll, if you took one)."), "dice")
        rolls = roll_or_take(1, 6, dice[:1], None, N_("Command die"))
        if len(dice) == 2:
            if not reroll_allowed:
                raise RuleError(_("This %(check)s may not be re-rolled.", check=spoken(what)), "dice")
            if _passes(rolls[0], command, modifier):
                raise RuleError(_("Only a failed %(check)s is re-rolled.", check=spoken(what)), "dice")
            rolls += roll_or_take(1, 6, dice[1:], None, N_("re-rolled Command die"))
    result = {"command": command, "modifier": modifier, "first_mate": bool(first_mate), "rolls": rolls,
              "rerolled": len(rolls) == 2, "passed": _passes(rolls[-1], command, modifier),
              "can_reroll": bool(reroll_allowed) and not _passes(rolls[-1], command, modifier) and len(rolls) == 1}
    return {**result, "summary": check_summary(result, _said(what))}


def check_summary(check: dict, what: str) -> str:
    """A Command check's line for the log, from its result (or the stored payload); ``what`` is a Said."""
    rolls, command, modifier = check["rolls"], check["command"], check["modifier"]
    natural = rolls[-1]
    rolled = Said("%(first)s, re-rolled %(again)s", first=rolls[0], again=rolls[1]) if len(rolls) == 2 else str(rolls[0])
    if natural == ALWAYS_FAILS:
        rolled = Said("%(rolled)s (a 1 always fails)", rolled=rolled)
    elif natural == ALWAYS_SUCCEEDS and natural + modifier < command:
        rolled = Said("%(rolled)s (a 6 always succeeds)", rolled=rolled)
    if check["first_mate"]:
        what = Said("%(check)s by the first mate", check=what)
    said = {"check": what, "command": command, "modifier": _signed(modifier), "rolled": rolled}
    if check["passed"]:
        return Said("%(check)s (%(command)s+%(modifier)s): rolled %(rolled)s -> passed", **said)
    return Said("%(check)s (%(command)s+%(modifier)s): rolled %(rolled)s -> failed", **said)


def command_odds(command: int, modifier: int = 0, first_mate: bool = False,
                 reroll_allowed: bool = False) -> dict:
    """The chance a Command check passes (a failed roll re-rolled once where allowed)."""
    if first_mate:
        command = FIRST_MATE_COMMAND
    command = whole_argument(command, "command", *STAT_INPUT_LIMITS["command"], what=N_("Command"))
    p = sum(_passes(n, command, modifier) for n in range(1, 7)) / 6
    if reroll_allowed:
        p = 1 - (1 - p) ** 2
    said = {"command": command, "modifier": _signed(modifier), "chance": f"{p:.0%}"}
    return {"command": command, "modifier": modifier, "p_pass": p,
            "summary": Said("Command %(command)s+%(modifier)s: %(chance)s to pass (a failed roll re-rolled once)", **said)
            if reroll_allowed else Said("Command %(command)s+%(modifier)s: %(chance)s to pass", **said)}


def _order_name(order) -> str:
    wanted = str(order).strip().casefold()
    if wanted == "renai":  # the seed's OCR spelling of Repair
        return "Repair"
    for name in ORDERS:
        if name.casefold() == wanted:
            return name
    raise RuleError(_("Unknown order %(order)r; the orders are %(orders)s.", order=order, orders=", ".join(ORDERS)), "order")


def _check_full_speed_ahead(current_speed, in_irons: bool, at_anchor: bool) -> None:
    if current_speed is None:
        raise RuleError(_("Full Speed Ahead needs the warship's current Speed."), "speed")
    if whole_argument(current_speed, "speed", 0, what=N_("Speed")) == 0:
        # seed 002, Full Speed Ahead: "cannot be issued to a warship with a current Speed of 0"
        raise RuleError(_("Full Speed Ahead cannot be issued to a warship with a current Speed of 0."), "order")
    if in_irons:
        raise RuleError(_("A sail class warship caught in irons may not use Full Speed Ahead."), "order")
    if at_anchor:
        # seed 002, Dropping Anchor: at anchor "It may not now move for any reason."
        raise RuleError(_("A warship at anchor may not move for any reason, so not at Full Speed Ahead."), "order")


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
                          reroll_allowed=order == "Repair" and at_anchor, what=order_check(order))
    result = {**check, "order": order, "issued": check["passed"]}
    return {**result, "summary": order_summary(result)}


def order_check(order: str) -> str:
    return Said("%(order)s order", order=order)


def order_summary(result: dict) -> str:
    """An order's Command check and whether it was issued, from issue_order's result (or the payload)."""
    check = check_summary(result, order_check(result["order"]))
    if result["issued"]:
        return Said("%(check)s: %(order)s issued", check=check, order=result["order"])
    return Said("%(check)s: %(order)s not issued (return it to your hand)", check=check, order=result["order"])


def full_speed_ahead(current_speed: int, *, in_irons: bool = False, at_anchor: bool = False,
                     dice=None, rng=None) -> dict:
    """Seed 002, Full Speed Ahead: after its other moves the warship must move 2D6" straight forwards."""
    _check_full_speed_ahead(current_speed, in_irons, at_anchor)
    rolled = roll_or_take(FULL_SPEED_AHEAD_DICE, 6, dice, rng, N_("Full Speed Ahead dice"))
    result = {"dice": rolled, "inches": sum(rolled)}
    return {**result, "summary": full_speed_summary(result)}


def full_speed_summary(result: dict) -> str:
    return Said("Full Speed Ahead: must move %(inches)s straight forwards (rolled %(dice)s), even if it runs aground "
                "or contacts a ship", inches=f'{result["inches"]}"', dice=" + ".join(map(str, result["dice"])))


def escape_jeopardy(command: int, enemies_in_contact: int = 0, *, at_anchor: bool = False,
                    auxiliary: bool = False, first_mate: bool = False, dice=None, move_dice=None,
                    rng=None) -> dict:
    """Seed 002, Escaping Jeopardy: Command check at -1 per enemy in base contact, then move up to D3+1".

    ``move_dice`` is [the D3] (1-3) once the check has passed.
    """
    if auxiliary:
        raise RuleError(_("Auxiliaries cannot escape jeopardy."), "auxiliary")  # seed 002, Auxiliaries
    if at_anchor:
        raise RuleError(_("A warship at anchor may not escape jeopardy."), "at_anchor")
    enemies = whole_argument(enemies_in_contact, "enemies_in_contact", 0, what=N_("Enemies in base contact"))
    check = command_check(command, dice, rng, ESCAPE_PENALTY_PER_ENEMY * enemies, first_mate,
                          what=ESCAPE)
    result = {"check": check, "escaped": check["passed"], "d3": None, "move_inches": 0, "awaiting": None}
    if not check["passed"]:
        return {**result, "summary": escape_summary(result)}
    if move_dice is None and rng is None:
        result["awaiting"] = {"field": "move_dice", "count": 1, "sides": 3,
                              "prompt": _("Roll a D3 for the escape move (%(move)s).", move='D3+1"')}
        result["move_inches"] = None
        return {**result, "summary": escape_summary(result)}
    d3 = roll_or_take(1, 3, move_dice, rng, "D3", field="move_dice")[0]
    move = d3 + ESCAPE_EXTRA_INCHES
    result.update(d3=d3, move_inches=move)
    return {**result, "summary": escape_summary(result)}


def escape_summary(result: dict) -> str:
    """An escape's Command check and the move it allows, from escape_jeopardy's result (or the payload)."""
    check = check_summary(result["check"], _said(ESCAPE))
    if not result["check"]["passed"]:
        return Said("%(check)s: it may not move at all this turn", check=check)
    if result["move_inches"] is None:
        return Said("%(check)s: roll a D3 to move", check=check)
    return Said("%(check)s: move up to %(move)s facing the same way, out of contact, then a free change of heading",
                check=check, move=f'{result["move_inches"]}"')
