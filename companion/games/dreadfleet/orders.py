"""Dreadfleet: an activated warship's Orders and Movement sub-phases (seed 002, Order Cards; Movement;
Wind Strength; Dropping Anchor; Escaping Jeopardy).  The books are kept by ``dreadfleet``; the
procedures are ``companion.games.dreadfleet.rules``'s.
"""
from __future__ import annotations

from companion.actions import action
from companion.games.dreadfleet.actions import (
    GAME, at_anchor, books, cards_on, current, dice_arg, first_mate, flag, hand, inches, is_auxiliary, luck, modifier_arg,
    need_captain, need_phase, now_stat, order_held, orders_out, reach_step, resolve_order, set_status, status_cards,
    status_on, turn, unit_at_sea, wind_strength,
)
from companion.games.dreadfleet.battle import lift_damage
from companion.rules import RuleError
from companion.games.dreadfleet import rules as df
from companion.trackers import deck as decks
from companion.trackers import need_int


# --- a: Orders (seed 002, Order Cards) -----------------------------------------------------------

def _order_check(state: dict, args: dict) -> tuple[dict, str]:
    unit = current(state, args.get("unit"), "Issuing an order")
    need_captain(unit, "issue orders")
    uid = unit["id"]
    if uid in turn(state)["ordered"]:
        raise RuleError(f"The {unit['name']} has already had its order this activation.", "order")
    reach_step(state, uid, 0, "Issuing an order")
    order = df._order_name(args.get("order") or "")
    if order not in hand(state, unit["side"]) and not order_held(state, uid, order):
        raise RuleError(f"{order} is not in {unit['side']}'s hand: it is on the "
                        f"{state['units'][orders_out(state, unit['side'])[order]]['name']}.", "order")
    return unit, order


@action("df-order", systems=GAME, chance=True)
def issue_order(state: dict, p: dict) -> str:
    """Issue one Order card to the activated warship with a Command check."""
    unit, order = _order_check(state, p)
    uid = unit["id"]
    turn(state)["ordered"][uid] = {"order": order, "issued": p["issued"]}
    held = books(state)["orders"].setdefault(unit["side"], {})
    if p["issued"]:
        # seed 002, Fire As She Bears: back in hand once "a new order has been issued to that warship"
        for other, entry in list(held.items()):
            if entry["unit"] == uid:
                del held[other]
        held[order] = {"unit": uid, "round": state["round"]}
    return f"{unit['name']}: {p['summary']}"


@issue_order.decider
def decide_issue_order(state: dict, args: dict, ctx) -> dict:
    unit, order = _order_check(state, args)
    uid = unit["id"]
    mate = first_mate(unit)
    in_irons = turn(state)["sail"].get(uid, {}).get("relation") == "in irons" or status_on(unit, "In Irons")
    anchored = at_anchor(state, uid)
    result = df.issue_order(order, unit["stats"]["command"], current_speed=now_stat(unit, "speed"),
                            in_irons=in_irons, at_anchor=anchored, first_mate=mate,
                            modifier=modifier_arg(args), dice=dice_arg(args, "order_dice"), rng=ctx.rng)
    odds = df.command_odds(unit["stats"]["command"], result["modifier"], mate,
                           reroll_allowed=order == "Repair" and anchored)
    return {**result, "unit": uid, "order": order, "dice": result["rolls"],
            "luck": luck(odds["p_pass"], int(result["passed"]), "Command checks passed")}


# --- b: Movement (seed 002, Movement; Wind Strength; Dropping Anchor; Escaping Jeopardy) -------

def _moving(state: dict, args: dict, what: str) -> dict:
    unit = current(state, args.get("unit"), what)
    reach_step(state, unit["id"], 1, what)
    return unit


@action("df-sail", systems=GAME, chance=True)
def sail(state: dict, p: dict) -> str:
    """How far the activated ship may and must move with the wind (in irons: a Command check)."""
    unit = _moving(state, p, "Checking the wind")
    now = turn(state)
    if unit["id"] in now["sail"]:
        raise RuleError(f"The wind for the {unit['name']} was already judged this Movement sub-phase.", "relation")
    now["sail"][unit["id"]] = {"relation": p["relation"], "min": p["min_inches"], "max": p["max_inches"]}
    return f"{unit['name']}: {p['summary']}"


