"""Dreadfleet's phase hook (seed 002, The Game Turn): what the players must not forget as each phase
starts, run inside next-phase."""
from __future__ import annotations

from companion.actions import phase_now
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.state import books, cards_on, in_play, opponent, sides
from companion.said import Said


def on_phase(state: dict) -> list[Said]:
    """Seed 002, The Game Turn: what the players must not forget as each phase starts."""
    if not state.get("units") and not state.get("game"):
        return []
    game = books(state)
    now = phase_now(state)
    out = []
    first = (game.get("turn") or {}).get("first") if (game.get("turn") or {}).get("round") == state["round"] else None
    if now == "Initiative" and not game["wind_placed"]:
        out.append(Said("Place the wind gauge: roll a red and a white die (set-up)."))
    if now == "Status":
        order = [first, opponent(state, first)] if first else sides(state)
        for side in order:
            for unit in in_play(state):
                if unit["side"] != side:
                    continue
                red = [card["name"] for _, _, card in cards_on(state, unit["id"]) if card.get("kind") == "Status"]
                active = unit["trackers"].get("status", {}).get("active", {})
                red += [f"{name} ×{entry['count']}" if entry.get("count") else name
                        for name, entry in active.items() if name == df.SET_ABLAZE]
                if red:  # names only (ship, side, cards); the message lets a language place its colon
                    out.append(Said("%(unit)s (%(side)s): %(cards)s", unit=unit["name"], side=side, cards=", ".join(red)))
        if len(out) == 0:
            out.append(Said("No red Status cards in play."))
    if now == "Fate":
        out.append(Said("%(side)s draws the first Fate card.", side=first) if first else
                   Said("Nobody has the initiative yet: roll off in the Initiative phase."))
    if now == "Action":
        out += [Said("%(unit)s still owes 1 Damage card from the real deck.", unit=state["units"][uid]["name"]) if n == 1
                else Said("%(unit)s still owes %(n)s Damage cards from the real deck.", unit=state["units"][uid]["name"], n=n)
                for uid, n in game["owed"].items() if n and not state["units"][uid]["removed"]]
    if now == "End":
        limit = game["scenario"].get("turns")
        if limit and state["round"] >= limit:
            out.append(Said("Turn %(turn)s of %(limit)s: the scenario's turns have run out - the game ends.",
                            turn=state["round"], limit=limit))
        elif limit:
            out.append(Said("Turn %(turn)s of %(limit)s: check the victory conditions.", turn=state["round"], limit=limit))
        else:
            out.append(Said("No turn limit set: check the victory conditions."))
    return out
