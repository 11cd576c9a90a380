"""Tiny Duel's rules: a salvo of D6 hitting on 5+.  Pure: no state, no Flask, no store."""
from __future__ import annotations

from companion.dice import roll_or_take

HIT_ON = 5


def salvo(dice: int, rolled=None, rng=None) -> dict:
    """Roll (or take) ``dice`` D6; each 5+ is a hit."""
    values = roll_or_take(dice, 6, rolled, rng)
    return {"dice": values, "hits": sum(v >= HIT_ON for v in values)}


def expected_hits(dice: int) -> float:
    """The hits a salvo of ``dice`` D6 scores on average: each die hits on 5 or 6 (2 chances in 6)."""
    return dice * (7 - HIT_ON) / 6
