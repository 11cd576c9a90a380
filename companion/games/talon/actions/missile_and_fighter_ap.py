"""Two Available Power uses whose details our sources leave thin: Redirect Missile (rulebook 13.7) and
Transmit Power to Fighters (12.2.2).

What TALON.md gives (section 2, from FAN's PowerOption, no other source): each is an AP use, so it costs
the ship its 1 AP of the impulse (or a charged battery, like every use); Redirect Missile is for "ships with
missiles", Transmit Power to Fighters for "Bases, CVs".  What it leaves out (TALON.md 11, items 8 and 9):
how far a missile may be turned or how far it may be from its new target, and what the transmitted power
does for the squadron.  The app records the use and spends the AP; the players settle the rest at their
table, and the phone form says so (templates/games/talon/_unit.html).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.talon import state as books
from companion.games.talon.rules import counter
from companion.said import Said, _

POWER_SENDERS = ("Base", "CV")  # TALON.md 2: "Transmit Power to Fighters (Bases, CVs)"
FIGHTERS = "FTR"  # seed 003 5.2: Fighter


def redirect_missile(state: dict, unit: dict, ship: dict, p: dict) -> str:
    """A missile token of the ship's side in flight turns to a new target (TALON.md 2: rule 13.7); what
    the log says the ship did."""
    if not any(g["weapon"] == "missile" for g in ship["groups"]):
        raise RuleError(_("%(unit)s carries no missiles: Redirect Missile is for ships with missiles (rule 13.7).",
                          unit=unit["name"]), "use")
    g = books.game(state)
    token = next((m for m in g["missiles"] if str(m["id"]) == str(p.get("missile"))), None)
    if token is None:
        raise RuleError(_("Choose a missile token in flight to redirect."), "missile")
    launcher = state["units"].get(token["by"])
    if launcher is None or launcher["side"] != unit["side"]:
        raise RuleError(_("Missile %(id)s is not %(side)s's to redirect.", id=token["id"], side=unit["side"]), "missile")
    target_unit, _target = books.live_ship(state, p.get("new_target"), "new_target")
    if target_unit["side"] == unit["side"]:
        raise RuleError(_("%(target)s is on your side.", target=target_unit["name"]), "new_target")
    if target_unit["id"] == token["target"]:
        raise RuleError(_("Missile %(id)s is already flying at %(target)s.", id=token["id"], target=target_unit["name"]),
                        "new_target")
    arc = p.get("new_arc")
    if arc not in counter.ARCS:
        raise RuleError(_("Say which of %(target)s's arcs faces the missile: Fwd, Right, Rear or Left.",
                          target=target_unit["name"]), "new_arc")
    was = state["units"].get(token["target"])
    token.update(target=target_unit["id"], arc=arc, redirected=state["round"])
    return Said("%(unit)s redirects missile #%(id)s from %(was)s to %(target)s (%(arc)s arc)", unit=unit["name"],
                id=token["id"], was=was["name"] if was else "?", target=target_unit["name"], arc=counter.ARC_NAMES[arc])


def transmit_power(state: dict, unit: dict, ship: dict, p: dict) -> str:
    """The ship sends power to one of its side's fighter squadrons (TALON.md 2: rule 12.2.2); what the
    log says the ship did."""
    if ship["hull_class"] not in POWER_SENDERS:
        raise RuleError(_("%(unit)s is a %(hull)s: only Bases and Carriers (CV) transmit power to fighters (rule 12.2.2).",
                          unit=unit["name"], hull=ship["hull_class"]), "use")
    fighter, squadron = books.live_ship(state, p.get("fighters"), "fighters")
    if squadron["hull_class"] != FIGHTERS or fighter["side"] != unit["side"]:
        raise RuleError(_("Choose one of %(side)s's fighter squadrons (FTR) to send the power to.", side=unit["side"]),
                        "fighters")
    return Said("%(unit)s transmits power to %(fighters)s (its effect: from your rulebook, 12.2.2)", unit=unit["name"],
                fighters=fighter["name"])
