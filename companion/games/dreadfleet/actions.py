"""Dreadfleet at the table: set-up, the turn (initiative, Fate, activations) and the wind.

The procedures are in ``companion.games.dreadfleet.rules`` (seed 002); this module keeps the books: who
has the initiative, which Fate cards were drawn, which order cards are out of hand, which warship
is activated and how far into its a-d sub-phases it is.  Orders and movement are in
``dreadfleet_orders``; broadsides, damage, boarding and auxiliaries in ``dreadfleet_battle``.
Everything lives in ``state["game"]``; per-turn books in ``state["game"]["turn"]`` are started
afresh when the turn number changes.
"""
from __future__ import annotations

import copy

from companion import trackers
from companion.actions import action
from companion.dice import parse_values
from companion.rules import RuleError
from companion.games.dreadfleet import rules as df
from companion.trackers import deck as decks
from companion.trackers import need_int

GAME = {"dreadfleet"}
STEPS = ("Orders", "Movement", "Broadsides", "Boarding Actions")  # seed 002, The Game Turn 4 a-d


# --- books ------------------------------------------------------------------------------------

def books(state: dict) -> dict:
    """The game's books, created on first use."""
    game = state["game"]
    for key, empty in (("docked", {}), ("parent", {}), ("orders", {}), ("owed", {}),
                       ("fired", []), ("scenario", {}), ("monsters", {})):
        game.setdefault(key, empty)
    game.setdefault("wind_placed", False)
    game.setdefault("adrift", 0)
    return game


def turn(state: dict) -> dict:
    """This turn's books (initiative, Fate draws, activations), fresh when a new turn starts."""
    game = books(state)
    now = game.get("turn")
    if not now or now.get("round") != state["round"]:
        now = game["turn"] = {
            "round": state["round"], "initiative": None, "first": None, "fate": [], "drawn": {},
            "respite": [], "current": None, "activated": [], "steps": {}, "ordered": {},
            "fired": [], "sail": {}, "moved": [], "anchor": {}, "duels": [], "boardings": [],
            "collected": [], "control": [],
        }
    return now


def phase(state: dict) -> str:
    return state["phases"][state["phase"]]


def need_phase(state: dict, wanted: str, what: str) -> None:
    if phase(state) != wanted:
        raise RuleError(f"{what} happens in the {wanted} phase; this is the {phase(state)} phase.", "phase")


def sides(state: dict) -> list[str]:
    return state["sides"][:2]


def opponent(state: dict, side: str) -> str:
    first, second = sides(state)
    return second if side == first else first


# --- units ------------------------------------------------------------------------------------

def unit_at_sea(state: dict, uid, field: str = "unit") -> dict:
    """A unit in play: on the table, not sunk, not docked inside a warship."""
    unit = state["units"].get(uid) if isinstance(uid, str) else None
    if unit is None:
        raise RuleError("Choose a ship at this table.", field)
    if unit["removed"]:
        raise RuleError(f"{unit['name']} is no longer in play.", field)
    carrier = books(state)["docked"].get(uid)
    if carrier:
        raise RuleError(f"{unit['name']} is docked with the {state['units'][carrier]['name']}: deploy it first.",
                        field)
    return unit


def is_warship(unit: dict) -> bool:
    return unit["template"] == "warship"


def is_auxiliary(unit: dict) -> bool:
    """Auxiliaries and sea monsters (seed 002, Sea Monsters: 'auxiliaries that enter play through Fate')."""
    return unit["template"] in ("auxiliary", "sea-monster")


def is_monster(unit: dict) -> bool:
    return unit["template"] == "sea-monster"


def need_captain(unit: dict, what: str) -> None:
    # seed 002, Auxiliaries: "they do not have captains and cannot issue orders or duel"
    if not is_warship(unit):
        raise RuleError(f"{unit['name']} has no captain, so it cannot {what}.", "unit")


def counter(unit: dict, tracker: str) -> int:
    found = unit["trackers"].get(tracker)
    return found["value"] if found and found.get("kind") == "counter" else 0


