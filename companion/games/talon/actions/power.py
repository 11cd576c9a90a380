"""The Power Phase, ship by ship: the power curve up or down one row, passive yellow charging.

Seed 003 5.4.3: "During the Power Phase, each ship's Power Curve may be adjusted up or down. Normally, a
ship can only change her Speed by one."  TT#17: "a ship may never have negative Power written"; a ship
that cannot slow to a safe level overheats and breaks apart.  Seed 003 5.1: yellow boxes "may be ...
Passively Charged during the Power Phase"; how many is in the rulebook's Power Phase section, which our
sources do not show (TALON.md 11.3), so each tap charges one box and the players count.
"""
from __future__ import annotations

from companion.actions import action, entered_int
from companion.errors import RuleError
from companion.games.talon import state as books
from companion.games.talon.rules import chart, counter, weapons
from companion.schema import Int, Ref

GAME = {"talon"}


@action("talon-curve", systems=GAME, phase=chart.POWER_PHASE, doing="Changing the power curve",
        fields={"unit": Ref("unit"), "row": Int(0, 99, plain=True)})
def change_curve(state: dict, p: dict) -> str:
    """Move the ship's power curve one row (faster or slower) in the Power Phase; once per round."""
    unit, ship = books.live_ship(state, p.get("unit"))
    if ship["curve_changed"] == state["round"]:
        raise RuleError(f"{unit['name']} has already changed its power curve this Power Phase.", "row")
    new = entered_int(p, "row", lo=0, hi=len(ship["curve"]) - 1)
    chart.curve_step(ship["row"], new, len(ship["curve"]))
    if counter.power(ship, new) < 0:
        raise RuleError(f"Row {chart.row_text(ship['curve'][new])} would leave Power {counter.power(ship, new)}: "
                        "a ship may never have negative Power (TT#17).", "row")
    old = chart.row_text(ship["curve"][ship["row"]])
    ship["row"] = new
    ship["curve_changed"] = state["round"]
    return f"{unit['name']} power curve {old} → {chart.row_text(ship['curve'][new])}"


@action("talon-afterburners", systems=GAME, fields={"unit": Ref("unit")})
def restore_afterburners(state: dict, p: dict) -> str:
    """Restore a Talon ship's afterburners (when they refresh is in your rulebook, not our sources)."""
    unit, ship = books.live_ship(state, p.get("unit"))
    if not ship["afterburners_used"]:
        raise RuleError(f"{unit['name']} has all its afterburners.", "unit")
    ship["afterburners_used"] = 0  # TALON.md 2: "When afterburners/batteries refresh: not found"
    return f"{unit['name']} afterburners restored ({ship['afterburners']})"


@action("talon-passive", systems=GAME, phase=chart.POWER_PHASE, doing="Passive charging",
        fields={"unit": Ref("unit"), "group": Int(1, 99, plain=True)})
def passive_charge(state: dict, p: dict) -> str:
    """Passively charge one yellow box of a weapon group in the Power Phase."""
    unit, ship = books.live_ship(state, p.get("unit"))
    if not ship["groups"]:
        raise RuleError(f"{unit['name']} has no weapon groups.", "group")
    index = entered_int(p, "group", lo=1, hi=len(ship["groups"])) - 1
    group = ship["groups"][index]
    weapons.charge_yellow(group)
    return f"{unit['name']} group {index + 1} passively charged ({group['yellow_on']}/{group['yellow']} yellow)"


restore_afterburners.decider(books.keep("unit"))
change_curve.decider(books.keep("unit", "row"))
passive_charge.decider(books.keep("unit", "group"))
