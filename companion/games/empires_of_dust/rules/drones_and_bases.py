"""Empires of Dust (seed 001, Drone Launchers; Docking; Bases: Combat): launching drones, docking
at a base, and a base's attacks.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.schema import whole_argument

from .seed_numbers import ENGINEER_LAUNCHES, LAUNCHES_PER_TURN, _key
from .tables import base_classes, ship_classes


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
            raise RuleError(f"Unknown base class {base!r}.", "unit")
        limit = base_classes()[kind]["attacks"]
    else:
        limit = ENGINEER_LAUNCHES if engineer else LAUNCHES_PER_TURN
    if launcher in (active or []):
        raise RuleError(f"{launcher} already has a drone in flight; a new one launches once it is killed.", "launcher")
    if base is not None and launcher_used:
        raise RuleError(f"{launcher} has already launched this turn: a base launches from each launcher once "
                        "per turn (seed 001, Bases: Combat).", "launcher")
    if whole_argument(launched_this_turn, "launched_this_turn", 0) >= limit:
        if base is not None:
            article = "An" if kind[0] in "aeiou" else "A"
            raise RuleError(f"{article} {kind} launches at most {limit} drone{'s' if limit > 1 else ''} per turn, "
                            "one from each launcher (seed 001, Bases: Combat).", "launcher")
        raise RuleError(f"A ship launches {limit} drone{'s' if limit > 1 else ''} per turn.", "launcher")
    return {"launcher": launcher, "active": [*(active or []), launcher], "launched_this_turn": launched_this_turn + 1,
            "summary": f"{launcher} launches its drone; it may move now and attack this turn"}


def dock(ship_class: str, base_class: str, docked: int = 0) -> dict:
    """Dock a ship at a base during the movement phase (seed 001, Docking).

    Decision: "only dock with a base that is larger than it ... Therefore a battleship may only
    dock in a star-port" -- the battleship and star-port diameters are both 13, so "larger" means a
    base diameter at least the ship's."""
    ship, base = _key(ship_class), _key(base_class)
    if base not in base_classes():
        raise RuleError(f"Unknown base class {base_class!r}.", "base_class")
    if ship == "drone":
        raise RuleError("Drones cannot dock.", "ship_class")
    if ship not in ship_classes():
        raise RuleError(f"Unknown ship class {ship_class!r}.", "ship_class")
    spec = base_classes()[base]
    if ship_classes()[ship]["diameter"] > spec["diameter"]:
        raise RuleError(f"A {ship} cannot dock at a {base}: a ship only docks with a larger base.", "base_class")
    if whole_argument(docked, "docked", 0) >= spec["docks"]:
        raise RuleError(f"The {base} has {spec['docks']} dock{'s' if spec['docks'] > 1 else ''}, all in use.", "base_class")
    return {"docked": docked + 1, "docks": spec["docks"],
            "summary": f"{ship} docks at the {base} ({docked + 1}/{spec['docks']}); it cannot be targeted or fire"}


def base_attacks(base_class: str, attacks: list[dict]) -> dict:
    """Check a base's attacks in a combat phase: outpost 1, station 2 at separate targets with
    different weapons, star-port 3 at different targets (seed 001, Bases: Combat)."""
    base = _key(base_class)
    if base not in base_classes():
        raise RuleError(f"Unknown base class {base_class!r}.", "base_class")
    allowed = base_classes()[base]["attacks"]
    if len(attacks) > allowed:
        raise RuleError(f"A {base} attacks {allowed} time{'s' if allowed > 1 else ''} per combat phase.", "attacks")
    targets = [a.get("target") for a in attacks]
    weapons = [a.get("weapon") for a in attacks]
    if len(set(targets)) != len(targets):
        raise RuleError(f"A {base}'s attacks must be at different targets.", "attacks")
    if len(set(weapons)) != len(weapons):
        # station: "using different weapons"; decision: the star-port too (each weapon fires once)
        raise RuleError(f"A {base}'s attacks must use different weapons.", "attacks")
    return {"attacks": len(attacks), "allowed": allowed,
            "summary": f"{base} attacks {len(attacks)} of {allowed} times, last in the combat phase"}
