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
from companion.schema import Either, Flag, Int, List, Obj, Ref, Scalar, Text

MAX_CARDS = 40          # an input limit of the board, not a rule of the game


# --- the initiative resolver ------------------------------------------------------------------

@action("dn-reveal", phase=("Reveal",) + RESOLVING, doing="Entering revealed cards", systems=SYSTEMS, fields={
    "owner": Ref("player"), "name": Text(40), "card_type": Text(40), "power_level": Int(0, 99, what="the power level"),
    "speed": Int(0, 99, what="the speed"),
    "steps": Either(List(Scalar(20), 20), Text(200), doc="initiative steps: X or 5.9 down to 0")})
def reveal(state: dict, p: dict) -> str:
    """Enter a revealed card (owner, type, initiative steps, power level or speed) into the resolver."""
    battle_on(state)
    t = turn(state)
    if len(t["cards"]) >= MAX_CARDS:
        raise RuleError(f"The resolver holds at most {MAX_CARDS} cards a turn.", "name")
    owner = p.get("owner")
    if owner not in players(state):
        raise RuleError(f"Say whose card it is: one of {', '.join(players(state))}.", "owner")
    card = {"id": f"c{t['next_card']}", "owner": owner, "name": p.get("name"), "type": p.get("card_type"),
            "steps": p.get("steps") or []}
    if not card["name"]:
        raise RuleError("Name the card.", "name")
    for key in ("power_level", "speed"):
        if p.get(key) is not None:
            card[key] = p[key]
    # checks the card against the others (type, steps, ties needing a power level or speed) first
    dn.initiative_order(t["cards"] + [card])
    t["cards"].append(card)
    t["next_card"] += 1
    refresh_order(state)
    row = next(r for r in t["order"] if r["id"] == card["id"])
    return f"{owner} reveals {card['name']} ({row['type']}, initiative {', '.join(row['steps'])})"


@reveal.decider
def decide_reveal(state: dict, args: dict, ctx) -> dict:
    out = clean(args, "owner", "card_type", "power_level", "speed")
    name = " ".join(str(args.get("name") or "").split())
    if len(name) > 40:
        raise RuleError("A card name is at most 40 characters.", "name")
    out["name"] = name
    out["steps"] = steps_of(args.get("steps"))
    return out


def steps_of(raw) -> list[str]:
    """Initiative steps as typed: 'X, 3.5, 0' or 'x 3.5 0' (checked by the rules when the card is added)."""
    if raw in (None, ""):
        raise RuleError("Enter the card's initiative steps: X or 5.9 down to 0, e.g. 'X, 2.5'.", "steps")
    if isinstance(raw, list):
        parts = [str(s) for s in raw]
    else:
        parts = str(raw).replace(",", " ").replace(";", " ").split()
    if len(parts) > 10:
        raise RuleError("A card resolves at most at 10 initiative steps here.", "steps")
    return [part.strip().upper() if part.strip().upper() == "X" else part.strip() for part in parts]


@action("dn-unreveal", phase=("Reveal",) + RESOLVING, doing="Changing the revealed cards", systems=SYSTEMS,
        fields={"card": Ref("card")})
def unreveal(state: dict, p: dict) -> str:
    """Take a card entered by mistake out of the resolver."""
    battle_on(state)
    t = turn(state)
    card = next((c for c in t["cards"] if c["id"] == p.get("card")), None)
    if card is None:
        raise RuleError(f"No revealed card {p.get('card')!r} this turn.", "card")
    t["cards"].remove(card)
    t["resolved"] = [k for k in t["resolved"] if not k.startswith(card["id"] + "@")]
    refresh_order(state)
    return f"{card['owner']}'s {card['name']} taken out of the resolver"


@unreveal.decider
def decide_unreveal(state: dict, args: dict, ctx) -> dict:
    return clean(args, "card")


@action("dn-next-step", phase=RESOLVING, doing="Walking the initiative steps", systems=SYSTEMS,
        fields={"expect": Scalar(60), "entry": Scalar(60)})