def now_stat(unit: dict, key: str) -> int:
    """A characteristic after its Damage cards (seed 002, Damage Cards), never below 0."""
    return max(0, int(unit["stats"].get(key, 0)) - counter(unit, f"{key}_damage"))


def wounds(unit: dict) -> int:
    gauge = unit["trackers"].get("wounds")
    return gauge["positions"][gauge["index"]] if gauge else 0


def first_mate(unit: dict) -> bool:
    """Seed 002, Duelling: a mortally wounded captain's first mate issues orders (Command 6+)."""
    return wounds(unit) >= df.MORTAL_WOUNDS


def status_on(unit: dict, name: str) -> bool:
    status = unit["trackers"].get("status")
    return bool(status and name in status.get("active", {}))


def set_status(unit: dict, name: str, on: bool) -> None:
    status = unit["trackers"].get("status")
    if status is None:
        return
    if on:
        status["active"].setdefault(name, {"count": None, "until": None})
    else:
        status["active"].pop(name, None)


def cards_on(state: dict, uid: str) -> list[tuple[str, str, dict]]:
    """Every card in a ship's Status and damage areas: (deck, card id, card)."""
    out = []
    for deck_id, deck in state["decks"].items():
        out += [(deck_id, cid, deck["cards"][cid]) for cid in deck["attached"].get(uid, [])]
    return out


def status_cards(state: dict, uid: str) -> list[dict]:
    """The ship's cards as the rules module sees them, At Anchor and Set Ablaze chips included."""
    unit = state["units"][uid]
    out = [card for _, _, card in cards_on(state, uid)]
    active = unit["trackers"].get("status", {}).get("active", {})
    for name in (df.AT_ANCHOR, df.SET_ABLAZE):
        if name in active:
            out += [{"name": name}] * (active[name].get("count") or 1)
    return out


def at_anchor(state: dict, uid: str) -> bool:
    return any(card.get("name") == df.AT_ANCHOR for card in status_cards(state, uid))


# --- input ------------------------------------------------------------------------------------

def dice_arg(args: dict, key: str, sides: int = 6) -> list[int] | None:
    """Real dice typed by a player ("5 3 6", "5,3" or one number), checked; None when left empty."""
    raw = args.get(key)
    if raw in (None, "", []):
        return None
    if isinstance(raw, bool):
        raise RuleError(f"Enter the dice as numbers from 1 to {sides}.", key)
    values = [raw] if isinstance(raw, int) else parse_values(raw) if isinstance(raw, str) else raw
    if not isinstance(values, list) or len(values) > 60:
        raise RuleError("Enter at most 60 dice, separated by spaces.", key)
    out = []
    for value in values:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RuleError(f"Each die must be a whole number from 1 to {sides}; got {value!r}.", key)
        out.append(value)
    return out


def groups_arg(args: dict, key: str) -> list | None:
    """Dice for several rollers: "5 6 / 2 1" (one group per ship, in the order listed) or one flat list."""
    raw = args.get(key)
    if isinstance(raw, str) and "/" in raw:
        return [dice_arg({key: part}, key) or [] for part in raw.split("/")]
    return dice_arg(args, key)


def flag(args: dict, key: str) -> bool:
    return args.get(key) not in (None, "", 0, "0", False, "false", "no", "off")


def modifier_arg(args: dict, key: str = "modifier") -> int:
    return need_int(args, key, -6, 6, default=0) if args.get(key) not in (None, "") else 0


def inches(args: dict, key: str, label: str) -> float | int:
    raw = args.get(key)
    if isinstance(raw, str):
        try:
            raw = float(raw.strip().rstrip('"'))
        except ValueError:
            raise RuleError(f"{label} must be a distance in inches, e.g. 7 or 7.5.", key) from None
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw != raw:
        raise RuleError(f"{label} must be a distance in inches, e.g. 7 or 7.5.", key)
    if raw < 0 or raw > 1000:
        raise RuleError(f"{label} must be from 0 to 1000 inches.", key)
    return int(raw) if float(raw).is_integer() else raw


def luck(expected: float, actual: float, what: str) -> dict:
    return {"expected": round(float(expected), 4), "actual": float(actual), "what": what}


