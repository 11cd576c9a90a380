"""Empires of Dust (seed 001, Basic Movement; Off the Edge): how far a ship moves this phase, and
a ship that left the table.
"""
from __future__ import annotations

from fractions import Fraction

from companion.schema import whole_argument

from .seed_numbers import AFTERBURNER_SPEED, HALF, MIN_MOVE, OFF_THE_EDGE, _ceil, _d20


def off_the_edge(*, dice=None, rng=None) -> dict:
    """A ship off the table edge (or hit by a solid moving obstacle) returns where it left on D20 > 10."""
    roll = _d20(OFF_THE_EDGE, dice, rng, "D20 for the off the edge roll")
    return {"roll": roll, "returns": roll["passed"],
            "summary": f"off the edge: rolled {roll['value']} (> {OFF_THE_EDGE}): "
                       + ("returns where it left" if roll["passed"] else "does not return")}


def movement_allowance(speed: int, *, emp: bool = False, afterburner: bool = False,
                       half_speed: bool = False, speed_modifier: int = 0, drone: bool = False) -> dict:
    """Movement this phase: 5 units up to speed (drones 30 any direction); EMP: coast 5 only;
    afterburner +5 and no attack; half speed in a gravity well or dense nebula (decision: rounded
    up, like every other halving in the seed)."""
    top = whole_argument(speed, "speed", 0) + whole_argument(speed_modifier, "speed_modifier")
    if afterburner:
        top += AFTERBURNER_SPEED
    if half_speed:
        top = _ceil(Fraction(top) * HALF)
    low = 0 if drone else MIN_MOVE
    if emp:
        low = top = MIN_MOVE
    notes = []
    if emp:
        notes.append("EMP: coasts at the minimum 5 units; remove the counter after this move")
    if afterburner:
        notes.append("afterburner: cannot attack this turn")
    if not drone and not emp:
        notes.append("or 'about face' in place")
    return {"min": low, "max": max(low, top), "can_attack": not afterburner,
            "summary": f"move {low}-{max(low, top)} units" + (f" ({'; '.join(notes)})" if notes else "")}
