"""Victory conditions drawn after the game (seed 004 L343-L349) and the two standard scenarios
(L350-L356).  Pure: ``ships`` are [{"side", "size", "points", "destroyed", "fled", "conditions"}].
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _

VICTORY_CONDITIONS = {1: "Area control", 2: "Ships Remaining", 3: "Ships Destroyed / Fled",
                      4: "Conditions Inflicted"}  # L345-L348
SIZE_OR_POINTS = {1: "size", 2: "size", 3: "size", 4: "points", 5: "points", 6: "points"}  # L346-L347 "On 1-3 ... On 4-6"


def scores_remaining(ships: list[dict], sides: list[str], by: str) -> dict:
    """VC 2 (L346): sum of remaining ships' Size or Points; a ship with a Condition counts one-half.
    The seed gives no rounding for the half: kept exact (x.5)."""
    out = {s: 0.0 for s in sides}
    for ship in ships:
        if ship["destroyed"] or ship["fled"]:
            continue
        value = ship[by]
        out[ship["side"]] += value / 2 if ship["conditions"] else value
    return out


def scores_lost(ships: list[dict], sides: list[str], by: str) -> dict:
    """VC 3 (L347): own destroyed ships' Size or Points, plus half for ships that fled."""
    out = {s: 0.0 for s in sides}
    for ship in ships:
        if ship["destroyed"]:
            out[ship["side"]] += ship[by]
        elif ship["fled"]:
            out[ship["side"]] += ship[by] / 2
    return out


def scores_conditions(ships: list[dict], sides: list[str]) -> dict:
    """VC 4 (L348): Conditions on each remaining ship, counted."""
    out = {s: 0 for s in sides}
    for ship in ships:
        if not ship["destroyed"] and not ship["fled"]:
            out[ship["side"]] += len(ship["conditions"])
    return out


def winner(scores: dict, highest: bool) -> str | None:
    """The side with the best score, or None for a tie (L349 "It is possible to achieve a tie")."""
    if not scores:
        return None
    best = max(scores.values()) if highest else min(scores.values())
    top = [s for s, v in scores.items() if v == best]
    return top[0] if len(top) == 1 else None


def draw(numbers: list[int], count: int) -> list[int]:
    """Which victory conditions were drawn (L344: two, or one if the scenario objective is crucial)."""
    if count not in (1, 2):
        raise RuleError(_("Draw one or two victory conditions (L344)."), "count")
    if len(numbers) != count or len(set(numbers)) != count or any(n not in VICTORY_CONDITIONS for n in numbers):
        raise RuleError(_("Enter 1 different victory condition number from 1 to 4.") if count == 1
                        else _("Enter %(n)s different victory condition numbers from 1 to 4.", n=count), "dice")
    return numbers


def verdict(wins: dict) -> Said:
    """L349: one more condition won than the opponent is a victory; two more is more decisive.  Said
    (a part of the move's label); the state keeps its message (``kept``)."""
    ranked = sorted(wins.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return Said("A tie.")
    lead = ranked[0][1] - ranked[1][1]
    if lead >= 2:
        return Said("%(side)s wins decisively.", side=ranked[0][0])
    return Said("%(side)s wins.", side=ranked[0][0])


def contested_objectives(force_points: int) -> int:
    """Contested Objective (L355): one objective per 500 points of a player's force size."""
    return force_points // 500
