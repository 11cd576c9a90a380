"""The Orders sub-phase (seed 002, Order Cards): an order issued with a Command check, and the Repair
order (or a brief respite) that discards a card at the start of the Movement sub-phase."""
from __future__ import annotations

from companion.actions import action, in_phase
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.damage import lift_damage
from companion.games.dreadfleet.actions.entries import luck
from companion.games.dreadfleet.state import (
    GAME,
    at_anchor,
    books,
    cards_on,
    current,
    first_mate,
    hand,
    need_captain,
    now_stat,
    order_held,
    orders_out,
    reach_step,
    resolve_order,
    retold,
    set_status,
    status_on,
    turn,
    unit_at_sea,
)
from companion.said import N_, Said, _
from companion.schema import Dice, Flag, Int, Ref, Text
from companion.trackers import deck as decks

ISSUING, REPAIR = N_("Issuing an order"), N_("Repair")


def _order_check(state: dict, args: dict) -> tuple[dict, str]:
    unit = current(state, args.get("unit"), ISSUING)
    need_captain(unit, "issue orders")
    uid = unit["id"]
    if uid in turn(state)["ordered"]:
        raise RuleError(_("The %(unit)s has already had its order this activation.", unit=unit["name"]), "order")
    reach_step(state, uid, 0, ISSUING)
    order = df._order_name(args.get("order") or "")
    if order not in hand(state, unit["side"]) and not order_held(state, uid, order):
        raise RuleError(_("%(order)s is not in %(side)s's hand: it is on the %(unit)s.", order=order, side=unit["side"],
                          unit=state["units"][orders_out(state, unit["side"])[order]]["name"]), "order")
    return unit, order


@action("df-order", systems=GAME, chance=True, fields={
    "unit": Ref("unit"), "order": Text(60), "modifier": Int(-6, 6), "order_dice": Dice(6, 60)})
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
    return Said("%(unit)s: %(summary)s", unit=unit["name"], summary=retold(p["summary"], lambda: df.order_summary(p)))


@issue_order.decider
def decide_issue_order(state: dict, args: dict, ctx) -> dict:
    unit, order = _order_check(state, args)
    uid = unit["id"]
    mate = first_mate(unit)
    in_irons = turn(state)["sail"].get(uid, {}).get("relation") == "in irons" or status_on(unit, "In Irons")
    anchored = at_anchor(state, uid)
    result = df.issue_order(order, unit["stats"]["command"], current_speed=now_stat(unit, "speed"),
                            in_irons=in_irons, at_anchor=anchored, first_mate=mate,
                            modifier=args.get("modifier", 0), dice=args.get("order_dice"), rng=ctx.rng)
    odds = df.command_odds(unit["stats"]["command"], result["modifier"], mate,
                           reroll_allowed=order == "Repair" and anchored)
    return {**result, "unit": uid, "order": order, "dice": result["rolls"],
            "luck": luck(odds["p_pass"], int(result["passed"]), N_("Command checks passed"))}


def repairable(state: dict, uid: str) -> list[tuple[str, str]]:
    """(reference, name) of each card the Repair order may discard from this ship."""
    out = [(f"{deck_id}:{cid}", card["name"]) for deck_id, cid, card in cards_on(state, uid)
           if df.is_repairable(card)]
    if status_on(state["units"][uid], df.SET_ABLAZE):
        out.append((f"status:{df.SET_ABLAZE}", df.SET_ABLAZE))
    return out


@action("df-repair", systems=GAME, fields={"unit": Ref("unit"), "card": Ref("card"), "respite": Flag()})
def repair(state: dict, p: dict) -> str:
    """Repair: discard one Hull, Speed, Special, Crew or Set Ablaze card (never an Irreparable one)."""
    unit = unit_at_sea(state, p.get("unit"))
    uid = unit["id"]
    now = turn(state)
    if p.get("respite", False):
        # seed 002, Fate: (BR) "immediately issue a free Repair order to one of his warships"
        in_phase(state, "Fate", N_("A brief respite"))
        side = unit["side"]
        # the card drawn this turn may be gone: a Fate deck loaded again since has other cards
        drawn = state["decks"]["fate"]["cards"].get(now["drawn"].get(side) or "")
        if not drawn or not drawn.get("br"):
            raise RuleError(_("%(side)s has not drawn a (BR) Fate card this turn.", side=side), "respite")
        if side in now["respite"]:
            raise RuleError(_("%(side)s has already taken its brief respite this turn.", side=side), "respite")
        now["respite"].append(side)
        how = Said("brief respite")
    else:
        current(state, uid, N_("A Repair"))
        if not order_held(state, uid, "Repair"):
            raise RuleError(_("The %(unit)s has no Repair order this activation.", unit=unit["name"]), "order")
        # seed 002, Repair: "At the beginning of its Movement sub-phase"
        if uid in now["moved"] or uid in now["sail"]:
            raise RuleError(_("Repair comes at the beginning of the Movement sub-phase, before moving."), "card")
        reach_step(state, uid, 1, REPAIR)
        resolve_order(state, uid, "Repair")
        how = Said("Repair order")
    ref = str(p.get("card") or "")
    deck_id, _sep, cid = ref.partition(":")
    if deck_id == "status" and cid == df.SET_ABLAZE and status_on(unit, df.SET_ABLAZE):
        entry = unit["trackers"]["status"]["active"][df.SET_ABLAZE]
        if (entry.get("count") or 1) > 1:
            entry["count"] -= 1
        else:
            set_status(unit, df.SET_ABLAZE, False)
        return Said("%(unit)s (%(how)s): one Set Ablaze card discarded", unit=unit["name"], how=how)
    if deck_id not in state["decks"] or cid not in state["decks"][deck_id]["attached"].get(uid, []):
        raise RuleError(_("Choose one of the cards on the %(unit)s to repair.", unit=unit["name"]), "card")
    card = state["decks"][deck_id]["cards"][cid]
    df.repair([card], 0)  # the rules module says whether this card may be repaired
    lift_damage(unit, card)
    decks.apply_steps(state["decks"][deck_id], [{"step": "move", "card": cid, "to": "discard"}])
    return Said("%(unit)s (%(how)s): %(card)s discarded", unit=unit["name"], how=how, card=card["name"])
