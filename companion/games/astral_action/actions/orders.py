"""Astral Action actions: the Command phase (Orders, open or sealed; Command Tokens; Commands) and
the Ship Activation phase in the seed's order by Size (L124-L136, L245-L286)."""
from __future__ import annotations

from companion.actions import action
from companion.actions.sealed import next_id, sealed_label, store_part
from companion.errors import RuleError
from companion.games.astral_action.rules import turn as tn
from companion.games.astral_action.rules.damage import has_active, locked_types
from companion.games.astral_action.state import (
    SYSTEMS,
    activation_status,
    formation_of,
    hidden,
    orders_given,
    ship_of,
    spend_command,
    turn,
)
from companion.hidden import KEY
from companion.said import Said, _, joined
from companion.schema import Flag, Ref, Scalar, Text


def _check_order(state: dict, uid: str, name: str) -> tuple[dict, str]:
    unit, ship = ship_of(state, uid, allow_hidden=True)
    books = turn(state)
    if ship.get("jumping") == state["round"]:
        raise RuleError(_("%(unit)s is jumping to Hyperspace: no Orders or Command Tokens this turn (L286).", unit=unit["name"]),
                        "order")
    if books["tokens"].get(uid):
        raise RuleError(_("%(unit)s has a Command Token this turn: Orders or a Token, not both (L125-L130).", unit=unit["name"]),
                        "order")
    slots = tn.order_slots(has_active(ship, ship["card"], "boosters"), has_active(ship, ship["card"], "sensors"))
    kind = tn.check_order(name, orders_given(state, uid), locked_types(ship), slots, unit["template"] == "fighter")
    return unit, kind


def _may_order(state: dict, unit: dict, side: str | None) -> None:
    """Who may give a ship Orders, decided before any rule reads its Orders (issue 30): a refusal
    must never depend on a sealed Order the caller cannot read, or refusals would reveal it.  A side
    gives Orders to its own ships only; a seat that reads no side's secrets (no side) may not add
    Orders to a ship holding an unrevealed sealed one.  Both sentences read only public facts."""
    _own_side(unit, side, "Orders")
    if side is None and hidden(state, unit["id"]):
        raise RuleError(_("%(unit)s's card is hidden: only %(side)s can give it Orders.", unit=unit["name"], side=unit["side"]),
                        "order")
    if side is None and any(p.get("unit") == unit["id"] and p.get("round") == state["round"] and p.get("kind") == "order"
                            and not p.get("revealed") and not p.get("discarded")
                            for p in state.get(KEY, {}).values()):
        raise RuleError(_("%(unit)s has a sealed Order this turn: only %(side)s can give it more Orders.", unit=unit["name"],
                          side=unit["side"]), "order")


@action("aa-order", systems=SYSTEMS, phase="Command", doing="Writing Orders",
        fields={"unit": Ref("unit"), "order": Text(60), "hidden": Flag()})
def aa_order(state: dict, p: dict) -> str:
    """Give a ship an Order in the Command phase, openly or sealed (hidden until revealed, L126-L128)."""
    if p.get(KEY):
        unit, _kind = _check_order(state, p["unit"], p[KEY]["secret"]["order"])
        store_part(state, p, "order")
        return sealed_label(p, unit)
    unit, kind = _check_order(state, p.get("unit"), p.get("order"))
    turn(state)["orders"].setdefault(unit["id"], []).append(p["order"])
    return Said("%(unit)s: Order [%(kind)s] %(order)s", unit=unit["name"], kind=kind, order=p["order"])


@aa_order.decider
def decide_aa_order(state: dict, args: dict, ctx) -> dict:
    unit, _ship = ship_of(state, args.get("unit"), allow_hidden=True)
    name = args.get("order")
    _may_order(state, unit, ctx.side)
    _check_order(state, unit["id"], name)
    if not args.get("hidden"):
        return {"unit": unit["id"], "order": name}
    # the Order's name is the secret: its type would give it away, so it is sealed too
    return {"unit": unit["id"], "id": next_id(state), "seat": ctx.seat,
            KEY: {"side": unit["side"], "secret": {"order": name, "text": name}}}


@action("aa-token", systems=SYSTEMS, phase="Command", doing="Placing Command Tokens", fields={"unit": Ref("unit")})
def aa_token(state: dict, p: dict) -> str:
    """Place a Command Token on a ship's card instead of Orders (L129)."""
    unit, ship = ship_of(state, p.get("unit"), allow_hidden=True)
    if unit["template"] == "fighter":
        raise RuleError(_("Fighters cannot be issued Commands or Orders (L232)."), "unit")
    if ship.get("jumping") == state["round"]:
        raise RuleError(_("%(unit)s is jumping to Hyperspace: no Orders or Command Tokens this turn (L286).", unit=unit["name"]),
                        "unit")
    books = turn(state)
    if books["tokens"].get(unit["id"]):
        raise RuleError(_("%(unit)s already has its Command Token this turn.", unit=unit["name"]), "unit")
    if orders_given(state, unit["id"]):
        raise RuleError(_("%(unit)s has Orders this turn: Orders or a Token, not both (L125-L130).", unit=unit["name"]), "unit")
    books["tokens"][unit["id"]] = "ready"
    return Said("%(unit)s: Command Token placed", unit=unit["name"])


