"""Empires of Dust (seed 001, Drone Launchers; Docking; Bases: Combat): launching drones, docking
at a base, and a base's attacks.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import N_, Said, _
from companion.schema import whole_argument

from .seed_numbers import ENGINEER_LAUNCHES, LAUNCHES_PER_TURN, _key
from .tables import base_classes, ship_classes

# a base's launch limit: (its class begins with a vowel, more than one drone)
_BASE_LAUNCHES = {
    (True, False): N_("An %(base)s launches at most %(limit)s drone per turn, one from each launcher "
                      "(seed 001, Bases: Combat)."),
    (True, True): N_("An %(base)s launches at most %(limit)s drones per turn, one from each launcher "
                     "(seed 001, Bases: Combat)."),
    (False, False): N_("A %(base)s launches at most %(limit)s drone per turn, one from each launcher "
                       "(seed 001, Bases: Combat)."),
    (False, True): N_("A %(base)s launches at most %(limit)s drones per turn, one from each launcher "
                      "(seed 001, Bases: Combat)."),
}


def launch_drone(launcher: str, active: list[str], launched_this_turn: int = 0, *,
                 engineer: bool = False, base: str | None = None, launcher_used: bool = False) -> dict:
    """Launch a drone in the movement phase (seed 001, Drone Launchers): one drone active per
    launcher, one launch per ship per turn (an Engineer launches 2 at a time).

    ``base``: the launching base's class.  seed 001, Bases: Combat: "Some bases may fire multiple
    weapons or launch multiple drones per turn. Outpost may only attack once as normal. A station
    class base can attack twice ... A star-port class base can attack three times".  Decision: the
    seed gives no separate launch count, so a base launches as many drones per turn as it attacks
    per combat phase (outpost 1, station 2, star-port 3), each launcher once per turn
    (``launcher_used``: this launcher has launched this turn already)."""
    if base is not None:
        kind = _key(base)
        if kind not in base_classes():
            raise RuleError(_("Unknown base class %(base)r.", base=base), "unit")
        limit = base_classes()[kind]["attacks"]
    else:
        limit = ENGINEER_LAUNCHES if engineer else LAUNCHES_PER_TURN
    if launcher in (active or []):
        raise RuleError(_("%(launcher)s already has a drone in flight; a new one launches once it is killed.",
                          launcher=launcher), "launcher")
    if base is not None and launcher_used:
        raise RuleError(_("%(launcher)s has already launched this turn: a base launches from each launcher once "
                          "per turn (seed 001, Bases: Combat).", launcher=launcher), "launcher")
    if whole_argument(launched_this_turn, "launched_this_turn", 0) >= limit:
        if base is not None:
            vowel, many = kind[0] in "aeiou", limit > 1
            raise RuleError(_(_BASE_LAUNCHES[vowel, many], base=kind, limit=limit), "launcher")
        raise RuleError(_("A ship launches %(limit)s drones per turn.", limit=limit) if limit > 1
                        else _("A ship launches %(limit)s drone per turn.", limit=limit), "launcher")
    return {"launcher": launcher, "active": [*(active or []), launcher], "launched_this_turn": launched_this_turn + 1,
            "summary": f"{launcher} launches its drone; it may move now and attack this turn"}


def dock(ship_class: str, base_class: str, docked: int = 0) -> dict:
    """Dock a ship at a base during the movement phase (seed 001, Docking).

    Decision: "only dock with a base that is larger than it ... Therefore a battleship may only
    dock in a star-port" -- the battleship and star-port diameters are both 13, so "larger" means a
    base diameter at least the ship's."""
    ship, base = _key(ship_class), _key(base_class)
    if base not in base_classes():
        raise RuleError(_("Unknown base class %(base)r.", base=base_class), "base_class")
    if ship == "drone":
        raise RuleError(_("Drones cannot dock."), "ship_class")
    if ship not in ship_classes():
        raise RuleError(_("Unknown ship class %(ship)r.", ship=ship_class), "ship_class")
    spec = base_classes()[base]
    if ship_classes()[ship]["diameter"] > spec["diameter"]:
        raise RuleError(_("A %(ship)s cannot dock at a %(base)s: a ship only docks with a larger base.", ship=ship, base=base),
                        "base_class")
    if whole_argument(docked, "docked", 0) >= spec["docks"]:
        raise RuleError(_("The %(base)s has %(docks)s docks, all in use.", base=base, docks=spec["docks"]) if spec["docks"] > 1
                        else _("The %(base)s has %(docks)s dock, all in use.", base=base, docks=spec["docks"]), "base_class")
    return {"docked": docked + 1, "docks": spec["docks"],
            "summary": Said("%(ship)s docks at the %(base)s (%(docked)s/%(docks)s); it cannot be targeted or fire", ship=ship,
                            base=base, docked=docked + 1, docks=spec["docks"])}


def base_attacks(base_class: str, attacks: list[dict]) -> dict:
    """Check a base's attacks in a combat phase: outpost 1, station 2 at separate targets with
    different weapons, star-port 3 at different targets (seed 001, Bases: Combat)."""
    base = _key(base_class)
    if base not in base_classes():
        raise RuleError(_("Unknown base class %(base)r.", base=base_class), "base_class")
    allowed = base_classes()[base]["attacks"]
    if len(attacks) > allowed:
        raise RuleError(_("A %(base)s attacks %(allowed)s times per combat phase.", base=base, allowed=allowed) if allowed > 1
                        else _("A %(base)s attacks %(allowed)s time per combat phase.", base=base, allowed=allowed),
                        "attacks")
    targets = [a.get("target") for a in attacks]
    weapons = [a.get("weapon") for a in attacks]
    if len(set(targets)) != len(targets):
        raise RuleError(_("A %(base)s's attacks must be at different targets.", base=base), "attacks")
    if len(set(weapons)) != len(weapons):
        # station: "using different weapons"; decision: the star-port too (each weapon fires once)
        raise RuleError(_("A %(base)s's attacks must use different weapons.", base=base), "attacks")
    return {"attacks": len(attacks), "allowed": allowed,
            "summary": f"{base} attacks {len(attacks)} of {allowed} times, last in the combat phase"}
