"""The round: the phase hook (whose turn, expiring reinforcements, initiative changes, the Power Phase's
red boxes) and the table's own numbers (initiative, reinforcement points, repair roll, points).

Rulebook 3.1/3.2 via TALON.md section 3: each impulse is the Initiative Player's turn then the Second
Player's; a turn starts by removing that player's Shield Reinforcement markers that expire this impulse;
after both turns the initiative changes if the second side's Change Initiative markers exceed the
initiative side's Defend markers (FAN model/PlayerTurn.js, FAN's reading).  Power Phase: seed 003 5.1/5.4.
"""
from __future__ import annotations

from companion.actions import action, entered_int
from companion.errors import RuleError
from companion.games.talon import books
from companion.games.talon.rules import chart, counter, weapons
from companion.schema import Either, Int, Ref, Text

GAME = {"talon"}


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
        return [f"Initiative changes: {second} ({change} Change) over {first} ({defend} Defend)."]
    return [f"{first} keeps the initiative ({change} Change, {defend} Defend)."]


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
                out.append(f"{unit['name']}: {counter.ARC_NAMES[arc]} Shield Reinforcement expires (placed in "
                           f"impulse {letter} last round).")
            if not ship["destroyed"]:
                todo = []
                if counter.ap_now(ship, letter):
                    todo.append("1 AP")
                if counter.moves_now(ship, letter):
                    todo.append("moves")
                if ship["pending"]:
                    todo.append(f"{ship['pending']} critical roll{'s' if ship['pending'] > 1 else ''} waiting")
                if todo:
                    out.append(f"{unit['name']}: {', '.join(todo)}.")
    else:
        state["active_side"] = None
        for _uid, unit, ship in books.ships(state):
            if ship["destroyed"]:
                continue
            charged = sum(weapons.charge_red(gr) for gr in ship["groups"])
            if charged:
                out.append(f"{unit['name']}: {charged} red box{'es' if charged > 1 else ''} charged.")
            if counter.power(ship) < 0:
                safe = [r for r in counter.safe_rows(ship) if abs(r - ship["row"]) <= 1]
                out.append(f"{unit['name']}: Power {counter.power(ship)} is negative: "
                           + ("slow to a safe row now." if safe else "no safe row within one step: it overheats and "
                              "breaks apart (TT#17)."))
        out.append("Reinforcements placed this round expire when their impulse letter comes round again.")
        if any(ship["afterburners_used"] for _, _, ship in books.ships(state)):
            out.append("Afterburners used: when they refresh is in your rulebook (not in our sources); "
                       "restore them on the ship's counter if it says so.")
    return out


@action("talon-initiative", systems=GAME, fields={"side": Ref("side")})
def set_initiative(state: dict, p: dict) -> str:
    """Say which side has the initiative (scenario start; Talon by default)."""
    side = p.get("side")
    if side not in state["sides"][:2]:
        raise RuleError(f"side must be one of {', '.join(state['sides'][:2])}.", "side")
    g = books.game(state)
    if g["initiative"] == side:
        raise RuleError(f"{side} already has the initiative.", "side")
    g["initiative"] = side
    if books.now(state)[0]:
        state["active_side"] = books.turn_side(state)
    return f"{side} has the initiative"


@action("talon-rules", systems=GAME, fields={
    "what": Text(40), "value": Either(Int(0, 20, plain=True), Text(60), doc="a number, or a weapon's hit row: 0 0 0 1 1 1"),
    "weapon": Text(40), "range": Int(1, 9, plain=True)})
def set_rules(state: dict, p: dict) -> str:
    """Enter a number from your rulebook: reinforcement points, repair roll, or a weapon table row."""
    g = books.game(state)
    what = p.get("what")
    if what == "reinforce":
        g["rules"]["reinforce"] = entered_int(p, "value")
        return f"Shield Reinforcement absorbs {g['rules']['reinforce']} (rulebook 6.2)"
    if what == "repair_on":
        g["rules"]["repair_on"] = entered_int(p, "value", lo=1, hi=6)
        return f"Repairs succeed on {g['rules']['repair_on']}+"
    if what == "weapon":
        tables = g.get("weapons")
        if not tables:
            raise RuleError("Put a ship on the table first: the weapon tables come with it.", "weapon")
        weapon = p.get("weapon")
        if weapon not in tables or "damage" not in tables[weapon]:
            raise RuleError("Choose a weapon with a damage table.", "weapon")
        distance = entered_int(p, "range")
        raw = str(p.get("value", "")).replace(",", " ").split()
        if len(raw) != 6 or not all(v.isdigit() and int(v) <= 30 for v in raw):
            raise RuleError("Enter six damages, for rolls 1 to 6 (like 0 0 0 0 2 2).", "value")
        tables[weapon]["damage"][str(distance)] = [int(v) for v in raw]
        return f"{tables[weapon]['name']} at range {distance}: {weapons.hit_numbers(tables, weapon, distance)}"
    raise RuleError("what must be reinforce, repair_on or weapon.", "what")


@action("talon-points", systems=GAME, fields={
    "side": Ref("side"), "points": Int(-999, 999, plain=True), "why": Text(200)})
def add_points(state: dict, p: dict) -> str:
    """Add scenario points to a side (victory levels are not public: enter your scenario's)."""
    side = p.get("side")
    if side not in state["sides"][:2]:
        raise RuleError(f"side must be one of {', '.join(state['sides'][:2])}.", "side")
    points = entered_int(p, "points")
    if not points:
        raise RuleError("points must not be 0.", "points")
    why = " ".join(str(p.get("why") or "").split())[:60]
    books.game(state)["points"].append({"side": side, "points": points, "why": why})
    return f"{side} {points:+d} points" + (f" ({why})" if why else "")


set_initiative.decider(books.keep("side"))
set_rules.decider(books.keep("what", "value", "weapon", "range"))
add_points.decider(books.keep("side", "points", "why"))