# --- the wind ---------------------------------------------------------------------------------

def wind_gauge(state: dict) -> dict:
    gauge = state["trackers"].get("wind")
    if gauge is None:
        raise RuleError("This table has no wind gauge.", "wind")
    return gauge


def wind_position(state: dict) -> int:
    gauge = wind_gauge(state)
    return gauge["positions"][gauge["index"]]


def set_wind(state: dict, position: int) -> None:
    gauge = wind_gauge(state)
    gauge["index"] = gauge["positions"].index(position)


def fate_discard(state: dict) -> list[dict]:
    deck = state["decks"].get("fate")
    return [deck["cards"][cid] for cid in deck["discard"]] if deck else []


def wind_strength(state: dict) -> int:
    """Seed 002, Wind Strength: the top Fate discard's number; 1 when there is none."""
    return df.wind_strength(fate_discard(state))


# --- activations ------------------------------------------------------------------------------

def in_play(state: dict) -> list[dict]:
    docked = books(state)["docked"]
    return [state["units"][uid] for uid in state["unit_order"]
            if not state["units"][uid]["removed"] and uid not in docked]


def acts_last(state: dict, unit: dict) -> bool:
    # seed 002, Sea Monsters: its own Action phase after all others, unless Count Noctilus controls it
    return is_monster(unit) and not status_on(unit, "Controlled by Count Noctilus")


def waiting(state: dict, side: str | None = None) -> list[dict]:
    """Ships not yet activated this turn (sea monsters that act last are not counted)."""
    return [u for u in in_play(state) if not u["activated"] and not acts_last(state, u)
            and (side is None or u["side"] == side)]


def side_to_go(state: dict, last: str | None) -> str | None:
    """Seed 002, Action: alternate; a player out of warships lets the other activate the rest."""
    now = turn(state)
    if last is None:
        order = [now["first"], opponent(state, now["first"])] if now["first"] else sides(state)
    else:
        order = [opponent(state, last), last]
    return next((side for side in order if waiting(state, side)), None)


def current(state: dict, uid: str, what: str) -> dict:
    """The unit, which must be the warship being activated now (Action phase)."""
    need_phase(state, "Action", what)
    unit = unit_at_sea(state, uid)
    if turn(state)["current"] != uid:
        raise RuleError(f"{what} is part of a warship's activation: activate the {unit['name']} first.", "unit")
    return unit


def reach_step(state: dict, uid: str, step: int, what: str) -> None:
    """Orders, Movement, Broadsides, Boarding Actions come in this order (seed 002, Action a-d)."""
    steps = turn(state)["steps"]
    done = steps.get(uid, -1)
    if done > step:
        raise RuleError(f"{what} comes in the {STEPS[step]} sub-phase; the "
                        f"{state['units'][uid]['name']} is already in {STEPS[done]}.", "unit")
    steps[uid] = step


# --- the order cards (seed 002, Setup: a hand of 5; Order Cards) -------------------------------

def orders_out(state: dict, side: str) -> dict:
    """Order cards of a side that are out of its hand now: {order: unit id}.

    Fire As She Bears stays in play until resolved, its warship sinks or it gets a new order; the
    others are resolved in the warship's own activation and are back in hand once it is over.
    """
    out = {}
    now = turn(state)
    for order, held in books(state)["orders"].get(side, {}).items():
        unit = state["units"].get(held["unit"])
        if unit is None or unit["removed"]:
            continue
        if order == "Fire As She Bears" or (phase(state) == "Action" and held["round"] == state["round"]
                                            and now["current"] == held["unit"]):
            out[order] = held["unit"]
    return out


def hand(state: dict, side: str) -> list[str]:
    out = orders_out(state, side)
    return [order for order in df.ORDERS if order not in out]


def order_held(state: dict, uid: str, order: str) -> bool:
    unit = state["units"][uid]
    return orders_out(state, unit["side"]).get(order) == uid


