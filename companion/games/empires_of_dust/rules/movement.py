"""Empires of Dust (seed 001, Basic Movement; Off the Edge): how far a ship moves this phase, and
a ship that left the table.
"""
from __future__ import annotations

from fractions import Fraction

from companion.said import N_, Said, joined
from companion.schema import whole_argument

from .seed_numbers import AFTERBURNER_SPEED, HALF, MIN_MOVE, OFF_THE_EDGE, _ceil, _d20


def off_the_edge(*, dice=None, rng=None) -> dict:
    """A ship off the table edge (or hit by a solid moving obstacle) returns where it left on D20 > 10."""
    roll = _d20(OFF_THE_EDGE, dice, rng, N_("D20 for the off the edge roll"))
    return {"roll": roll, "returns": roll["passed"],
            "summary": Said("off the edge: rolled %(roll)s (> %(needs)s): returns where it left", roll=roll["value"],
                            needs=OFF_THE_EDGE) if roll["passed"]
            else Said("off the edge: rolled %(roll)s (> %(needs)s): does not return", roll=roll["value"], needs=OFF_THE_EDGE)}


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
        notes.append(Said("EMP: coasts at the minimum 5 units; remove the counter after this move"))
    if afterburner:
        notes.append(Said("afterburner: cannot attack this turn"))
    if not drone and not emp:
        notes.append(Said("or 'about face' in place"))
    return {"min": low, "max": max(low, top), "can_attack": not afterburner,
            "summary": Said("move %(low)s-%(high)s units (%(notes)s)", low=low, high=max(low, top), notes=joined("; ", notes))
            if notes else Said("move %(low)s-%(high)s units", low=low, high=max(low, top))}
