"""The Dreadfleet game turn (seed 002, The Game Turn 1-5): the initiative roll-off, the Fate cards and
the wind they move, activating ships in turn; what to remember as each phase starts is the phase hook
(``phase``)."""
from __future__ import annotations

from companion.actions import action
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.entries import physical_card
from companion.games.dreadfleet.state import (
    GAME,
    acts_last,
    books,
    in_play,
    is_monster,
    opponent,
    retold,
    set_status,
    set_wind,
    side_to_go,
    sides,
    status_cards,
    status_on,
    turn,
    unit_at_sea,
    waiting,
    wind_gauge,
    wind_position,
    wind_strength,
)
from companion.said import N_, Said, _
from companion.schema import Dice, Flag, Obj, Ref
from companion.trackers import deck as decks

# --- 1: Initiative (seed 002, The Game Turn 1) -------------------------------------------------

@action("df-initiative", phase="Initiative", doing=N_("The initiative roll-off"), systems=GAME, chance=True,
        fields={"dice": Dice(6, 2)})
def initiative(state: dict, p: dict) -> str:
    """Roll off for the initiative: the higher die wins (a tie rolls again)."""
    now = turn(state)
    if now["initiative"] and now["initiative"]["winner"]:
        raise RuleError(_("%(side)s already has the initiative this turn.", side=now["initiative"]["winner"]), "initiative")
    now["initiative"] = {"rolls": p["rolls"], "winner": p["winner"]}
    return retold(p["summary"], lambda: df.initiative_summary(p))


@initiative.decider
def decide_initiative(state: dict, args: dict, ctx) -> dict:
    now = turn(state)
    if now["initiative"] and now["initiative"]["winner"]:
        raise RuleError(_("%(side)s already has the initiative this turn.", side=now["initiative"]["winner"]), "initiative")
    result = df.initiative_roll_off(args.get("dice"), ctx.rng, tuple(sides(state)))
    return {**result, "dice": list(result["rolls"].values())}


@action("df-first", phase="Initiative", doing=N_("Choosing the first player"), systems=GAME,
        fields={"first": Ref("side")})
def choose_first(state: dict, p: dict) -> str:
    """The initiative winner chooses who is first player: {"first": side}."""
    now = turn(state)
    winner = (now["initiative"] or {}).get("winner")
    if not winner:
        raise RuleError(_("Roll off for the initiative first."), "initiative")
    if now["first"]:
        raise RuleError(_("%(side)s is already first player this turn.", side=now["first"]), "first")
    first = p.get("first")
    if first not in sides(state):
        a, b = sides(state)
        raise RuleError(_("first must be %(a)s or %(b)s.", a=a, b=b), "first")
    now["first"] = first
    state["active_side"] = first
    if first == winner:
        return Said("%(winner)s has the initiative and goes first: %(first)s is first player", winner=winner, first=first)
    return Said("%(winner)s has the initiative and goes second: %(first)s is first player", winner=winner, first=first)


# --- 3: Fate (seed 002, The Game Turn 3; Fate; Wind Strength) ----------------------------------

def next_to_draw(state: dict) -> str:
    now = turn(state)
    if not now["first"]:
        raise RuleError(_("Settle the initiative first: the first player draws the first Fate card."), "initiative")
    for side in (now["first"], opponent(state, now["first"])):
        if side not in now["fate"]:
            return side
    raise RuleError(_("Both players have drawn their Fate card this turn."), "side")


@action("df-fate", phase="Fate", doing=N_("Drawing a Fate card"), systems=GAME, chance=True, fields={
    "side": Ref("side"), "card": Obj({"br": Flag()}, doc="the Fate card drawn from the real deck"), "wind_dice": Dice(6, 2)})
def fate(state: dict, p: dict) -> str:
    """Draw and resolve a Fate card; the wind gauge moves by its markers (or is re-placed on 2D6)."""
    if not books(state)["wind_placed"]:
        raise RuleError(_("Place the wind gauge first (2D6 at set-up)."), "wind")
    side = next_to_draw(state)
    if p["side"] != side:
        raise RuleError(_("%(side)s draws the next Fate card.", side=side), "side")
    deck = state["decks"]["fate"]
    cid = decks.apply_steps(deck, p["steps"])[-1]
    card = deck["cards"][cid]
    moved = df.apply_fate_wind(wind_position(state), card, p.get("wind_dice"), None,
                               wind_gauge(state)["positions"])
    set_wind(state, moved["position"])
    now = turn(state)
    now["fate"].append(side)
    now["drawn"][side] = cid
    second = opponent(state, now["first"])
    state["active_side"] = second if second not in now["fate"] else now["first"]
    tags = [card.get("kind") or "", "BR" if card.get("br") else ""]
    said = moved["summary"].split(": ", 1)[-1]
    return Said("%(side)s draws %(card)s (%(tags)s, wind %(wind)s): %(moved)s; wind strength %(strength)s", side=side,
                card=card["name"], tags=", ".join(t for t in tags if t), wind=card.get("wind"),
                moved=moved["wind_said"] if said == moved["wind_said"] else said, strength=wind_strength(state))