def resolve_order(state: dict, uid: str, order: str) -> None:
    """Once resolved, an Order card goes back to its player's hand (seed 002, Order Cards)."""
    side = state["units"][uid]["side"]
    held = books(state)["orders"].get(side, {})
    if held.get(order, {}).get("unit") == uid:
        del held[order]


# --- set-up -----------------------------------------------------------------------------------

def _new_unit(state: dict, uid: str, name: str, side: str, template: str, stats: dict, made: dict) -> None:
    # copies: the stored payload must not change when the unit's trackers do later in this apply
    state["units"][uid] = {"id": uid, "name": name, "side": side, "template": template,
                          "stats": copy.deepcopy(stats), "trackers": copy.deepcopy(made), "activated": False,
                          "removed": False}
    state["unit_order"].append(uid)
    state["next_unit"] += 1


def _made(system, template: str, stats: dict) -> dict:
    return {spec["id"]: trackers.create(spec, stats) for spec in system.templates[template].get("trackers", [])}


@action("df-warship", systems=GAME)
def put_to_sea(state: dict, p: dict) -> str:
    """Put a warship to sea from its Warship card, with its auxiliaries docked inside it."""
    if any(u["name"] == p["units"][0]["name"] and u["template"] == "warship" for u in state["units"].values()):
        raise RuleError(f"The {p['units'][0]['name']} is already at sea.", "name")
    game = books(state)
    for i, unit in enumerate(p["units"]):
        if unit["unit"] != f"u{state['next_unit']}":
            raise RuleError("The table changed while the warship was being added; try again.", "unit")
        _new_unit(state, unit["unit"], unit["name"], unit["side"], unit["template"], unit["stats"],
                  unit["trackers"])
        if i:
            # seed 002, Auxiliaries: "Unless specified, auxiliaries start the game inside their parent"
            game["parent"][unit["unit"]] = game["docked"][unit["unit"]] = p["units"][0]["unit"]
    ship = p["units"][0]
    aux = [u["name"] for u in p["units"][1:]]
    missing = " (no auxiliary card entered)" if p.get("aux_missing") else ""
    return f"{ship['name']} ({ship['side']}) puts to sea" + (f" with {', '.join(aux)} docked" if aux else missing)


@put_to_sea.decider
def decide_put_to_sea(state: dict, args: dict, ctx) -> dict:
    name = df.canonical_name(args.get("name") or "")
    if name not in df.WARSHIPS:
        raise RuleError(f"Choose one of the ten warships ({', '.join(df.WARSHIPS)}).", "name")
    side, auxiliaries = df.WARSHIPS[name]
    if side not in state["sides"]:
        raise RuleError(f"The {name} sails for the {side}, which is not a side at this table.", "side")
    card = df.validate_warship({**(args.get("stats") or {}), "sail": flag(args, "sail")})
    stats = {**{k: card[k] for k in df.WARSHIP_STATS}, "sail": int(card["sail"]), "captain": True,
             "has_handling": True}
    units = [{"unit": f"u{state['next_unit']}", "name": name, "side": side, "template": "warship",
              "stats": stats, "trackers": _made(ctx.system, "warship", stats)}]
    raw_aux = args.get("aux") or {}
    if auxiliaries and any(raw_aux.get(k) not in (None, "") for k in df.AUXILIARY_STATS):
        aux = df.validate_warship({k: raw_aux.get(k) for k in df.AUXILIARY_STATS}, auxiliary=True)
        for n, aux_name in enumerate(auxiliaries, start=1):
            aux_stats = {**{k: aux[k] for k in df.AUXILIARY_STATS}, "flying": int(df.is_flying(aux_name)),
                         "auxiliary": True}
            label = f"{aux_name}{f' {n}' if len(auxiliaries) > 1 else ''} ({name})"
            units.append({"unit": f"u{state['next_unit'] + n}", "name": label, "side": side,
                          "template": "auxiliary", "stats": aux_stats,
                          "trackers": _made(ctx.system, "auxiliary", aux_stats)})
    return {"units": units, "aux_missing": bool(auxiliaries) and len(units) == 1}


