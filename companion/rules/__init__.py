"""What every game's procedures share: RuleError and roll-or-take.  Pure: no Flask, no database.

Each game's own procedures live in its package (``companion/games/<game>/``, see companion.games).
Procedures take what a player knows (stats, range, modifiers) plus either the dice the player
rolled on the table or an RNG (anything with ``randint(a, b)``), and return plain, JSON-ready
results.  A move the rules forbid raises ``RuleError`` with one sentence naming the rule or field.
"""
from __future__ import annotations


class RuleError(ValueError):
    """A move the rules (or the input's limits) forbid; ``field`` names the control it concerns."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def roll_or_take(count: int, sides: int, dice, rng, what: str = "dice") -> list[int]:
    """The player's own dice if given (checked), otherwise ``count`` fresh rolls from ``rng``."""
    if dice is None:
        if rng is None:
            raise RuleError(f"Enter the {count} {what} you rolled, or let the companion roll.", "dice")
        return [rng.randint(1, sides) for _ in range(count)]
    dice = list(dice)
    if len(dice) != count:
        raise RuleError(f"Expected {count} {what} (D{sides}), got {len(dice)}.", "dice")
    for value in dice:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RuleError(f"Each die must be a whole number from 1 to {sides}; got {value!r}.", "dice")
    return dice