@aa_token.decider
def decide_aa_token(state: dict, args: dict, ctx) -> dict:
    unit, _ship = ship_of(state, args.get("unit"), allow_hidden=True)
    _own_side(unit, ctx.side, "Command Tokens")
    return {"unit": unit["id"]}


def _own_side(unit: dict, side: str | None, what: str) -> None:
    """Orders, Command Tokens and Commands are the controlling player's (L125-L130): another side's
    seat is refused (it could otherwise spend a token or discard a sealed Order of the other side)."""
    if side is not None and side != unit["side"]:
        raise RuleError(_("Only %(side)s gives %(what)s to %(unit)s.", side=unit["side"], what=what, unit=unit["name"]),
                        "unit" if what != "Orders" else "order")


@action("aa-command", systems=SYSTEMS, fields={"unit": Ref("unit"), "command": Text(60), "via": Scalar(60)})
def aa_command(state: dict, p: dict) -> str:
    """Enact a Command: spend the Command Token or discard an unrevealed Order (L127, L253-L284)."""
    said = spend_command(state, p.get("unit"), p.get("command"), p.get("via"))
    if p.get("command") == "Attack with an unused weapon":  # L256: one attack, even outside its activation
        turn(state).setdefault("free_attacks", []).append(p["unit"])
    return said


@aa_command.decider
def decide_aa_command(state: dict, args: dict, ctx) -> dict:
    unit, _ship = ship_of(state, args.get("unit"), allow_hidden=True)
    _own_side(unit, ctx.side, "Commands")
    return {k: args[k] for k in ("command", "via") if k in args} | {"unit": unit["id"]}


@action("aa-activate", systems=SYSTEMS, phase="Activation", doing="Activating a ship", fields={"unit": Ref("unit")})
def aa_activate(state: dict, p: dict) -> str:
    """Activate a ship in the seed's order: by Size up, alternating, then back down (L132-L136)."""
    unit, ship = ship_of(state, p.get("unit"), allow_hidden=True)
    status = activation_status(state)
    f = formation_of(state, unit["id"])
    members = [m for m in f["members"] if not state["units"][m]["removed"]] if f else [unit["id"]]
    size = max(state["game"]["ships"][m]["card"]["size"] for m in members)  # L380: the largest Size
    tn.check_activation(status, {"size": size, "side": unit["side"], "activated": unit["activated"]})
    for m in members:
        state["units"][m]["activated"] = True
    turn(state)["last"] = unit["side"]
    turn(state)["current"] = members  # its activation lasts until the next one or a pass (L140-L143)
    if ship.get("jumping") == state["round"]:
        unit["removed"] = True  # L286 "when this Ship is activated, remove it from play"
        ship["fled"] = True
    after = activation_status(state)
    nxt = (Said("next: %(side)s, Size %(size)s", side=after["next"], size=after["size"]) if after["stage"] != "done"
           else Said("every ship has activated"))
    # the label is read on the phones (undo bar, log), so the rule lines stay here: a jump leaves
    # play when activated (L286), a formation activates at its largest Size (L380), an activation
    # is attack first, then move (L140-L142)
    if ship.get("fled"):
        return joined("; ", [Said("%(unit)s jumps to Hyperspace and leaves play", unit=unit["name"]), nxt])
    if f:
        return joined("; ", [Said("Formation of %(lead)s activates at Size %(size)s: attack first, then move",
                                  lead=state["units"][f["lead"]]["name"], size=size), nxt])
    return joined("; ", [Said("%(unit)s activates (Size %(size)s): attack first, then move", unit=unit["name"],
                              size=ship["card"]["size"]), nxt])


@action("aa-pass", systems=SYSTEMS, phase="Activation", doing="Passing", fields={"side": Ref("side")})
def aa_pass(state: dict, p: dict) -> str:
    """Pass at this Size step (no more ships of this Size until the way back down, L132)."""
    status = activation_status(state)
    side = p.get("side")
    if side not in status["open"]:
        raise RuleError(_("%(side)s has no ship waiting at this step.", side=side) if side in state["sides"]
                        else _("side must be one of %(sides)s.", sides=", ".join(state["sides"])), "side")
    if not status["may_pass"]:
        raise RuleError(_("Nobody may pass at Size %(size)s: at the largest Size every ship must activate (L133).",
                          size=status["size"]) if status["stage"] == "ascending"
                        else _("Nobody may pass at Size %(size)s: on the way down every ship activates (L134).",
                               size=status["size"]), "side")
    if side != status["next"]:
        raise RuleError(_("It is %(side)s's activation.", side=status["next"]), "side")
    books = turn(state)
    books["passed"].setdefault(str(status["size"]), []).append(side)
    books["last"] = side
    books["current"] = []  # the activation before the pass is over
    # a seat named as its side (sides typed as the players' names) is named once: "Anna: passes at Size 3"
    if p.get("by") == side:
        return Said("passes at Size %(size)s", size=status["size"])
    return Said("%(side)s passes at Size %(size)s", side=side, size=status["size"])


@aa_pass.decider
def decide_aa_pass(state: dict, args: dict, ctx) -> dict:
    return {"side": args.get("side") or ctx.side, "by": ctx.seat}