@action("df-scenario", systems=GAME)
def scenario(state: dict, p: dict) -> str:
    """Say which scenario is played: its name, how many turns, the victory conditions."""
    name = " ".join(str(p.get("name") or "").split())
    if not name or len(name) > 60:
        raise RuleError("Name the scenario (1 to 60 characters).", "name")
    turns = need_int(p, "turns", 1, 99) if p.get("turns") not in (None, "") else None
    victory = " ".join(str(p.get("victory") or "").split())
    if len(victory) > 200:
        raise RuleError("Victory conditions are at most 200 characters.", "victory")
    books(state)["scenario"] = {"name": name, "turns": turns, "victory": victory}
    return f"Scenario: {name}" + (f", {turns} turns" if turns else ", no turn limit")


@action("df-wind-place", systems=GAME, chance=True)
def place_wind(state: dict, p: dict) -> str:
    """Place the wind gauge at set-up: a red die for the first number, a white die for the second."""
    game = books(state)
    if game["wind_placed"]:
        raise RuleError("The wind gauge is already placed; Fate cards move it from now on.", "wind")
    set_wind(state, p["position"])
    game["wind_placed"] = True
    return p["summary"] + (" (real dice)" if p.get("real") else "")


@place_wind.decider
def decide_place_wind(state: dict, args: dict, ctx) -> dict:
    if books(state)["wind_placed"]:
        raise RuleError("The wind gauge is already placed; Fate cards move it from now on.", "wind")
    dice = dice_arg(args, "dice")
    result = df.place_wind(dice, ctx.rng)
    return {**result, "dice": [result["red"], result["white"]], "real": dice is not None}


# --- 1: Initiative (seed 002, The Game Turn 1) -------------------------------------------------

@action("df-initiative", systems=GAME, chance=True)
def initiative(state: dict, p: dict) -> str:
    """Roll off for the initiative: the higher die wins (a tie rolls again)."""
    need_phase(state, "Initiative", "The initiative roll-off")
    now = turn(state)
    if now["initiative"] and now["initiative"]["winner"]:
        raise RuleError(f"{now['initiative']['winner']} already has the initiative this turn.", "initiative")
    now["initiative"] = {"rolls": p["rolls"], "winner": p["winner"]}
    return p["summary"]


@initiative.decider
def decide_initiative(state: dict, args: dict, ctx) -> dict:
    need_phase(state, "Initiative", "The initiative roll-off")
    now = turn(state)
    if now["initiative"] and now["initiative"]["winner"]:
        raise RuleError(f"{now['initiative']['winner']} already has the initiative this turn.", "initiative")
    result = df.initiative_roll_off(dice_arg(args, "dice"), ctx.rng, tuple(sides(state)))
    return {**result, "dice": list(result["rolls"].values())}


@action("df-first", systems=GAME)
def choose_first(state: dict, p: dict) -> str:
    """The initiative winner chooses who is first player: {"first": side}."""
    need_phase(state, "Initiative", "Choosing the first player")
    now = turn(state)
    winner = (now["initiative"] or {}).get("winner")
    if not winner:
        raise RuleError("Roll off for the initiative first.", "initiative")
    if now["first"]:
        raise RuleError(f"{now['first']} is already first player this turn.", "first")
    first = p.get("first")
    if first not in sides(state):
        raise RuleError(f"first must be {' or '.join(sides(state))}.", "first")
    now["first"] = first
    state["active_side"] = first
    how = "first" if first == winner else "second"
    return f"{winner} has the initiative and goes {how}: {first} is first player"


# --- 3: Fate (seed 002, The Game Turn 3; Fate; Wind Strength) ----------------------------------

def next_to_draw(state: dict) -> str:
    now = turn(state)
    if not now["first"]:
        raise RuleError("Settle the initiative first: the first player draws the first Fate card.", "initiative")
    for side in (now["first"], opponent(state, now["first"])):
        if side not in now["fate"]:
            return side
    raise RuleError("Both players have drawn their Fate card this turn.", "side")


