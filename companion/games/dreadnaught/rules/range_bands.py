"""Range bands and reductions (seed 000, Range & Line of Fire; Special Keywords: Unstoppable, Unbreakable).
"""
from __future__ import annotations

from companion.games.dreadnaught.rules.numbers import NARROW_WIDENS, RANGE_BANDS
from companion.said import N_, Said
from companion.schema import whole_argument

# --- Range, reduction and the Unstoppable keyword ---------------------------------------------

def range_band(hexes: int) -> dict:
    """Standard range band of a range in hexes (counting the target's hex); none beyond Extreme."""
    whole_argument(hexes, "hexes", 0, what=N_("Range in hexes"))
    for band, low, high in RANGE_BANDS:
        if low <= hexes <= high:
            return {"hexes": hexes, "band": band, "in_range": True, "narrow_arc_widens": band in NARROW_WIDENS,
                    "summary": Said("%(hexes)s hexes: %(band)s range (%(low)s-%(high)s).", hexes=hexes, band=band,
                                    low=low, high=high)}
    return {"hexes": hexes, "band": None, "in_range": False, "narrow_arc_widens": False,
            "summary": Said("%(hexes)s hexes: beyond Extreme range - no attacks (seed 000, Range & Line of Fire).",
                            hexes=hexes)}


def reduction(value: int, amount: int = 0, *, negate: bool = False, unstoppable: bool = False,
              unbreakable: bool = False) -> dict:
    """Apply a reduction (or an ignore/negate effect) to Damage, Push or Card Burn.

    Plain: reduce to a minimum of 0.  Unstoppable: immune to reductions, but an effect that would
    ignore or negate the value halves it instead, rounding down; a reduction that would bring the
    value to 0 counts as negating it.  Unbreakable reductions ignore Unstoppable (seed 000, Special
    Keywords).
    """
    whole_argument(value, "value", 0, what=N_("The value"))
    whole_argument(amount, "amount", 0, what=N_("The reduction"))
    if unstoppable and not unbreakable:
        if negate or (value and amount >= value):
            result, how = value // 2, Said("Unstoppable: halved, rounding down")
        else:
            result, how = value, Said("Unstoppable: immune to the reduction")
    else:
        result = 0 if negate else max(0, value - amount)
        how = Said("negated") if negate else Said("reduced by %(n)s", n=amount)
        if unstoppable:
            how = Said("%(how)s (Unbreakable ignores Unstoppable)", how=how)
    return {"value": value, "result": result,
            "summary": Said("%(value)s -> %(result)s (%(how)s).", value=value, result=result, how=how)}


def unstoppable(value: int, amount: int = 0, *, negate: bool = False, unbreakable: bool = False) -> dict:
    """An Unstoppable value against a reduction or a negating effect (see ``reduction``)."""
    return reduction(value, amount, negate=negate, unstoppable=True, unbreakable=unbreakable)
