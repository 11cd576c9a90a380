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
from companion.said import N_, Said, _
from companion.schema import Flag, Int, Ref, Scalar, Text

GAME = {"talon"}
USES = ("yellow", "reinforce", "sideslip", "turn", "battery", "change", "defend",
        "redirect",  # rule 13.7 (TALON.md 2)
        "fighters")  # rule 12.2.2 (TALON.md 2)
# what the log says a use without details did (the others say it where they happen)
DONE = {
    "sideslip": N_("%(unit)s enables a sideslip"),
    "battery": N_("%(unit)s charges its battery"),
    "change": N_("%(unit)s plays Change Initiative"),
    "defend": N_("%(unit)s plays Defend Initiative"),
}


@action("talon-ap", systems=GAME, fields={"unit": Ref("unit"), "use": Text(40), "pay": Text(20), "group": Int(1, 99, plain=True),
    "arc": Text(20), "missile": Scalar(20, "Redirect Missile: the missile token"),
    "new_target": Ref("target", "Redirect Missile: the missile's new target"),
    "new_arc": Text(20, "Redirect Missile: the new target's arc facing the missile", choices=counter.ARCS),
    "fighters": Ref("fighter squadron", "Transmit Power to Fighters: the squadron that receives it")})
def spend_ap(state: dict, p: dict) -> str:
    """Spend the ship's 1 AP this impulse (or a charged battery) on one use."""
    unit, ship = books.live_ship(state, p.get("unit"))
    letter, key = books.need_own_turn(state, unit, N_("Spending AP"))
    use = p.get("use")
    if use not in USES:
        raise RuleError(_("use must be one of %(uses)s.", uses=", ".join(USES)), "use")
    if ship["ap_used"] == key:
        raise RuleError(_("%(unit)s has already spent its AP this impulse (never more than 1 AP per impulse).",
                          unit=unit["name"]), "use")
    has_ap = counter.ap_now(ship, letter)
    pay = p.get("pay") or "ap"
    if pay == "battery":
        if has_ap:
            raise RuleError(_("%(unit)s gets AP in impulse %(letter)s: spend that, not the battery.", unit=unit["name"],
                              letter=letter), "pay")
        if not ship["battery_on"]:
            raise RuleError(_("%(unit)s has no charged battery.", unit=unit["name"]), "pay")
        if use == "battery":
            raise RuleError(_("A battery cannot charge itself."), "use")
    elif pay == "ap":
        if not has_ap:
            raise RuleError(_("%(unit)s gets no AP in impulse %(letter)s (Power %(power)s).", unit=unit["name"],
                              letter=letter, power=counter.power(ship)), "use")
    else:
        raise RuleError(_("pay must be ap or battery."), "pay")
    g = books.game(state)
    done = Said(DONE[use], unit=unit["name"]) if use in DONE else None
    if use == "yellow":
        index = entered_int(p, "group", lo=1, hi=max(1, len(ship["groups"]))) - 1
        if not ship["groups"]:
            raise RuleError(_("%(unit)s has no weapon groups.", unit=unit["name"]), "group")
        weapons.charge_yellow(ship["groups"][index])
        group = ship["groups"][index]
        done = Said("%(unit)s charges a yellow box of group %(n)s (%(on)s/%(of)s)", unit=unit["name"], n=index + 1,
                    on=group["yellow_on"], of=group["yellow"])
    elif use == "reinforce":
        arc = p.get("arc")
        if arc not in counter.ARCS:
            raise RuleError(_("arc must be one of %(arcs)s.", arcs=", ".join(counter.ARCS)), "arc")
        if arc in ship["reinforced"]:
            raise RuleError(_("The %(arc)s shield is already reinforced.", arc=counter.ARC_NAMES[arc]), "arc")
        # expires when this impulse letter comes round again (rulebook 3.2 step 1; PBF "expiring next F")
        ship["reinforced"][arc] = {"letter": letter, "round": state["round"], "used": 0}
        done = Said("%(unit)s reinforces its shield (%(arc)s, until impulse %(letter)s next round)", unit=unit["name"],
                    arc=counter.ARC_NAMES[arc], letter=letter)
    elif use == "sideslip":
        if ship["sideslip"]:
            raise RuleError(_("%(unit)s already has a sideslip ready.", unit=unit["name"]), "use")
        ship["sideslip"] = key  # castaliahouse: not paid in the impulse it is executed
    elif use == "turn":
        if ship["turn_wait"] <= 0:
            raise RuleError(_("%(unit)s is free to turn already.", unit=unit["name"]), "use")
        ship["turn_wait"] -= 1  # FAN PowerFunction POWER_THROUGH_TURN: turn radius counter -1
        done = (Said("%(unit)s powers through its turn (%(n)s straight hex to go)", unit=unit["name"], n=ship["turn_wait"])
                if ship["turn_wait"] == 1 else
                Said("%(unit)s powers through its turn (%(n)s straight hexes to go)", unit=unit["name"],
                     n=ship["turn_wait"]))
    elif use == "battery":
        if not ship["battery"]:
            raise RuleError(_("%(unit)s has no battery.", unit=unit["name"]), "use")
        if ship["battery_on"] >= ship["battery"]:
            raise RuleError(_("%(unit)s's battery is already charged.", unit=unit["name"]), "use")
        ship["battery_on"] += 1
    elif use == "redirect":
        done = redirect_missile(state, unit, ship, p)
    elif use == "fighters":
        done = transmit_power(state, unit, ship, p)
    else:
        first = g["initiative"]
        if use == "change" and unit["side"] == first:
            raise RuleError(_("%(side)s has the initiative: it can defend it, not change it.", side=first), "use")
        if use == "defend" and unit["side"] != first:
            raise RuleError(_("%(side)s does not have the initiative to defend.", side=unit["side"]), "use")
        bid = g["bids"].setdefault(key, {}).setdefault(unit["side"], {"change": 0, "defend": 0})
        bid[use] += 1
    if pay == "battery":
        ship["battery_on"] -= 1
    ship["ap_used"] = key
    return Said("%(done)s with its battery", done=done) if pay == "battery" else Said("%(done)s (1 AP)", done=done)