@action("df-fate", systems=GAME, chance=True)
def fate(state: dict, p: dict) -> str:
    """Draw and resolve a Fate card; the wind gauge moves by its markers (or is re-placed on 2D6)."""
    need_phase(state, "Fate", "Drawing a Fate card")
    if not books(state)["wind_placed"]:
        raise RuleError("Place the wind gauge first (2D6 at set-up).", "wind")
    side = next_to_draw(state)
    if p["side"] != side:
        raise RuleError(f"{side} draws the next Fate card.", "side")
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
    return (f"{side} draws {card['name']} ({', '.join(t for t in tags if t)}, wind {card.get('wind')}): "
            f"{moved['summary'].split(': ', 1)[-1]}; wind strength {wind_strength(state)}")


@fate.decider
def decide_fate(state: dict, args: dict, ctx) -> dict:
    need_phase(state, "Fate", "Drawing a Fate card")
    if not books(state)["wind_placed"]:
        raise RuleError("Place the wind gauge first (2D6 at set-up).", "wind")
    side = args.get("side") or next_to_draw(state)
    if side != next_to_draw(state):
        raise RuleError(f"{next_to_draw(state)} draws the next Fate card.", "side")
    deck = state["decks"]["fate"]
    if deck["mode"] == "physical":
        card = df.validate_card(physical_card(args), "fate")
        steps = [{"step": "record", "card": card, "to": "discard"}]
    else:
        if not deck["draw"] and not deck["discard"]:
            raise RuleError("The Fate deck is empty: load your Fate cards (or the example) first.", "deck")
        steps = decks.plan_draw(deck, ctx.rng, "discard", 1)
        card = next(s for s in reversed(steps) if s["step"] == "draw")
        card = deck["cards"][card["card"]]
        df.validate_card(card, "fate")
    wind_dice = None
    if card.get("markers") == "2D6":
        wind_dice = dice_arg(args, "wind_dice") or [ctx.rng.randint(1, 6), ctx.rng.randint(1, 6)]
        df.place_wind(wind_dice)
    return {"side": side, "deck": "fate", "steps": steps, "wind_dice": wind_dice,
            "dice": wind_dice or []}


def physical_card(args: dict) -> dict:
    """A card typed from the real deck: form fields card.name, card.wind ... with yes/no flags."""
    raw = dict(args.get("card") or {})
    for key in ("br", "irreparable"):
        if key in raw:
            raw[key] = flag(raw, key)
    for key in ("wind", "value"):
        if isinstance(raw.get(key), str) and raw[key].strip().isdigit():
            raw[key] = int(raw[key])
    if isinstance(raw.get("markers"), str) and raw["markers"].strip().isdigit():
        raw["markers"] = int(raw["markers"])
    return {k: v for k, v in raw.items() if v not in (None, "")}


@action("df-place-card", systems=GAME)
def place_card(state: dict, p: dict) -> str:
    """Put this turn's Fate card that stays in play (Status, Spell, Upgrade, Shot) on a ship."""
    need_phase(state, "Fate", "Placing a Fate card")
    now = turn(state)
    deck = state["decks"]["fate"]
    cid = p.get("card")
    drawer = next((side for side, drawn in now["drawn"].items() if drawn == cid), None)
    if drawer is None or cid not in deck["discard"]:
        raise RuleError("Only a Fate card drawn this turn, still on the discard pile, can be placed.", "card")
    card = deck["cards"][cid]
    kind = card.get("kind")
    if kind not in ("Status", "Spell", "Upgrade", "Shot"):
        raise RuleError(f"{card['name']} is an immediate card: it is resolved and discarded.", "card")
    unit = unit_at_sea(state, p.get("unit"))
    if kind == "Upgrade" and (unit["side"] != drawer or is_monster(unit)):
        # seed 002, Status Cards: "one of your Warship or Cog Auxiliary cards"
        raise RuleError(f"An Upgrade goes on one of {drawer}'s own Warship or Cog cards.", "unit")
    problem = df.attach_problem(card, status_cards(state, unit["id"]), unit["name"])
    if problem:
        raise RuleError(problem, "unit")
    decks.apply_steps(deck, [{"step": "move", "card": cid, "to": f"unit:{unit['id']}"}])
    flipped = ""
    if card["name"].strip().casefold() == df.SET_ABLAZE.casefold() and status_on(unit, df.AT_ANCHOR):
        set_status(unit, df.AT_ANCHOR, False)  # seed 002, Dropping Anchor: "flip the card over"
        flipped = ", no longer at anchor"
    return f"{card['name']} ({kind}) placed on the {unit['name']}{flipped}; wind strength {wind_strength(state)}"


