"""Auxiliaries and sea monsters (seed 002, Auxiliaries; Flying Auxiliaries; Sea Monsters)."""
from __future__ import annotations

from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import (
    CAPSIZE_ON_OR_UNDER,
    FLYING_AUXILIARIES,
    SEA_MONSTERS,
    SIDES,
    canonical_name,
)
from companion.said import N_, Said, _


def is_flying(auxiliary: str) -> bool:
    """Seed 002, Flying Auxiliaries: Dwarf Dirigibles and Dragons."""
    name = str(auxiliary).strip().casefold()
    return any(name.startswith(kind.casefold()) for kind in FLYING_AUXILIARIES)


def capsize_test(auxiliary: str = "Cog", *, at_anchor: bool = False, run_aground: bool = False,
                 dice=None, rng=None) -> dict:
    """Seed 002, Auxiliaries: deploying a cog while not at anchor or aground, a D6 of 1-3 loses it."""
    if canonical_name(auxiliary) in SEA_MONSTERS:
        raise RuleError(_("Sea monsters cannot be deployed."), "auxiliary")
    if is_flying(auxiliary):
        return {"needed": False, "roll": None, "capsized": False,
                "summary": Said("%(auxiliary)s flies: no capsize test", auxiliary=auxiliary)}
    if at_anchor or run_aground:
        return {"needed": False, "roll": None, "capsized": False,
                "summary": capsize_summary(auxiliary, None, False, "at anchor" if at_anchor else "run aground")}
    roll = roll_or_take(1, 6, dice, rng, N_("capsize die"))[0]
    capsized = roll <= CAPSIZE_ON_OR_UNDER
    return {"needed": True, "roll": roll, "capsized": capsized, "summary": capsize_summary(auxiliary, roll, capsized)}


def capsize_summary(auxiliary: str, roll, capsized: bool, spared: str = "") -> str:
    """A capsize test's line (``spared``: "at anchor" or "run aground", no test), from its result or the payload."""
    if spared == "at anchor":
        return Said("%(auxiliary)s deployed from a warship at anchor: no capsize test", auxiliary=auxiliary)
    if spared:
        return Said("%(auxiliary)s deployed from a warship run aground: no capsize test", auxiliary=auxiliary)
    if capsized:
        return Said("Capsize test for %(auxiliary)s: rolled %(roll)s -> capsized: it and its card are removed from play",
                    auxiliary=auxiliary, roll=roll)
    return Said("Capsize test for %(auxiliary)s: rolled %(roll)s -> deployed", auxiliary=auxiliary, roll=roll)


def sea_monster_controller(nearest_warship_side: str, sides=SIDES) -> str:
    """Seed 002, Sea Monsters: the opponent of the player with the nearest warship controls it."""
    if nearest_warship_side not in sides:
        raise RuleError(_("The nearest warship's side must be one of %(sides)s.", sides=", ".join(sides)), "side")
    return sides[1] if nearest_warship_side == sides[0] else sides[0]

