"""Dreadnaught on the board: what every Dreadnaught action shares (the step reminders are phase.py).

The numbers live where the core keeps them (HP, Draw Deck, hand, discard and tokens are the ship
unit's counters); everything else of the battle is ``state["game"]``:

``mode`` duel|multiplayer, ``attacker`` (duel), ``first_player`` (multiplayer), ``teams``,
``ships`` {uid: {player, role, team, slots, mulligan_available, eliminated, pending_burn}},
``ship_of`` {player: uid}, ``turn`` (this turn's data, see ``turn``), ``eliminations``,
``timer`` (the Fleet Arrival Timer of ``rules.fleet_arrival_start``), ``result`` (the battle's
end), ``battles`` and ``best_of`` (a running battle), ``helper`` (the last range/reduction check).

Rules come from ``companion.games.dreadnaught.rules`` (seed 000, one module per topic); this module
only wires them to the state.  Action types are ``dn-*``, registered by the modules of ``actions``:
``setup``, ``ship``, ``resolve`` and ``battle``.
"""
from __future__ import annotations

from companion.actions import phase_now
from companion.errors import RuleError
from companion.games.dreadnaught import rules as dn
from companion.games.dreadnaught.rules.elimination import REASON_WORDS
from companion.games.dreadnaught.rules.numbers import bare
from companion.said import (
    Said,
    _,
    joined,
    kept,
    retold,  # noqa: F401  (the games' one rebuild, companion/said.py)
)

SYSTEM = "dreadnaught"
SYSTEMS = {SYSTEM}
RESOLVING = ("Resolve", "React")


# --- reading the state ------------------------------------------------------------------------

def game(state: dict) -> dict:
    """The battle's own state; refuses every Dreadnaught move before set-up."""
    g = state.get("game") or {}
    if not g.get("ships"):
        raise RuleError(_("Set up the battle first (Set up the battle, at the top of the board)."), "setup")
    return g


def battle_on(state: dict) -> dict:
    """The battle, refusing moves once its result is recorded."""
    g = game(state)
    if g.get("result"):
        raise RuleError(_("This battle is over; set up the next battle to play on."), "battle")
    return g


def ship_ref(state: dict, ref) -> str:
    """A ship's unit id from its id or its player's name (the tools pick players, cards pick units)."""
    g = game(state)
    if isinstance(ref, str) and ref in g["ships"]:
        return ref
    if isinstance(ref, str) and ref in g["ship_of"]:
        return g["ship_of"][ref]
    raise RuleError(_("Pick a ship of this battle; %(ref)r is none of %(ships)s.", ref=ref, ships=", ".join(g["ship_of"])),
                    "ship")


def ship(state: dict, ref, *, alive: bool = True) -> tuple[str, dict, dict]:
    """(uid, the ship's battle data, its unit); refuses an Eliminated ship unless ``alive`` is False."""
    uid = ship_ref(state, ref)
    data = state["game"]["ships"][uid]
    if alive and data["eliminated"]:
        raise RuleError(_("%(player)s is Eliminated.", player=data["player"]), "ship")
    return uid, data, state["units"][uid]


def count(unit: dict, tracker: str) -> int:
    return unit["trackers"][tracker]["value"]


def set_count(unit: dict, tracker: str, value: int) -> None:
    """Write a counter, held within its limits (HP floors at 0: seed 000 eliminates at 0 or less)."""
    t = unit["trackers"][tracker]
    t["value"] = max(t["min"], min(t["max"], value))


def turn(state: dict) -> dict:
    """This turn's data, started afresh when a new turn begins (the log replays to the same)."""
    g = state["game"]
    t = g.get("turn")
    if not t or t.get("round") != state["round"]:
        t = g["turn"] = {"round": state["round"], "drawn": [], "always_dangerous": [], "power": {},
                         "readied": {}, "returned": {}, "discarded": {}, "played": {}, "damage": {},
                         "burn": {}, "cards": [], "next_card": 1, "resolved": [], "order": [],
                         "ties": [], "current": None, "combined_fire": []}
    return t


def per_ship(t: dict, key: str, uid: str, add: int) -> int:
    t[key][uid] = t[key].get(uid, 0) + add
    return t[key][uid]


