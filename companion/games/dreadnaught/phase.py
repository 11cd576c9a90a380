"""Dreadnaught's phase hook: the reminders at each step of the turn (draws due, ties, the timer,
team rules), run inside next-phase as each step starts."""
from __future__ import annotations

from companion.actions import phase_now
from companion.games.dreadnaught import rules as dn
from companion.games.dreadnaught.state import count, remaining
from companion.said import Said


def on_phase(state: dict) -> list[str]:
    """What Dreadnaught adds at the start of each step: draws due, ties, the timer, team rules."""
    g = state.get("game") or {}
    if not g.get("ships"):
        return [Said("Set up the battle: decks of 26 or 36 cards, HP 24 plus System Card bonuses, hands of 6.")]
    if g.get("result"):
        return []
    now, out = phase_now(state), []
    if now == "Draw":
        for player in remaining(state):
            unit = state["units"][g["ship_of"][player]]
            hand, deck = count(unit, "hand"), count(unit, "deck")
            due = min(max(0, dn.HAND_SIZE - hand), deck)
            if due:
                out.append(Said("%(player)s draws %(n)s (hand %(hand)s, Draw Deck %(deck)s).", player=player, n=due,
                                hand=hand, deck=deck))
    if g.get("teams") and now == "Power Management":
        out.append(Said("Shared Defense: Defense Cards may go to a teammate's ship within Close range (0-3)."))
    if g.get("teams") and now == "Resolve":
        out.append(Said("Combined Fire: teammates hitting one target at one initiative step add 2 Damage, "
                        "1 Push or 2 Card Burn, once per step."))
    timer = g.get("timer")
    if timer and timer.get("ends_this_turn") and not timer.get("arrived"):
        at_zero = [f for f, pos in timer["tokens"].items() if pos == 0]
        out.append(Said("Fleet Token at 0 (%(fleets)s): the Fleet arrives at the end of this turn, after initiative 0.",
                        fleets=", ".join(at_zero)))
    if g["mode"] == "duel" and g["eliminations"]:
        out.append(Said("A ship is Eliminated: finish the cards within 1.0 initiative steps, then end the battle."))
    return out

