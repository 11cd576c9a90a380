"""Dreadnaught's Resolve step: the initiative-order resolver, range and reduction checks, Combined Fire."""
from __future__ import annotations

from companion.actions import action, in_phase, needed
from companion.errors import RuleError, Stale
from companion.games.dreadnaught import rules as dn
from companion.games.dreadnaught.state import (
    RESOLVING,
    SYSTEMS,
    battle_on,
    clean,
    current_row,
    game,
    players,
    refresh_order,
    remaining,
    turn,
)
from companion.said import N_, Said, _, kept
from companion.schema import Either, Flag, Int, List, Obj, Ref, Scalar, Text

MAX_CARDS = 40          # an input limit of the board, not a rule of the game


# --- the initiative resolver ------------------------------------------------------------------

@action("dn-reveal", phase=("Reveal",) + RESOLVING, doing=N_("Entering revealed cards"), systems=SYSTEMS, fields={
    "owner": Ref("player"), "name": Text(40), "card_type": Text(40),
    "power_level": Int(0, 99, what=N_("the power level")), "speed": Int(0, 99, what=N_("the speed")),
    "steps": Either(List(Scalar(20), 20), Text(200), doc="initiative steps: X or 5.9 down to 0")})
def reveal(state: dict, p: dict) -> str:
    """Enter a revealed card (owner, type, initiative steps, power level or speed) into the resolver."""
    battle_on(state)
    t = turn(state)
    if len(t["cards"]) >= MAX_CARDS:
        raise RuleError(_("The resolver holds at most %(n)s cards a turn.", n=MAX_CARDS), "name")
    owner = p.get("owner")
    if owner not in players(state):
        raise RuleError(_("Say whose card it is: one of %(players)s.", players=", ".join(players(state))), "owner")
    card = {"id": f"c{t['next_card']}", "owner": owner, "name": p.get("name"), "type": p.get("card_type"),
            "steps": p.get("steps") or []}
    if not card["name"]:
        raise RuleError(_("Name the card."), "name")
    for key in ("power_level", "speed"):
        if p.get(key) is not None:
            card[key] = p[key]
    # checks the card against the others (type, steps, ties needing a power level or speed) first
    dn.initiative_order(t["cards"] + [card])
    t["cards"].append(card)
    t["next_card"] += 1
    refresh_order(state)
    row = next(r for r in t["order"] if r["id"] == card["id"])
    return Said("%(player)s reveals %(card)s (%(type)s, initiative %(steps)s)", player=owner, card=card["name"],
                type=row["type"], steps=", ".join(row["steps"]))


@reveal.decider
def decide_reveal(state: dict, args: dict, ctx) -> dict:
    out = clean(args, "owner", "card_type", "power_level", "speed")
    name = " ".join(str(args.get("name") or "").split())
    if len(name) > 40:
        raise RuleError(_("A card name is at most 40 characters."), "name")
    out["name"] = name
    out["steps"] = steps_of(args.get("steps"))
    return out


def steps_of(raw) -> list[str]:
    """Initiative steps as typed: 'X, 3.5, 0' or 'x 3.5 0' (checked by the rules when the card is added)."""
    if raw in (None, ""):
        raise RuleError(_("Enter the card's initiative steps: X or 5.9 down to 0, e.g. 'X, 2.5'."), "steps")
    if isinstance(raw, list):
        parts = [str(s) for s in raw]
    else:
        parts = str(raw).replace(",", " ").replace(";", " ").split()
    if len(parts) > 10:
        raise RuleError(_("A card resolves at most at 10 initiative steps here."), "steps")
    return [part.strip().upper() if part.strip().upper() == "X" else part.strip() for part in parts]


@action("dn-unreveal", phase=("Reveal",) + RESOLVING, doing=N_("Changing the revealed cards"), systems=SYSTEMS,
        fields={"card": Ref("card")})