def clean(args: dict, *keys: str) -> dict:
    """The payload of a plain action: only the plain values it reads go into the log (a list or
    object where a number or name belongs is dropped, so the action asks for the value again)."""
    return {k: args[k] for k in keys
            if k in args and isinstance(args[k], (str, int, float, bool)) and args[k] != ""}


def called(state: dict, player: str) -> str:
    """The name a player goes by: the one typed at set-up for a role side (Attacker, Defender), else the side."""
    return (state["game"].get("names") or {}).get(player, player)


def signed(out: dict, ctx) -> dict:
    """A ship action's payload with the seat that made it, so its label can leave out a name the log
    already shows (``said``)."""
    return {**out, "by": ctx.seat}


def said(state: dict, p: dict, player: str, text: str, sep: str = ": ") -> str:
    """A label about ``player``'s ship.  The log and the undo button put the acting seat's name before
    every label, so a player acting on their own ship is named once: "Ben: Card Burn 3", not
    "Ben: Ben: Card Burn 3"; when Anna does it for him, "Anna: Ben: Card Burn 3".  ``text`` is a Said
    (the words of the move): the label keeps it as its part, so each phone draws it in its language."""
    name = called(state, player)
    return text if p.get("by") == name else joined(sep, (name, text))




def players(state: dict) -> list[str]:
    return list(state["game"]["ship_of"])


def fleet_of(state: dict, player: str) -> str:
    """The Fleet Token a player moves: their own, or their team's (seed 000, Fleet Arrival Timer)."""
    g = state["game"]
    return g["teams"][player] if g.get("teams") else player


def remaining(state: dict) -> list[str]:
    g = state["game"]
    return [p for p, uid in g["ship_of"].items() if not g["ships"][uid]["eliminated"]]


# --- the initiative resolver's order ----------------------------------------------------------

def refresh_order(state: dict) -> None:
    """Recompute the resolution order of the revealed cards and where the walk stands.

    Each row gets a ``key`` (card id @ initiative) and a status: done, current, todo, or ignored
    when a duel's Elimination puts it beyond the 1.0 window (seed 000, Victory & Defeat).
    """
    g, t = state["game"], turn(state)
    chooser = g.get("attacker") or Said("the players")
    result = dn.initiative_order(t["cards"], chooser)
    window = grace_from(state)
    current = None
    for row in result["order"]:
        row["key"] = f"{row['id']}@{row['initiative']}"
        row["reason"] = kept(row["reason"])  # drawn in each reader's words (templates: say)
        row["status"] = "done" if row["key"] in t["resolved"] else "todo"
        if row["status"] == "todo" and window:
            check = dn.grace_window(window, row["initiative"])
            if check["resolves"] is False:
                row["status"] = "ignored"
            elif check["resolves"] is None:
                row["players_decide"] = True
        if row["status"] == "todo" and current is None:
            current, row["status"] = row["key"], "current"
    for tie in result["attacker_choices"]:
        tie["chooser"] = kept(tie["chooser"])
    t["order"], t["ties"], t["current"] = result["order"], result["attacker_choices"], current


def grace_from(state: dict):
    """The initiative of a duel's first Elimination, if it happened while cards resolved."""
    g = state["game"]
    if g.get("mode") != "duel":
        return None
    for record in g.get("eliminations", []):
        if record.get("initiative") is not None and record.get("round") == state["round"]:
            return record["initiative"]
    return None


def current_row(state: dict):
    t = turn(state)
    return next((r for r in t["order"] if r["key"] == t["current"]), None)


def current_initiative(state: dict):
    """The initiative step being resolved now, if the resolver is walking one."""
    if phase_now(state) not in RESOLVING:
        return None
    row = current_row(state)
    return row["initiative"] if row else None


# --- Elimination ------------------------------------------------------------------------------

