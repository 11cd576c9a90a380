"""An impulse, ship by ship: spend Available Power (one AP at most), move one hex (straight, turn,
sideslip), batteries and afterburners.

Sources (TALON.md sections 1-3): one AP per impulse at most (TT#18 "You can never spend more than 1 AP
per Impulse or move more than 1 hex per Impulse"); AP uses and their rule numbers (FAN PowerOption /
PhaseFunction, corroborated by rulebook 3.2 markers, TT#2, TT#3, TT#7, TT#11, PBF); battery spent as AP
in an impulse without AP (BGA help 1.1.2, TT#3, TT#7); afterburner to move in an impulse without movement
(TT#3, TT#22, PBF); turn radius (seed 003 5.1); helm down: no turns, no sideslips (PAC 4).
"""
from __future__ import annotations

from companion.actions import action, entered_int
from companion.errors import RuleError
from companion.games.talon import state as books
from companion.games.talon.actions.missile_and_fighter_ap import redirect_missile, transmit_power
from companion.games.talon.rules import counter, weapons
from companion.schema import Flag, Int, Ref, Scalar, Text

GAME = {"talon"}
USES = {
    "yellow": "charges a yellow box",
    "reinforce": "reinforces its shield",
    "sideslip": "enables a sideslip",
    "turn": "powers through its turn",
    "battery": "charges its battery",
    "change": "plays Change Initiative",
    "defend": "plays Defend Initiative",
    "redirect": "redirects missile",  # rule 13.7 (TALON.md 2)
    "fighters": "transmits power",  # rule 12.2.2 (TALON.md 2)
}


@action("talon-ap", systems=GAME, fields={"unit": Ref("unit"), "use": Text(40), "pay": Text(20), "group": Int(1, 99, plain=True),
    "arc": Text(20), "missile": Scalar(20, "Redirect Missile: the missile token"),
    "new_target": Ref("target", "Redirect Missile: the missile's new target"),
    "new_arc": Text(20, "Redirect Missile: the new target's arc facing the missile", choices=counter.ARCS),
    "fighters": Ref("fighter squadron", "Transmit Power to Fighters: the squadron that receives it")})
def spend_ap(state: dict, p: dict) -> str:
    """Spend the ship's 1 AP this impulse (or a charged battery) on one use."""
    unit, ship = books.live_ship(state, p.get("unit"))
    letter, key = books.need_own_turn(state, unit, "Spending AP")
    use = p.get("use")
    if use not in USES:
        raise RuleError(f"use must be one of {', '.join(USES)}.", "use")
    if ship["ap_used"] == key:
        raise RuleError(f"{unit['name']} has already spent its AP this impulse (never more than 1 AP per impulse).",
                        "use")
    has_ap = counter.ap_now(ship, letter)
    pay = p.get("pay") or "ap"
    if pay == "battery":
        if has_ap:
            raise RuleError(f"{unit['name']} gets AP in impulse {letter}: spend that, not the battery.", "pay")
        if not ship["battery_on"]:
            raise RuleError(f"{unit['name']} has no charged battery.", "pay")
        if use == "battery":
            raise RuleError("A battery cannot charge itself.", "use")
    elif pay == "ap":
        if not has_ap:
            raise RuleError(f"{unit['name']} gets no AP in impulse {letter} (Power {counter.power(ship)}).", "use")
    else:
        raise RuleError("pay must be ap or battery.", "pay")
    g = books.game(state)
    detail = ""
    if use == "yellow":
        index = entered_int(p, "group", lo=1, hi=max(1, len(ship["groups"]))) - 1
        if not ship["groups"]:
            raise RuleError(f"{unit['name']} has no weapon groups.", "group")
        weapons.charge_yellow(ship["groups"][index])
        group = ship["groups"][index]
        detail = f" of group {index + 1} ({group['yellow_on']}/{group['yellow']})"
    elif use == "reinforce":
        arc = p.get("arc")
        if arc not in counter.ARCS:
            raise RuleError(f"arc must be one of {', '.join(counter.ARCS)}.", "arc")
        if arc in ship["reinforced"]:
            raise RuleError(f"The {counter.ARC_NAMES[arc]} shield is already reinforced.", "arc")
        # expires when this impulse letter comes round again (rulebook 3.2 step 1; PBF "expiring next F")
        ship["reinforced"][arc] = {"letter": letter, "round": state["round"], "used": 0}
        detail = f" ({counter.ARC_NAMES[arc]}, until impulse {letter} next round)"
    elif use == "sideslip":
        if ship["sideslip"]:
            raise RuleError(f"{unit['name']} already has a sideslip ready.", "use")
        ship["sideslip"] = key  # castaliahouse: not paid in the impulse it is executed
    elif use == "turn":
        if ship["turn_wait"] <= 0:
            raise RuleError(f"{unit['name']} is free to turn already.", "use")
        ship["turn_wait"] -= 1  # FAN PowerFunction POWER_THROUGH_TURN: turn radius counter -1
        detail = f" ({ship['turn_wait']} straight hex{'es' if ship['turn_wait'] != 1 else ''} to go)"
    elif use == "battery":
        if not ship["battery"]:
            raise RuleError(f"{unit['name']} has no battery.", "use")
        if ship["battery_on"] >= ship["battery"]:
            raise RuleError(f"{unit['name']}'s battery is already charged.", "use")
        ship["battery_on"] += 1
    elif use == "redirect":
        detail = redirect_missile(state, unit, ship, p)
    elif use == "fighters":
        detail = transmit_power(state, unit, ship, p)
    else:
        first = g["initiative"]
        if use == "change" and unit["side"] == first:
            raise RuleError(f"{first} has the initiative: it can defend it, not change it.", "use")
        if use == "defend" and unit["side"] != first:
            raise RuleError(f"{unit['side']} does not have the initiative to defend.", "use")
        bid = g["bids"].setdefault(key, {}).setdefault(unit["side"], {"change": 0, "defend": 0})
        bid[use] += 1
    if pay == "battery":
        ship["battery_on"] -= 1
    ship["ap_used"] = key
    return f"{unit['name']} {USES[use]}{detail}" + (" with its battery" if pay == "battery" else " (1 AP)")