# --- 4: Action - activations (seed 002, The Game Turn 4) ---------------------------------------

@action("df-activate", systems=GAME)
def activate(state: dict, p: dict) -> str:
    """Activate a ship: players alternate; sea monsters act after every other ship."""
    need_phase(state, "Action", "Activating a warship")
    now = turn(state)
    if not now["first"]:
        raise RuleError("Settle the initiative first: the first player activates first.", "initiative")
    unit = unit_at_sea(state, p.get("unit"))
    if unit["activated"]:
        raise RuleError(f"The {unit['name']} has already been activated this turn.", "unit")
    if acts_last(state, unit):
        if waiting(state):
            raise RuleError("Sea monsters act after every warship has been activated.", "unit")
        if unit["id"] not in now["control"]:
            raise RuleError(f"First say who controls the {unit['name']} (the nearest warship's opponent).", "unit")
    else:
        last = next((state["units"][uid]["side"] for uid in reversed(now["activated"])
                     if not acts_last(state, state["units"][uid])), None)
        to_go = side_to_go(state, last)  # afresh: a ship deployed or sunk since changes who is waiting
        if unit["side"] != to_go:
            raise RuleError(f"It is {to_go}'s turn to activate a ship.", "unit")
    unit["activated"] = True
    now["current"] = unit["id"]
    now["activated"].append(unit["id"])
    if not acts_last(state, unit):
        now["to_go"] = side_to_go(state, unit["side"])
    state["active_side"] = now["to_go"]
    after = f"; {now['to_go']} to go" if now["to_go"] else (
        "; every warship has been activated" + ("" if not any(acts_last(state, u) and not u["activated"]
                                                            for u in in_play(state)) else ": sea monsters next"))
    return f"{unit['name']} activated{after}"


# --- reminders at each phase's start ------------------------------------------------------------

def reminders(state: dict) -> list[str]:
    """Seed 002, The Game Turn: what the players must not forget as each phase starts."""
    if not state.get("units") and not state.get("game"):
        return []
    game = books(state)
    now = phase(state)
    out = []
    first = (game.get("turn") or {}).get("first") if (game.get("turn") or {}).get("round") == state["round"] else None
    if now == "Initiative" and not game["wind_placed"]:
        out.append("Place the wind gauge: roll a red and a white die (set-up).")
    if now == "Status":
        order = [first, opponent(state, first)] if first else sides(state)
        for side in order:
            for unit in in_play(state):
                if unit["side"] != side:
                    continue
                red = [card["name"] for _, _, card in cards_on(state, unit["id"]) if card.get("kind") == "Status"]
                active = unit["trackers"].get("status", {}).get("active", {})
                red += [f"{name} ×{entry['count']}" if entry.get("count") else name
                        for name, entry in active.items() if name == df.SET_ABLAZE]
                if red:
                    out.append(f"{unit['name']} ({side}): {', '.join(red)}")
        if len(out) == 0:
            out.append("No red Status cards in play.")
    if now == "Fate":
        out.append(f"{first} draws the first Fate card." if first else
                   "Nobody has the initiative yet: roll off in the Initiative phase.")
    if now == "Action":
        out += [f"{state['units'][uid]['name']} still owes {n} Damage card{'s' if n != 1 else ''} from the real deck."
                for uid, n in game["owed"].items() if n and not state["units"][uid]["removed"]]
    if now == "End":
        limit = game["scenario"].get("turns")
        if limit and state["round"] >= limit:
            out.append(f"Turn {state['round']} of {limit}: the scenario's turns have run out - the game ends.")
        elif limit:
            out.append(f"Turn {state['round']} of {limit}: check the victory conditions.")
        else:
            out.append("No turn limit set: check the victory conditions.")
    return out

