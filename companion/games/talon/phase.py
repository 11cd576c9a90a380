"""The round's phase hook: whose turn, expiring reinforcements, initiative changes, the Power Phase's
red boxes.

Rulebook 3.1/3.2 via TALON.md section 3: each impulse is the Initiative Player's turn then the Second
Player's; a turn starts by removing that player's Shield Reinforcement markers that expire this impulse;
after both turns the initiative changes if the second side's Change Initiative markers exceed the
initiative side's Defend markers (FAN model/PlayerTurn.js, FAN's reading).  Power Phase: seed 003 5.1/5.4.
"""
from __future__ import annotations

from companion.games.talon import state as books
from companion.games.talon.rules import chart, counter, weapons
from companion.said import Said, joined


def _settle_initiative(state: dict, key: str) -> list[str]:
    g = books.game(state)
    bid = g["bids"].get(key)
    if not bid:
        return []
    first = g["initiative"]
    second = books.other_side(state, first)
    change = bid.get(second, {}).get("change", 0)
    defend = bid.get(first, {}).get("defend", 0)
    if change > defend:
        g["initiative"] = second
        return [Said("Initiative changes: %(second)s (%(change)s Change) over %(first)s (%(defend)s Defend).",
                     second=second, change=change, first=first, defend=defend)]
    return [Said("%(first)s keeps the initiative (%(change)s Change, %(defend)s Defend).", first=first, change=change,
                 defend=defend)]


def on_phase(state: dict) -> list[str]:
    """Runs inside next-phase (and at table creation): the start of a player turn or of the Power Phase."""
    books.game(state)  # not read here, but it puts the game's defaults (initiative, bids) in a new table's state
    out: list[str] = []
    name = state["phases"][state["phase"]]
    letter, half = chart.where(name)
    # the impulse that just ended (both turns done): settle its initiative markers
    if half == 0 or name == chart.POWER_PHASE:
        if name == chart.POWER_PHASE:
            ended = chart.impulse_key(state["round"], "F")
        elif letter == "A":
            ended = None  # impulse F was settled as the Power Phase began
        else:
            ended = chart.impulse_key(state["round"], chart.IMPULSES[chart.IMPULSES.index(letter) - 1])
        if ended:
            out += _settle_initiative(state, ended)
    if letter:
        side = books.turn_side(state)
        state["active_side"] = side
        for _uid, unit, ship in books.ships(state):
            if unit["side"] != side:
                continue
            marker = [a for a, m in ship["reinforced"].items() if m["letter"] == letter and m["round"] < state["round"]]
            for arc in marker:
                del ship["reinforced"][arc]
                out.append(Said("%(unit)s: %(arc)s Shield Reinforcement expires (placed in impulse %(letter)s last round).",
                                unit=unit["name"], arc=counter.ARC_NAMES[arc], letter=letter))
            if not ship["destroyed"]:
                todo = []
                if counter.ap_now(ship, letter):
                    todo.append(Said("1 AP"))
                if counter.moves_now(ship, letter):
                    todo.append(Said("moves"))
                if ship["pending"]:
                    todo.append(Said("%(n)s critical rolls waiting", n=ship["pending"]) if ship["pending"] > 1
                                else Said("%(n)s critical roll waiting", n=ship["pending"]))
                if todo:
                    out.append(Said("%(unit)s: %(todo)s.", unit=unit["name"], todo=joined(", ", todo)))
    else:
        state["active_side"] = None
        for _uid, unit, ship in books.ships(state):
            if ship["destroyed"]:
                continue
            charged = sum(weapons.charge_red(gr) for gr in ship["groups"])
            if charged:
                out.append(Said("%(unit)s: %(n)s red boxes charged.", unit=unit["name"], n=charged) if charged > 1
                           else Said("%(unit)s: %(n)s red box charged.", unit=unit["name"], n=charged))
            if counter.power(ship) < 0:
                safe = [r for r in counter.safe_rows(ship) if abs(r - ship["row"]) <= 1]
                out.append(Said("%(unit)s: Power %(power)s is negative: slow to a safe row now.", unit=unit["name"],
                                power=counter.power(ship)) if safe else
                           Said("%(unit)s: Power %(power)s is negative: no safe row within one step: it overheats and "
                                "breaks apart (TT#17).", unit=unit["name"], power=counter.power(ship)))
        out.append(Said("Reinforcements placed this round expire when their impulse letter comes round again."))
        if any(ship["afterburners_used"] for _uid, _unit, ship in books.ships(state)):
            out.append(Said("Afterburners used: when they refresh is in your rulebook (not in our sources); "
                            "restore them on the ship's counter if it says so."))
    return out