@sail.decider
def decide_sail(state: dict, args: dict, ctx) -> dict:
    unit = _moving(state, args, "Checking the wind")
    if unit["id"] in turn(state)["sail"]:
        raise RuleError(f"The wind for the {unit['name']} was already judged this Movement sub-phase.", "relation")
    sail_class = bool(unit["stats"].get("sail"))
    result = df.sail_move_allowance(
        now_stat(unit, "speed"), wind_strength(state), args.get("relation") or "side", sail=sail_class,
        at_anchor=at_anchor(state, unit["id"]), command=unit["stats"].get("command"),
        first_mate=first_mate(unit), dice=dice_arg(args, "sail_dice"), rng=ctx.rng)
    check = result.get("command_check")
    return {**result, "unit": unit["id"], "dice": check["rolls"] if check else []}


@action("df-full-speed", systems=GAME, chance=True)
def full_speed(state: dict, p: dict) -> str:
    """Full Speed Ahead: after its other moves the warship must move 2D6" straight forwards."""
    unit = _fsa_check(state, p)
    resolve_order(state, unit["id"], "Full Speed Ahead")
    turn(state)["moved"].append(unit["id"])
    return f"{unit['name']}: {p['summary']}"


def _fsa_check(state: dict, args: dict) -> dict:
    unit = _moving(state, args, "Full Speed Ahead")
    if not order_held(state, unit["id"], "Full Speed Ahead"):
        raise RuleError(f"The {unit['name']} has no Full Speed Ahead order this activation.", "order")
    return unit


@full_speed.decider
def decide_full_speed(state: dict, args: dict, ctx) -> dict:
    unit = _fsa_check(state, args)
    in_irons = turn(state)["sail"].get(unit["id"], {}).get("relation") == "in irons"
    result = df.full_speed_ahead(now_stat(unit, "speed"), in_irons=in_irons,
                                 at_anchor=at_anchor(state, unit["id"]), dice=dice_arg(args, "fsa_dice"),
                                 rng=ctx.rng)
    return {**result, "unit": unit["id"], "luck": luck(7.0, result["inches"], "inches at Full Speed")}


def repairable(state: dict, uid: str) -> list[tuple[str, str]]:
    """(reference, name) of each card the Repair order may discard from this ship."""
    out = [(f"{deck_id}:{cid}", card["name"]) for deck_id, cid, card in cards_on(state, uid)
           if df.is_repairable(card)]
    if status_on(state["units"][uid], df.SET_ABLAZE):
        out.append((f"status:{df.SET_ABLAZE}", df.SET_ABLAZE))
    return out