def unreveal(state: dict, p: dict) -> str:
    """Take a card entered by mistake out of the resolver."""
    battle_on(state)
    t = turn(state)
    card = next((c for c in t["cards"] if c["id"] == p.get("card")), None)
    if card is None:
        raise RuleError(_("No revealed card %(card)r this turn.", card=p.get("card")), "card")
    t["cards"].remove(card)
    t["resolved"] = [k for k in t["resolved"] if not k.startswith(card["id"] + "@")]
    refresh_order(state)
    return Said("%(player)s's %(card)s taken out of the resolver", player=card["owner"], card=card["name"])


@unreveal.decider
def decide_unreveal(state: dict, args: dict, ctx) -> dict:
    return clean(args, "card")


@action("dn-next-step", phase=RESOLVING, doing=N_("Walking the initiative steps"), systems=SYSTEMS,
        fields={"expect": Scalar(60), "entry": Scalar(60)})
def next_step(state: dict, p: dict) -> str:
    """Mark the current initiative step resolved and move on (in a tie, the Attacker picks which)."""
    battle_on(state)
    t = turn(state)
    row = current_row(state)
    if row is None:
        raise RuleError(_("Every revealed card has resolved this turn.") if t["order"]
                        else _("No revealed cards yet: enter them in the initiative resolver."), "step")
    if p.get("expect") and p["expect"] != row["key"]:
        raise Stale(_("Someone already moved to the next step; here is where the resolver is now."), "step")
    chosen = row
    if p.get("entry") and p["entry"] != row["key"]:
        # seed 000, Initiative Order, Priority: "If the cards are still tied then the Attacker chooses"
        chosen = next((r for r in t["order"] if r["key"] == p["entry"] and r["status"] == "todo"
                       and r["tie_group"] == row["tie_group"]), None)
        if chosen is None:
            raise RuleError(_("Only a card tied with the current one may be resolved first (the Attacker "
                              "chooses among tied cards)."), "entry")
    t["resolved"].append(chosen["key"])
    refresh_order(state)
    nxt = current_row(state)
    text = Said("Resolved: initiative %(initiative)s %(card)s (%(player)s)", initiative=chosen["initiative"],
                card=chosen["card"], player=chosen["owner"])
    if chosen is not row:
        text = Said("%(text)s, chosen before %(card)s", text=text, card=row["card"])
    if nxt:
        return Said("%(text)s; next: %(initiative)s %(card)s", text=text, initiative=nxt["initiative"], card=nxt["card"])
    ignored = sum(1 for r in t["order"] if r["status"] == "ignored")
    if ignored:
        return Said("%(text)s; %(n)s beyond the Elimination's 1.0 window ignored", text=text, n=ignored)
    return Said("%(text)s; every step resolved", text=text)


@next_step.decider
def decide_next_step(state: dict, args: dict, ctx) -> dict:
    return clean(args, "expect", "entry")


# --- table checks everybody sees ----------------------------------------------------------------

@action("dn-range", systems=SYSTEMS, fields={"hexes": Int(0, 99, what=N_("the range in hexes"))})
def range_check(state: dict, p: dict) -> str:
    """Range helper: hexes to the target (its hex included) -> Close, Medium, Long, Extreme or out of range."""
    g = game(state)
    hexes = needed(p, "hexes")
    result = dn.range_band(hexes)
    text = result["summary"]
    if result["narrow_arc_widens"]:
        text = Said("%(text)s Narrow (Long+) arcs widen to 5 columns.", text=text)
    if g.get("teams"):
        text = (Said("%(text)s Shared Defense: allowed.", text=text) if dn.shared_defense(hexes)["allowed"]
                else Said("%(text)s Shared Defense: not this far.", text=text))
    g["helper"] = {"kind": "range", "band": result["band"], "summary": kept(text)}  # drawn in each reader's words (say)
    return text