@action("talon-move", systems=GAME, fields={"unit": Ref("unit"), "how": Text(40), "afterburner": Flag()})
def move(state: dict, p: dict) -> str:
    """Move the ship one hex this impulse: straight, turn or sideslip (afterburner if not scheduled)."""
    unit, ship = books.live_ship(state, p.get("unit"))
    letter, key = books.need_own_turn(state, unit, N_("Movement"))
    how = p.get("how")
    if how not in ("straight", "turn", "sideslip"):
        raise RuleError(_("how must be straight, turn or sideslip."), "how")
    if ship["moved"] == key:
        raise RuleError(_("%(unit)s has already moved this impulse (at most one hex per impulse).", unit=unit["name"]),
                        "how")
    scheduled = counter.moves_now(ship, letter)
    burner = p.get("afterburner", False)
    if burner:
        if scheduled:
            raise RuleError(_("%(unit)s moves in impulse %(letter)s anyway: no afterburner needed.", unit=unit["name"],
                              letter=letter), "how")
        if ship["afterburners_used"] >= ship["afterburners"]:
            raise RuleError(_("%(unit)s has no afterburner left.", unit=unit["name"]), "how")
    elif not scheduled:
        raise RuleError(_("%(unit)s does not move in impulse %(letter)s (Speed %(speed)s).", unit=unit["name"],
                          letter=letter, speed=counter.speed(ship)), "how")
    radius = counter.turn_radius(ship)
    down = ship["crits"]["helm_down"] is not None
    if how == "turn":
        if down:
            raise RuleError(_("%(unit)s's helm is down: it must move straight (critical 4).", unit=unit["name"]), "how")
        if radius is None:
            raise RuleError(_("%(unit)s has no turn radius on its curve.", unit=unit["name"]), "how")
        if ship["turn_wait"] > 1:
            raise RuleError(_("%(unit)s must move %(n)s more hexes straight before it can turn.", unit=unit["name"],
                              n=ship["turn_wait"]), "how")
        if ship["turn_wait"] > 0:
            raise RuleError(_("%(unit)s must move %(n)s more hex straight before it can turn.", unit=unit["name"],
                              n=ship["turn_wait"]), "how")
        ship["turn_wait"] = radius  # seed 003 5.1: hexes straight after turning before turning again
        text = Said("%(unit)s turns (%(n)s straight before the next turn)", unit=unit["name"], n=radius)
    elif how == "sideslip":
        if down:
            raise RuleError(_("%(unit)s's helm is down: no sideslips (critical 4).", unit=unit["name"]), "how")
        if not ship["sideslip"]:
            raise RuleError(_("%(unit)s has no sideslip enabled (1 AP).", unit=unit["name"]), "how")
        if ship["sideslip"] == key:
            raise RuleError(_("A sideslip paid for this impulse is used in a later impulse."), "how")
        ship["sideslip"] = False
        # our decision: a sideslip keeps the facing and counts as a hex moved without turning
        ship["turn_wait"] = max(0, ship["turn_wait"] - 1)
        text = Said("%(unit)s sideslips", unit=unit["name"])
    else:
        ship["turn_wait"] = max(0, ship["turn_wait"] - 1)
        text = (Said("%(unit)s moves straight (%(n)s to go before a turn)", unit=unit["name"], n=ship["turn_wait"])
                if ship["turn_wait"] else Said("%(unit)s moves straight", unit=unit["name"]))
    if burner:
        ship["afterburners_used"] += 1
        text = Said("%(move)s on an afterburner (%(left)s left)", move=text,
                    left=ship["afterburners"] - ship["afterburners_used"])
    ship["moved"] = key
    return text


@spend_ap.decider
def decide_ap(state: dict, args: dict, ctx) -> dict:
    """Only the use's own fields (a ship card's form sends all of its inputs)."""
    extra = {"redirect": ("missile", "new_target", "new_arc"), "fighters": ("fighters",)}.get(args.get("use"), ())
    return books.keep("unit", "use", "group", "arc", "pay", *extra)(state, args, ctx)
move.decider(books.keep("unit", "how", "afterburner"))