@action("df-repair", systems=GAME)
def repair(state: dict, p: dict) -> str:
    """Repair: discard one Hull, Speed, Special, Crew or Set Ablaze card (never an Irreparable one)."""
    unit = unit_at_sea(state, p.get("unit"))
    uid = unit["id"]
    now = turn(state)
    if flag(p, "respite"):
        # seed 002, Fate: (BR) "immediately issue a free Repair order to one of his warships"
        need_phase(state, "Fate", "A brief respite")
        side = unit["side"]
        drawn = now["drawn"].get(side)
        if not drawn or not state["decks"]["fate"]["cards"][drawn].get("br"):
            raise RuleError(f"{side} has not drawn a (BR) Fate card this turn.", "respite")
        if side in now["respite"]:
            raise RuleError(f"{side} has already taken its brief respite this turn.", "respite")
        now["respite"].append(side)
        how = "brief respite"
    else:
        current(state, uid, "A Repair")
        if not order_held(state, uid, "Repair"):
            raise RuleError(f"The {unit['name']} has no Repair order this activation.", "order")
        # seed 002, Repair: "At the beginning of its Movement sub-phase"
        if uid in now["moved"] or uid in now["sail"]:
            raise RuleError("Repair comes at the beginning of the Movement sub-phase, before moving.", "card")
        reach_step(state, uid, 1, "Repair")
        resolve_order(state, uid, "Repair")
        how = "Repair order"
    ref = str(p.get("card") or "")
    deck_id, _, cid = ref.partition(":")
    if deck_id == "status" and cid == df.SET_ABLAZE and status_on(unit, df.SET_ABLAZE):
        entry = unit["trackers"]["status"]["active"][df.SET_ABLAZE]
        if (entry.get("count") or 1) > 1:
            entry["count"] -= 1
        else:
            set_status(unit, df.SET_ABLAZE, False)
        return f"{unit['name']} ({how}): one Set Ablaze card discarded"
    if deck_id not in state["decks"] or cid not in state["decks"][deck_id]["attached"].get(uid, []):
        raise RuleError(f"Choose one of the cards on the {unit['name']} to repair.", "card")
    card = state["decks"][deck_id]["cards"][cid]
    df.repair([card], 0)  # the rules module says whether this card may be repaired
    lift_damage(unit, card)
    decks.apply_steps(state["decks"][deck_id], [{"step": "move", "card": cid, "to": "discard"}])
    return f"{unit['name']} ({how}): {card['name']} discarded"


@action("df-anchor", systems=GAME)
def anchor(state: dict, p: dict) -> str:
    """Drop anchor within 2" of an island or wreck, or weigh anchor (not both in one turn)."""
    unit = _moving(state, p, "Dropping or weighing anchor")
    need_captain(unit, "drop anchor")
    uid = unit["id"]
    done = turn(state)["anchor"].get(uid)
    attached = status_cards(state, uid)
    if p.get("op") == "drop":
        df.drop_anchor(attached, inches(p, "distance", "The distance to the island or wreck"),
                       weighed_this_turn=done == "weigh")
        set_status(unit, df.AT_ANCHOR, True)
        turn(state)["anchor"][uid] = "drop"
        return f"{unit['name']} drops anchor {p['distance']}\" from the island or wreck"
    if p.get("op") == "weigh":
        df.weigh_anchor(attached, dropped_this_turn=done == "drop")
        set_status(unit, df.AT_ANCHOR, False)
        turn(state)["anchor"][uid] = "weigh"
        return f"{unit['name']} weighs anchor"
    raise RuleError("op must be drop or weigh.", "op")


@action("df-escape", systems=GAME, chance=True)
def escape(state: dict, p: dict) -> str:
    """Escape jeopardy instead of moving: Command check -1 per enemy in contact, then up to D3+1"."""
    unit = _escape_check(state, p)
    turn(state)["moved"].append(unit["id"])
    return f"{unit['name']}: {p['summary']}"


def _escape_check(state: dict, args: dict) -> dict:
    unit = _moving(state, args, "Escaping jeopardy")
    now = turn(state)
    if unit["id"] in now["moved"] or unit["id"] in now["sail"]:
        raise RuleError("Escaping jeopardy replaces the Movement sub-phase: this ship has already moved.", "unit")
    return unit


@escape.decider
def decide_escape(state: dict, args: dict, ctx) -> dict:
    unit = _escape_check(state, args)
    dice = dice_arg(args, "escape_dice")
    move = dice_arg(args, "move_dice", 3)
    result = df.escape_jeopardy(unit["stats"].get("command", df.FIRST_MATE_COMMAND),
                                need_int(args, "enemies", 0, 20, default=0), at_anchor=at_anchor(state, unit["id"]),
                                auxiliary=is_auxiliary(unit), first_mate=first_mate(unit), dice=dice,
                                move_dice=move, rng=None if dice is not None else ctx.rng)
    if result.get("awaiting"):
        raise RuleError("Passed: now enter the D3 rolled for the escape move.", "move_dice")
    return {**result, "unit": unit["id"], "dice": result["check"]["rolls"] + ([result["d3"]] if result["d3"] else [])}