@action("talon-move", systems=GAME, fields={"unit": Ref("unit"), "how": Text(40), "afterburner": Flag()})
def move(state: dict, p: dict) -> str:
    """Move the ship one hex this impulse: straight, turn or sideslip (afterburner if not scheduled)."""
    unit, ship = books.live_ship(state, p.get("unit"))
    letter, key = books.need_own_turn(state, unit, "Movement")
    how = p.get("how")
    if how not in ("straight", "turn", "sideslip"):
        raise RuleError("how must be straight, turn or sideslip.", "how")
    if ship["moved"] == key:
        raise RuleError(f"{unit['name']} has already moved this impulse (at most one hex per impulse).", "how")
    scheduled = counter.moves_now(ship, letter)
    burner = p.get("afterburner", False)
    if burner:
        if scheduled:
            raise RuleError(f"{unit['name']} moves in impulse {letter} anyway: no afterburner needed.", "how")
        if ship["afterburners_used"] >= ship["afterburners"]:
            raise RuleError(f"{unit['name']} has no afterburner left.", "how")
    elif not scheduled:
        raise RuleError(f"{unit['name']} does not move in impulse {letter} (Speed {counter.speed(ship)}).", "how")
    radius = counter.turn_radius(ship)
    down = ship["crits"]["helm_down"] is not None
    if how == "turn":
        if down:
            raise RuleError(f"{unit['name']}'s helm is down: it must move straight (critical 4).", "how")
        if radius is None:
            raise RuleError(f"{unit['name']} has no turn radius on its curve.", "how")
        if ship["turn_wait"] > 0:
            raise RuleError(f"{unit['name']} must move {ship['turn_wait']} more hex{'es' if ship['turn_wait'] > 1 else ''}"
                            " straight before it can turn.", "how")
        ship["turn_wait"] = radius  # seed 003 5.1: hexes straight after turning before turning again
        text = f"turns ({radius} straight before the next turn)"
    elif how == "sideslip":
        if down:
            raise RuleError(f"{unit['name']}'s helm is down: no sideslips (critical 4).", "how")
        if not ship["sideslip"]:
            raise RuleError(f"{unit['name']} has no sideslip enabled (1 AP).", "how")
        if ship["sideslip"] == key:
            raise RuleError("A sideslip paid for this impulse is used in a later impulse.", "how")
        ship["sideslip"] = False
        # our decision: a sideslip keeps the facing and counts as a hex moved without turning
        ship["turn_wait"] = max(0, ship["turn_wait"] - 1)
        text = "sideslips"
    else:
        ship["turn_wait"] = max(0, ship["turn_wait"] - 1)
        text = "moves straight" + (f" ({ship['turn_wait']} to go before a turn)" if ship["turn_wait"] else "")
    if burner:
        ship["afterburners_used"] += 1
        text += f" on an afterburner ({ship['afterburners'] - ship['afterburners_used']} left)"
    ship["moved"] = key
    return f"{unit['name']} {text}"


@spend_ap.decider
def decide_ap(state: dict, args: dict, ctx) -> dict:
    """Only the use's own fields (a ship card's form sends all of its inputs)."""
    extra = {"redirect": ("missile", "new_target", "new_arc"), "fighters": ("fighters",)}.get(args.get("use"), ())
    return books.keep("unit", "use", "group", "arc", "pay", *extra)(state, args, ctx)
move.decider(books.keep("unit", "how", "afterburner"))