@fate.decider
def decide_fate(state: dict, args: dict, ctx) -> dict:
    if not books(state)["wind_placed"]:
        raise RuleError(_("Place the wind gauge first (2D6 at set-up)."), "wind")
    side = args.get("side") or next_to_draw(state)
    if side != next_to_draw(state):
        raise RuleError(_("%(side)s draws the next Fate card.", side=next_to_draw(state)), "side")
    deck = state["decks"]["fate"]
    if deck["mode"] == "physical":
        card = df.validate_card(physical_card(args), "fate")
        steps = [{"step": "record", "card": card, "to": "discard"}]
    else:
        if not deck["draw"] and not deck["discard"]:
            raise RuleError(_("The Fate deck is empty: load your Fate cards (or the example) first."), "deck")
        steps = decks.plan_draw(deck, ctx.rng, "discard", 1)
        card = next(s for s in reversed(steps) if s["step"] == "draw")
        card = deck["cards"][card["card"]]
        df.validate_card(card, "fate")
    wind_dice = None
    if card.get("markers") == "2D6":
        wind_dice = args.get("wind_dice") or [ctx.rng.randint(1, 6), ctx.rng.randint(1, 6)]
        df.place_wind(wind_dice)
    return {"side": side, "deck": "fate", "steps": steps, "wind_dice": wind_dice,
            "dice": wind_dice or []}


@action("df-place-card", phase="Fate", doing=N_("Placing a Fate card"), systems=GAME,
        fields={"card": Ref("card"), "unit": Ref("unit")})
def place_card(state: dict, p: dict) -> str:
    """Put this turn's Fate card that stays in play (Status, Spell, Upgrade, Shot) on a ship."""
    now = turn(state)
    deck = state["decks"]["fate"]
    cid = p.get("card")
    drawer = next((side for side, drawn in now["drawn"].items() if drawn == cid), None)
    if drawer is None or cid not in deck["discard"]:
        raise RuleError(_("Only a Fate card drawn this turn, still on the discard pile, can be placed."), "card")
    card = deck["cards"][cid]
    kind = card.get("kind")
    if kind not in ("Status", "Spell", "Upgrade", "Shot"):
        raise RuleError(_("%(card)s is an immediate card: it is resolved and discarded.", card=card["name"]), "card")
    unit = unit_at_sea(state, p.get("unit"))
    if kind == "Upgrade" and (unit["side"] != drawer or is_monster(unit)):
        # seed 002, Status Cards: "one of your Warship or Cog Auxiliary cards"
        raise RuleError(_("An Upgrade goes on one of %(side)s's own Warship or Cog cards.", side=drawer), "unit")
    problem = df.attach_problem(card, status_cards(state, unit["id"]), unit["name"])
    if problem:
        raise RuleError(problem, "unit")
    decks.apply_steps(deck, [{"step": "move", "card": cid, "to": f"unit:{unit['id']}"}])
    said = {"card": card["name"], "kind": kind, "unit": unit["name"]}
    if card["name"].strip().casefold() == df.SET_ABLAZE.casefold() and status_on(unit, df.AT_ANCHOR):
        set_status(unit, df.AT_ANCHOR, False)  # seed 002, Dropping Anchor: "flip the card over"
        return Said("%(card)s (%(kind)s) placed on the %(unit)s, no longer at anchor; wind strength %(strength)s",
                    strength=wind_strength(state), **said)
    return Said("%(card)s (%(kind)s) placed on the %(unit)s; wind strength %(strength)s", strength=wind_strength(state),
                **said)


# --- 4: Action - activations (seed 002, The Game Turn 4) ---------------------------------------

@action("df-activate", phase="Action", doing=N_("Activating a warship"), systems=GAME, fields={"unit": Ref("unit")})
def activate(state: dict, p: dict) -> str:
    """Activate a ship: players alternate; sea monsters act after every other ship."""
    now = turn(state)
    if not now["first"]:
        raise RuleError(_("Settle the initiative first: the first player activates first."), "initiative")
    unit = unit_at_sea(state, p.get("unit"))
    if unit["activated"]:
        raise RuleError(_("The %(unit)s has already been activated this turn.", unit=unit["name"]), "unit")
    if acts_last(state, unit):
        if waiting(state):
            raise RuleError(_("Sea monsters act after every warship has been activated."), "unit")
        if unit["id"] not in now["control"]:
            raise RuleError(_("First say who controls the %(unit)s (the nearest warship's opponent).", unit=unit["name"]),
                            "unit")
    else:
        last = next((state["units"][uid]["side"] for uid in reversed(now["activated"])
                     if not acts_last(state, state["units"][uid])), None)
        to_go = side_to_go(state, last)  # afresh: a ship deployed or sunk since changes who is waiting
        if unit["side"] != to_go:
            raise RuleError(_("It is %(side)s's turn to activate a ship.", side=to_go), "unit")
    unit["activated"] = True
    now["current"] = unit["id"]
    now["activated"].append(unit["id"])
    if not acts_last(state, unit):
        now["to_go"] = side_to_go(state, unit["side"])
    state["active_side"] = now["to_go"]
    if now["to_go"]:
        return Said("%(unit)s activated; %(side)s to go", unit=unit["name"], side=now["to_go"])
    if any(acts_last(state, u) and not u["activated"] for u in in_play(state)):
        return Said("%(unit)s activated; every warship has been activated: sea monsters next", unit=unit["name"])
    return Said("%(unit)s activated; every warship has been activated", unit=unit["name"])