def eliminate(state: dict, uid: str, reasons: list[str], cause: str) -> str:
    """Record an Elimination; in multiplayer place wreck terrain and start (or feed) the timer."""
    g, t = state["game"], turn(state)
    data = g["ships"][uid]
    if data["eliminated"]:
        return ""
    record = {"ship": uid, "player": data["player"], "reasons": reasons, "cause": cause,
              "initiative": current_initiative(state), "round": state["round"], "by": None}
    data["eliminated"] = True   # the record itself lives once, in g["eliminations"] (no aliasing in state)
    data["pending_burn"] = []   # nothing left to burn on a ship that is gone
    g["eliminations"].append(record)
    words = joined(", ", [Said(REASON_WORDS[r]) if r in REASON_WORDS else r for r in reasons])
    if g["mode"] == "duel":
        if record["initiative"] is not None:
            refresh_order(state)
            return Said("%(player)s is Eliminated (%(reasons)s) at initiative %(initiative)s: cards within 1.0 "
                        "initiative steps still resolve, then the battle ends", player=data["player"], reasons=words,
                        initiative=record["initiative"])
        return Said("%(player)s is Eliminated (%(reasons)s): the battle ends", player=data["player"], reasons=words)
    parts = [Said("%(player)s is Eliminated (%(reasons)s)", player=data["player"], reasons=words)]
    # one player (or team) left: nothing is left to fight for (the end-battle button shows)
    g["last_standing"] = len({fleet_of(state, pl) for pl in remaining(state)}) <= 1
    # seed 000, Multiplayer, Player Elimination: terrain from how the ship went
    wreck = dn.wreck_terrain(t["damage"].get(uid, 0), t["burn"].get(uid, 0), cause)
    record["terrain"] = wreck["terrain"]
    parts.append(bare(wreck["summary"]))
    timer = g.get("timer")
    if not timer:
        fleets = list(dict.fromkeys(fleet_of(state, p) for p in remaining(state)))
        started = dn.fleet_arrival_start(fleets, teams=bool(g.get("teams")))
        parts.append(bare(started.pop("summary")))
        g["timer"] = {**started, "turn": state["round"], "arrived": False}
    else:
        fleet = fleet_of(state, data["player"])
        gone = all(g["ships"][g["ship_of"][p]]["eliminated"] for p in g["ship_of"] if fleet_of(state, p) == fleet)
        if gone and fleet in timer["tokens"] and fleet not in timer["lost"]:
            # seed 000, Fleet Arrival Effects: "if a ship is Eliminated before its Fleet arrives, that
            # Fleet will inflict no Damage or Card Burn"
            timer["lost"].append(fleet)
            parts.append(Said("%(fleet)s's Fleet will arrive without a Dreadnaught: no effect", fleet=fleet))
    return joined(". ", parts)


def elimination_of(state: dict, uid: str):
    return next((r for r in state["game"]["eliminations"] if r["ship"] == uid), None)


def timer_rules(g: dict) -> dict:
    """The running timer as the rules module takes it (the board's own keys left out)."""
    return {k: v for k, v in g["timer"].items() if k not in ("turn", "arrived")}


def move_tokens(state: dict, trigger: str, why: str, turn_no=None, **kw) -> str:
    """Move Fleet Tokens with the rules, store the timer and say where they went."""
    g = state["game"]
    before = dict(g["timer"]["tokens"])
    moved = dn.fleet_arrival_advance(timer_rules(g), trigger, **kw)
    moved.pop("summary")
    g["timer"] = {**moved, "turn": g["timer"]["turn"] if turn_no is None else turn_no, "arrived": False}
    spaces = dn.FLEET_TRIGGERS[trigger][0]
    changed = [f"{f} {pos}" for f, pos in moved["tokens"].items() if pos != before[f]]
    where = ", ".join(changed) or Said("already at 0")
    text = (Said("Fleet Tokens forward %(spaces)s (%(why)s): %(tokens)s", spaces=spaces, why=why, tokens=where)
            if len(changed) > 1 else
            Said("Fleet Token forward %(spaces)s (%(why)s): %(tokens)s", spaces=spaces, why=why, tokens=where))
    at_zero = [f for f, pos in moved["tokens"].items() if pos == 0 and before[f] != 0]
    if at_zero:
        text = joined(". ", (text, Said("%(fleets)s at 0: the game ends at the end of this turn, when the Fleet "
                                        "arrives (after initiative 0)", fleets=", ".join(at_zero))))
    return text


def fleet_trigger(state: dict, trigger: str, why: str) -> str:
    """Move every Fleet Token for a trigger, once the timer runs (seed 000: only after the first Elimination)."""
    timer = state["game"].get("timer")
    if not timer or timer.get("arrived"):
        return ""
    return move_tokens(state, trigger, why)