@range_check.decider
def decide_range(state: dict, args: dict, ctx) -> dict:
    return clean(args, "hexes")


@action("dn-reduce", systems=SYSTEMS, fields={"value": Int(0, 99, what=N_("the Damage, Push or Card Burn")),
    "reduction": Int(0, 99, what=N_("the reduction")), "negate": Flag(), "unstoppable": Flag(),
    "unbreakable": Flag()})
def reduce(state: dict, p: dict) -> str:
    """Apply a reduction or a negate effect to Damage, Push or Card Burn (Unstoppable halves, rounding down)."""
    g = game(state)
    value = needed(p, "value")
    amount = p.get("reduction", 0)
    negate = p.get("negate", False)
    if not amount and not negate:
        raise RuleError(_("Enter the reduction, or tick negate."), "reduction")
    result = dn.reduction(value, amount, negate=negate, unstoppable=p.get("unstoppable", False),
                          unbreakable=p.get("unbreakable", False))
    text = Said("Unstoppable %(text)s", text=result["summary"]) if p.get("unstoppable", False) else result["summary"]
    g["helper"] = {"kind": "reduce", "result": result["result"], "summary": kept(text)}  # drawn in each reader's words (say)
    return text


@reduce.decider
def decide_reduce(state: dict, args: dict, ctx) -> dict:
    return clean(args, "value", "reduction", "negate", "unstoppable", "unbreakable")


@action("dn-combined-fire", systems=SYSTEMS, fields={"target": Ref("player"), "effect": Scalar(60),
    "attackers": Either(List(Ref("player"), 20), Obj(doc="checkboxes attackers.<player>"), Text(400))})
def combined_fire(state: dict, p: dict) -> str:
    """[Teams] Combined Fire: teammates on one target at one step add 2 Damage, 1 Push or 2 Card Burn."""
    g = battle_on(state)
    if not g.get("teams"):
        raise RuleError(_("Combined Fire is a team rule (seed 000, Multiplayer, Targeting)."), "attackers")
    in_phase(state, RESOLVING, N_("Combined Fire"))  # the core's guard, after the team rule: that one says more
    row = current_row(state)
    if row is None:
        raise RuleError(_("Combined Fire happens at an initiative step: enter the revealed cards first."), "step")
    target = p.get("target")
    if target not in players(state):
        raise RuleError(_("Pick the target: one of %(players)s.", players=", ".join(players(state))), "target")
    attackers = p.get("attackers") or []
    strangers = [a for a in attackers if a not in remaining(state)]
    if strangers:
        raise RuleError(_("%(player)s is not a ship still in the battle.", player=strangers[0]), "attackers")
    if target in attackers:
        raise RuleError(_("The target cannot be one of the attackers."), "attackers")
    t = turn(state)
    result = dn.combined_fire(attackers, g["teams"], p.get("effect"),
                              applied_this_step=row["initiative"] in t["combined_fire"])
    t["combined_fire"].append(row["initiative"])
    return Said("At initiative %(initiative)s, %(attackers)s on %(target)s: %(summary)s", initiative=row["initiative"],
                attackers=_both(attackers), target=target, summary=result["summary"])


def _both(names: list) -> str:
    """"Anna and Ben and Cleo", the "and" in each reader's words."""
    text = names[0] if names else ""
    for name in names[1:]:
        text = Said("%(first)s and %(second)s", first=text, second=name)
    return text


@combined_fire.decider
def decide_combined_fire(state: dict, args: dict, ctx) -> dict:
    out = clean(args, "target", "effect")
    raw = args.get("attackers")
    if isinstance(raw, dict):  # checkboxes attackers.<player>=1
        out["attackers"] = [str(name) for name, on in raw.items() if on]
    elif isinstance(raw, str):
        out["attackers"] = [a.strip() for a in raw.split(",") if a.strip()]
    elif isinstance(raw, list):
        out["attackers"] = [str(a) for a in raw]
    return out
