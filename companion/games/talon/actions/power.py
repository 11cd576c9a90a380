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
from companion.said import N_, Said, _
from companion.schema import Int, Ref

GAME = {"talon"}


@action("talon-curve", systems=GAME, phase=chart.POWER_PHASE, doing=N_("Changing the power curve"),
        fields={"unit": Ref("unit"), "row": Int(0, 99, plain=True)})
def change_curve(state: dict, p: dict) -> str:
    """Move the ship's power curve one row (faster or slower) in the Power Phase; once per round."""
    unit, ship = books.live_ship(state, p.get("unit"))
    if ship["curve_changed"] == state["round"]:
        raise RuleError(_("%(unit)s has already changed its power curve this Power Phase.", unit=unit["name"]), "row")
    new = entered_int(p, "row", lo=0, hi=len(ship["curve"]) - 1)
    chart.curve_step(ship["row"], new, len(ship["curve"]))
    if counter.power(ship, new) < 0:
        raise RuleError(_("Row %(row)s would leave Power %(power)s: a ship may never have negative Power (TT#17).",
                          row=chart.row_text(ship["curve"][new]), power=counter.power(ship, new)), "row")
    old = chart.row_text(ship["curve"][ship["row"]])
    ship["row"] = new
    ship["curve_changed"] = state["round"]
    return Said("%(unit)s power curve %(old)s → %(new)s", unit=unit["name"], old=old, new=chart.row_text(ship["curve"][new]))


@action("talon-afterburners", systems=GAME, fields={"unit": Ref("unit")})
def restore_afterburners(state: dict, p: dict) -> str:
    """Restore a Talon ship's afterburners (when they refresh is in your rulebook, not our sources)."""
    unit, ship = books.live_ship(state, p.get("unit"))
    if not ship["afterburners_used"]:
        raise RuleError(_("%(unit)s has all its afterburners.", unit=unit["name"]), "unit")
    ship["afterburners_used"] = 0  # TALON.md 2: "When afterburners/batteries refresh: not found"
    return Said("%(unit)s afterburners restored (%(n)s)", unit=unit["name"], n=ship["afterburners"])


@action("talon-passive", systems=GAME, phase=chart.POWER_PHASE, doing=N_("Passive charging"),
        fields={"unit": Ref("unit"), "group": Int(1, 99, plain=True)})
def passive_charge(state: dict, p: dict) -> str:
    """Passively charge one yellow box of a weapon group in the Power Phase."""
    unit, ship = books.live_ship(state, p.get("unit"))
    if not ship["groups"]:
        raise RuleError(_("%(unit)s has no weapon groups.", unit=unit["name"]), "group")
    index = entered_int(p, "group", lo=1, hi=len(ship["groups"])) - 1
    group = ship["groups"][index]
    weapons.charge_yellow(group)
    return Said("%(unit)s group %(n)s passively charged (%(on)s/%(of)s yellow)", unit=unit["name"], n=index + 1,
                on=group["yellow_on"], of=group["yellow"])


restore_afterburners.decider(books.keep("unit"))
change_curve.decider(books.keep("unit", "row"))
passive_charge.decider(books.keep("unit", "group"))
