"""Astral Action's phase hook: the Resolution phase's upkeep the app can do and what to remember
(seed 004 L137-L138, L259), and the Hyperspace jumps revealed as the next turn starts (L286)."""
from __future__ import annotations

from companion.games.astral_action.rules import turn as tn
from companion.games.astral_action.rules.damage import has_active, reinforce
from companion.games.astral_action.state import game, hidden, in_effect
from companion.said import Said


def on_phase(state: dict) -> list[str]:
    """Runs inside next-phase: the Resolution phase's upkeep the app can do, and what to remember."""
    if state.get("system") != "astral-action" or not (state.get("game", {}).get("ships") or state["game"].get("terrain")):
        return []
    g = game(state)
    phase = state["phases"][state["phase"]]
    out = []
    if phase == "Command" and state["round"] > 1:
        out += hyperspace_jumps(state)
    if phase == "Resolution":
        for uid, ship in g["ships"].items():
            unit = state["units"][uid]
            if unit["removed"]:
                continue
            if in_effect(state, uid, "Reinforce Shields") and not hidden(state, uid):  # its label names its Shields
                shields = has_active(ship, ship["card"], "shields")
                removed = reinforce(ship, ship["card"]["size"], shields)  # L259
                out.append(Said("%(unit)s: Reinforce Shields removes %(removed)s shield damage (Size + %(shields)s Shields).",
                                unit=unit["name"], removed=removed, shields=shields))
        for piece in g.get("terrain", []):
            for attr in piece["attributes"]:
                if attr["name"] in ("Dangerous", "Mobile"):  # L296, L299: at the beginning of the Resolution phase
                    out.append(Said("%(piece)s: ships inside take %(x)s damage per Size.", piece=piece["name"], x=attr["x"])
                               if attr["name"] == "Dangerous"
                               else Said("%(piece)s: moves %(x)s along its direction.", piece=piece["name"], x=attr["x"]))
        if g["missiles"]:
            out.append(Said("%(n)s missile token(s) resolve now, from the token's position (L182).", n=len(g["missiles"])))
        if state["round"] >= tn.MIN_TURNS and not g["end"]:
            out.append(Said("End of turn %(turn)s: roll a d6 for the game's end, 4-6 ends it (L342).", turn=state["round"]))
        sides = {state["units"][u]["side"] for u in g["ships"] if not state["units"][u]["removed"]}
        if len(sides) == 1:
            out.append(Said("Only %(side)s controls ships: the game ends (L342).", side=sides.pop()))
    return out


def hyperspace_jumps(state: dict) -> list[str]:
    """Jump to Hyperspace (L286): "Reveal this at the end of the resolution phase. During the next turn,
    this Ship may not be given any Orders or Command tokens, and when this Ship is activated, remove it
    from play."  Runs as the new turn starts (right after the Resolution phase ended)."""
    g = game(state)
    last = state["round"] - 1
    books = g.get("turn") or {}
    out = []
    for uid, ship in g["ships"].items():
        unit = state["units"][uid]
        if unit["removed"]:
            continue
        sealed = [part for part in state.get("sealed", {}).values() if part.get("unit") == uid
                  and part.get("kind") == "order" and part.get("round") == last and not part.get("discarded")
                  and part["secret"].get("order") == "Jump to Hyperspace"]
        open_order = books.get("round") == last and "Jump to Hyperspace" in books.get("orders", {}).get(uid, [])
        if sealed or open_order:
            for part in sealed:
                part["revealed"] = True
            ship["jumping"] = state["round"]
            out.append(Said("%(unit)s jumps to Hyperspace: no Orders or Command Tokens this turn; it leaves play when it "
                            "activates (L286).", unit=unit["name"]))
    return out