def next_step(state: dict, p: dict) -> str:
    """Mark the current initiative step resolved and move on (in a tie, the Attacker picks which)."""
    battle_on(state)
    t = turn(state)
    row = current_row(state)
    if row is None:
        raise RuleError("Every revealed card has resolved this turn." if t["order"]
                        else "No revealed cards yet: enter them in the initiative resolver.", "step")
    if p.get("expect") and p["expect"] != row["key"]:
        raise Stale("Someone already moved to the next step; here is where the resolver is now.", "step")
    chosen = row
    if p.get("entry") and p["entry"] != row["key"]:
        # seed 000, Initiative Order, Priority: "If the cards are still tied then the Attacker chooses"
        chosen = next((r for r in t["order"] if r["key"] == p["entry"] and r["status"] == "todo"
                       and r["tie_group"] == row["tie_group"]), None)
        if chosen is None:
            raise RuleError("Only a card tied with the current one may be resolved first (the Attacker "
                            "chooses among tied cards).", "entry")
    t["resolved"].append(chosen["key"])
    refresh_order(state)
    nxt = current_row(state)
    text = f"Resolved: initiative {chosen['initiative']} {chosen['card']} ({chosen['owner']})"
    if chosen is not row:
        text += f", chosen before {row['card']}"
    if nxt:
        return text + f"; next: {nxt['initiative']} {nxt['card']}"
    ignored = sum(1 for r in t["order"] if r["status"] == "ignored")
    return text + (f"; {ignored} beyond the Elimination's 1.0 window ignored" if ignored else
                   "; every step resolved")


@next_step.decider
def decide_next_step(state: dict, args: dict, ctx) -> dict:
    return clean(args, "expect", "entry")


# --- table checks everybody sees ----------------------------------------------------------------

@action("dn-range", systems=SYSTEMS, fields={"hexes": Int(0, 99, what="the range in hexes")})
def range_check(state: dict, p: dict) -> str:
    """Range helper: hexes to the target (its hex included) -> Close, Medium, Long, Extreme or out of range."""
    g = game(state)
    hexes = needed(p, "hexes")
    result = dn.range_band(hexes)
    text = result["summary"]
    if result["narrow_arc_widens"]:
        text += " Narrow (Long+) arcs widen to 5 columns."
    if g.get("teams"):
        text += " Shared Defense: " + ("allowed." if dn.shared_defense(hexes)["allowed"] else "not this far.")
    g["helper"] = {"kind": "range", "band": result["band"], "summary": text}
    return text


@range_check.decider
def decide_range(state: dict, args: dict, ctx) -> dict:
    return clean(args, "hexes")


@action("dn-reduce", systems=SYSTEMS, fields={"value": Int(0, 99, what="the Damage, Push or Card Burn"),
    "reduction": Int(0, 99, what="the reduction"), "negate": Flag(), "unstoppable": Flag(),
    "unbreakable": Flag()})
def reduce(state: dict, p: dict) -> str:
    """Apply a reduction or a negate effect to Damage, Push or Card Burn (Unstoppable halves, rounding down)."""
    g = game(state)
    value = needed(p, "value")
    amount = p.get("reduction", 0)
    negate = p.get("negate", False)
    if not amount and not negate:
        raise RuleError("Enter the reduction, or tick negate.", "reduction")
    result = dn.reduction(value, amount, negate=negate, unstoppable=p.get("unstoppable", False),
                          unbreakable=p.get("unbreakable", False))
    text = ("Unstoppable " if p.get("unstoppable", False) else "") + result["summary"]
    g["helper"] = {"kind": "reduce", "result": result["result"], "summary": text}
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
        raise RuleError("Combined Fire is a team rule (seed 000, Multiplayer, Targeting).", "attackers")
    in_phase(state, RESOLVING, "Combined Fire")  # the core's guard, after the team rule: that one says more
    row = current_row(state)
    if row is None:
        raise RuleError("Combined Fire happens at an initiative step: enter the revealed cards first.", "step")
    target = p.get("target")
    if target not in players(state):
        raise RuleError(f"Pick the target: one of {', '.join(players(state))}.", "target")
    attackers = p.get("attackers") or []
    strangers = [a for a in attackers if a not in remaining(state)]
    if strangers:
        raise RuleError(f"{strangers[0]} is not a ship still in the battle.", "attackers")
    if target in attackers:
        raise RuleError("The target cannot be one of the attackers.", "attackers")
    t = turn(state)
    result = dn.combined_fire(attackers, g["teams"], p.get("effect"),
                              applied_this_step=row["initiative"] in t["combined_fire"])
    t["combined_fire"].append(row["initiative"])
    return f"At initiative {row['initiative']}, {' and '.join(attackers)} on {target}: {result['summary']}"


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
