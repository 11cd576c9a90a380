"""Dreadfleet fighting: broadsides, Damage cards, captains' duels and boarding actions, auxiliaries,
treasure tokens and sea monsters (seed 002, Broadsides; Damage Cards; Boarding Actions; Duelling;
Auxiliaries; Treasure Tokens; Sea Monsters).  The procedures are in ``companion.games.dreadfleet.rules``.

Every Damage card is drawn in the decider (a virtual deck) and applied card by card in ``apply``:
the ship's Hull/Crew/Speed damage counters go up by the card's value and a ship whose Hull or
Crew damage reaches its characteristic is removed, its cards going to their discard piles.
"""
from __future__ import annotations

from companion.actions import action
from companion.games.dreadfleet.actions import (
    GAME, _made, _new_unit, books, current, dice_arg, flag, groups_arg, inches, is_auxiliary, is_monster,
    is_warship, luck, modifier_arg, need_phase, now_stat, order_held, physical_card, reach_step, resolve_order,
    set_status, sides, status_cards, status_on, turn, unit_at_sea, wounds,
)
from companion.rules import RuleError
from companion.games.dreadfleet import rules as df
from companion.trackers import deck as decks
from companion.trackers import need_int

COUNTERS = {"Hull": "hull_damage", "Crew": "crew_damage", "Speed": "speed_damage"}


# --- Damage cards -------------------------------------------------------------------------------

def card_type(card: dict) -> str | None:
    wanted = str(card.get("type", "")).strip().casefold()
    return next((kind for kind in df.DAMAGE_TYPES if kind.casefold() == wanted), None)


def _bump(unit: dict, tracker_id: str, by: int) -> None:
    tracker = unit["trackers"].get(tracker_id)
    if tracker and tracker.get("kind") == "counter":
        tracker["value"] = min(tracker["max"], max(tracker["min"], tracker["value"] + by))


def _value(card: dict) -> int:
    value = card.get("value", 1)  # seed 002, Damage Cards: a 'double' or 'triple' counts 2 or 3
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def lay_damage(unit: dict, card: dict) -> None:
    if card_type(card) in COUNTERS:
        _bump(unit, COUNTERS[card_type(card)], _value(card))


def lift_damage(unit: dict, card: dict) -> None:
    if card_type(card) in COUNTERS:
        _bump(unit, COUNTERS[card_type(card)], -_value(card))


def _hurt(unit: dict, damage: dict) -> bool:
    return any(damage[key] >= unit["stats"].get(key.split("_")[0], 10 ** 6) for key in ("hull_damage", "crew_damage"))


def sunk(unit: dict) -> bool:
    """Seed 002, Damage Cards: Hull or Crew damage equal to or above the characteristic."""
    return _hurt(unit, {key: unit["trackers"].get(key, {}).get("value", 0) for key in ("hull_damage", "crew_damage")})


def sink(state: dict, uid: str) -> None:
    """Seed 002, Characteristics: remove it and place all cards that applied to it on their discards."""
    unit = state["units"][uid]
    unit["removed"] = True
    for deck in state["decks"].values():
        for cid in list(deck["attached"].get(uid, [])):
            decks.apply_steps(deck, [{"step": "move", "card": cid, "to": "discard"}])
    game = books(state)
    tokens = unit["trackers"].get("treasure", {}).get("value", 0)
    if tokens:
        # seed 002, Treasure Tokens: "leave any tokens at the spot where the warship sank"
        unit["trackers"]["treasure"]["value"] = 0
        game["adrift"] += tokens
    game["owed"].pop(uid, None)


def damage_ready(state: dict) -> None:
    """Refuse to roll when the Damage cards the roll may call for cannot be drawn."""
    deck = state["decks"]["damage"]
    if deck["mode"] == "virtual" and not deck["cards"]:
        raise RuleError("The Damage deck is empty: load your Damage cards (or the example, or use the real "
                        "deck) before rolling.", "deck")


def plan_damage(state: dict, rng, draws: list[tuple[str, int]]) -> list[dict]:
    """Draw each ship's Damage cards one by one, stopping when it is destroyed."""
    deck = state["decks"]["damage"]
    if deck["mode"] != "virtual":
        return []
    sim = {**deck, "draw": list(deck["draw"]), "discard": list(deck["discard"]),
           "attached": {k: list(v) for k, v in deck["attached"].items()}}
    steps: list[dict] = []
    for uid, count in draws:
        unit = state["units"][uid]
        damage = {key: unit["trackers"].get(key, {}).get("value", 0) for key in ("hull_damage", "crew_damage")}
        got, tries = 0, 0
        while got < count and not _hurt(unit, damage):
            tries += 1
            if tries > 2 * len(deck["cards"]) + count:
                raise RuleError(f"Only Special cards are left to draw for the {unit['name']}.", "deck")
            one = decks.plan_draw(sim, rng, f"unit:{uid}", 1)
            draw = one[-1]
            card = sim["cards"][draw["card"]]
            if is_auxiliary(unit) and card_type(card) == "Special":
                draw["to"] = "discard"  # seed 002, Auxiliaries: a Special card is discarded, draw another
            else:
                got += 1
                kind = COUNTERS.get(card_type(card))
                if kind in damage:
                    cap = unit["trackers"][kind]["max"]
                    damage[kind] = min(cap, damage[kind] + _value(card))
            decks.apply_steps(sim, one)
            steps += one
    return steps


def plan_of_type(deck: dict, rng, wanted: str, to: str) -> list[dict]:
    """Seed 002, Damage Cards: draw until a card of the type, discarding the others; if none has come
    by the end of the deck, "apply the last card drawn instead of discarding it" (an empty deck is
    reshuffled first, as at any draw)."""
    sim = {**deck, "draw": list(deck["draw"]), "discard": list(deck["discard"]),
           "attached": {k: list(v) for k, v in deck["attached"].items()}}
    steps: list[dict] = []
    while not steps or sim["draw"]:
        one = decks.plan_draw(sim, rng, "discard", 1)
        decks.apply_steps(sim, one)
        steps += one
        if card_type(sim["cards"][one[-1]["card"]]) == wanted:
            break
    steps[-1]["to"] = to
    return steps


def resolve_damage(state: dict, steps: list[dict]) -> list[str]:
    """Apply planned (or recorded) Damage draws card by card; returns what happened."""
    deck = state["decks"]["damage"]
    notes = []
    for step in steps:
        to = step.get("to", "")
        if to.startswith("unit:") and state["units"][to[5:]]["removed"]:
            raise RuleError(f"The {state['units'][to[5:]]['name']} is no longer in play.", "unit")
        ids = decks.apply_steps(deck, [step])
        if step["step"] == "reshuffle":
            notes.append("Damage discards reshuffled into a new deck")
        if not ids:
            continue
        card = deck["cards"][ids[0]]
        if not to.startswith("unit:"):
            notes.append(f"{card['name']} discarded")
            continue
        unit = state["units"][to[5:]]
        lay_damage(unit, card)
        notes.append(f"{card['name']} on the {unit['name']}")
        if sunk(unit):
            sink(state, unit["id"])
            notes.append(f"the {unit['name']} is destroyed")
    return notes


def owe(state: dict, uid: str, count: int) -> None:
    """Physical Damage deck: the cards the ship must draw from the real deck and record."""
    if count:
        owed = books(state)["owed"]
        owed[uid] = owed.get(uid, 0) + count


def _told(notes: list[str], owed: int, name: str) -> str:
    text = ": " + "; ".join(notes) if notes else ""
    if owed:
        text += f"; the {name} draws {owed} from the real Damage deck"
    return text


# --- broadsides (seed 002, Broadsides 1-7; Fire As She Bears) -----------------------------------

def fired_before(state: dict, unit: dict) -> bool:
    """Whether the ship has fired this scenario (its First Broadside box, or the game's books)."""
    box = unit["trackers"].get("first_broadside")
    if box and box.get("kind") == "boxes":
        return bool(box["marked"][0])
    return unit["id"] in books(state)["fired"]


def _shot_check(state: dict, args: dict) -> tuple[dict, dict, bool]:
    need_phase(state, "Action", "A broadside")
    firer = unit_at_sea(state, args.get("firer"), "firer")
    target = unit_at_sea(state, args.get("target"), "target")
    if firer is target:
        raise RuleError("A ship cannot fire at itself: choose another target.", "target")
    now = turn(state)
    fasb = flag(args, "fasb")
    if fasb:
        if not order_held(state, firer["id"], "Fire As She Bears"):
            raise RuleError(f"The {firer['name']} has no Fire As She Bears order in play.", "fasb")
    else:
        if now["current"] != firer["id"]:
            raise RuleError(f"The {firer['name']} fires in its own activation (activate it first) or with "
                            "Fire As She Bears.", "firer")
        if firer["id"] in now["fired"]:
            raise RuleError(f"The {firer['name']} has already fired its broadside this activation.", "firer")
        reach_step(state, firer["id"], 2, "A broadside")
    return firer, target, fasb


def shot_options(state: dict, args: dict, firer: dict, target: dict) -> dict:
    """The keyword options of a shot; a first broadside is found from the books, not asked."""
    return {"partial": flag(args, "partial"), "raking": flag(args, "raking"),
            "first_broadside": not fired_before(state, firer), "modifier": modifier_arg(args),
            "target_is_auxiliary": is_auxiliary(target)}


@action("df-broadside", systems=GAME, chance=True)
def broadside(state: dict, p: dict) -> str:
    """Fire a broadside: to hit by range, armour saves, a Damage card per unsaved hit drawn at once."""
    firer, target, fasb = _shot_check(state, p)
    if p["first"] == fired_before(state, firer):
        raise RuleError("The table changed since the shot was rolled; fire again.", "firer")
    box = firer["trackers"].get("first_broadside")
    if box and box.get("kind") == "boxes":
        box["marked"][0] = True
    books(state)["fired"].append(firer["id"])
    if fasb:
        resolve_order(state, firer["id"], "Fire As She Bears")
    else:
        turn(state)["fired"].append(firer["id"])
    notes = resolve_damage(state, p["steps"])
    owe(state, target["id"], p["owed"])
    shot = p["shot"]
    bonus = []
    if p["first"]:
        bonus.append("first broadside +1")
    if p.get("raking"):
        bonus.append("raking +1")
    extra = f" ({', '.join(bonus)})" if bonus else ""
    return (f"{firer['name']} fires{' as she bears' if fasb else ''} at the {target['name']}, "
            f"{shot['band']} range{extra}: {shot['dice']} dice at {shot['hits_on']}+, {shot['hits']} hits, "
            f"{shot['saved']} saved → {shot['unsaved']} Damage card{'s' if shot['unsaved'] != 1 else ''}"
            + _told(notes, p["owed"], target["name"]))


@broadside.decider
def decide_broadside(state: dict, args: dict, ctx) -> dict:
    firer, target, fasb = _shot_check(state, args)
    distance = inches(args, "distance", "The range")
    options = shot_options(state, args, firer, target)
    odds = df.broadside_odds(firer["stats"].get("broadside", 0), distance, target["stats"]["armour"], **options)
    damage_ready(state)
    hits = dice_arg(args, "dice")
    shot = df.broadside(firer["stats"].get("broadside", 0), distance, target["stats"]["armour"], **options,
                        dice=hits, save_dice=dice_arg(args, "save_dice"), rng=None if hits else ctx.rng,
                        firer=firer["name"], target=target["name"])
    if shot["awaiting"]:
        raise RuleError(f"{shot['hits']} hit{'s' if shot['hits'] != 1 else ''}: now enter the "
                        f"{shot['hits']} armour save{'s' if shot['hits'] != 1 else ''} rolled for the "
                        f"{target['name']} (Armour {shot['armour']}+).", "save_dice")
    steps = plan_damage(state, ctx.rng, [(target["id"], shot["unsaved"])])
    physical = state["decks"]["damage"]["mode"] != "virtual"
    return {"firer": firer["id"], "target": target["id"], "fasb": fasb, "first": options["first_broadside"],
            "raking": options["raking"], "shot": {k: v for k, v in shot.items() if k != "summary"},
            "dice": shot["hit_dice"], "real": hits is not None, "steps": steps,
            "owed": shot["unsaved"] if physical else 0,
            "luck": luck(odds["mean"], shot["unsaved"], "Damage cards")}


# --- Damage cards drawn for other reasons (seed 002, Running Aground; Damage Cards) -------------

@action("df-damage", systems=GAME, chance=True)
def damage(state: dict, p: dict) -> str:
    """Draw Damage cards for a ship: one or more, until a Hull result (run aground), or of a type."""
    unit = unit_at_sea(state, p.get("unit"))
    notes = resolve_damage(state, p["steps"])
    if p["mode"] == "aground":
        set_status(unit, "Run Aground", True)
    if p["mode"] == "record":
        owed = books(state)["owed"]
        if owed.get(unit["id"]):
            owed[unit["id"]] -= 1
            if not owed[unit["id"]]:
                del owed[unit["id"]]
    what = {"aground": "runs aground, draws until a Hull card", "type": f"draws for a {p.get('value')} card",
            "record": "draws from the real Damage deck"}.get(p["mode"], "draws Damage")
    return f"{unit['name']} {what}" + _told(notes, 0, unit["name"])


@damage.decider
def decide_damage(state: dict, args: dict, ctx) -> dict:
    unit = unit_at_sea(state, args.get("unit"))
    deck = state["decks"]["damage"]
    mode = args.get("mode") or "card"
    if mode == "aground" and is_auxiliary(unit):
        raise RuleError("Auxiliaries do not run aground when they touch islands or wrecks.", "mode")
    if deck["mode"] == "physical":
        card = df.validate_card(physical_card(args), "damage")
        to = "discard" if is_auxiliary(unit) and card["type"] == "Special" else f"unit:{unit['id']}"
        return {"unit": unit["id"], "mode": "record", "steps": [{"step": "record", "card": card, "to": to}]}
    damage_ready(state)
    if mode == "card":
        steps = plan_damage(state, ctx.rng, [(unit["id"], need_int(args, "count", 1, 10, default=1))])
    elif mode in ("aground", "type"):
        wanted = "Hull" if mode == "aground" else card_type({"type": args.get("value")})
        if wanted is None:
            raise RuleError(f"Choose the card type: {', '.join(df.DAMAGE_TYPES)}.", "value")
        steps = plan_of_type(deck, ctx.rng, wanted, f"unit:{unit['id']}")
        args = {**args, "value": wanted}
    else:
        raise RuleError("mode must be card, aground or type.", "mode")
    return {"unit": unit["id"], "mode": mode, "value": args.get("value"), "steps": steps}


# --- captains' duels and boarding actions (seed 002, Boarding Actions; Duelling) ----------------

def _boarders(state: dict, args: dict, what: str) -> tuple[list[dict], list[dict], str]:
    need_phase(state, "Action", what)
    picked = args.get("ships")
    if isinstance(picked, dict):
        picked = [uid for uid, on in picked.items() if on not in (None, "", 0, "0")]
    elif isinstance(picked, str):
        picked = picked.replace(",", " ").split()
    if not isinstance(picked, list):
        picked = []
    ships = [unit_at_sea(state, uid, "ships") for uid in dict.fromkeys(picked)]
    first, second = sides(state)
    groups = [[u for u in ships if u["side"] == first], [u for u in ships if u["side"] == second]]
    if not groups[0] or not groups[1] or len(groups[0]) + len(groups[1]) != len(ships):
        raise RuleError("Tick the ships in base contact, at least one of each side.", "ships")
    now = turn(state)
    if now["current"] not in {u["id"] for u in ships}:
        raise RuleError(f"{what} is fought in an activated ship's Boarding Actions sub-phase: activate one of "
                        "these ships first.", "ships")
    reach_step(state, now["current"], 3, what)
    key = f"{now['current']}:{','.join(sorted(u['id'] for u in ships))}"
    return groups[0], groups[1], key


def _captains(group: list[dict]) -> list[dict]:
    return [{"name": u["name"], "swashbuckling": u["stats"].get("swashbuckling", 0), "wounds": wounds(u)}
            for u in group if is_warship(u)]


def _duel_check(state: dict, args: dict) -> tuple[list, list, str]:
    a, b, key = _boarders(state, args, "The captains' duel")
    if key in turn(state)["duels"]:
        raise RuleError("These captains have already duelled in this Boarding Actions sub-phase.", "ships")
    return a, b, key


@action("df-duel", systems=GAME, chance=True)
def duel(state: dict, p: dict) -> str:
    """The captains' duel that opens each Boarding Actions sub-phase: Swashbuckling dice, 5-6 a victory."""
    a, b, key = _duel_check(state, p)
    turn(state)["duels"].append(key)
    for unit, captain in zip([u for u in a + b if is_warship(u)], p["result"]["side_a"] + p["result"]["side_b"]):
        gauge = unit["trackers"].get("wounds")
        if gauge:
            gauge["index"] = gauge["positions"].index(min(captain["wounds"], gauge["positions"][-1]))
    return p["result"]["summary"]


@duel.decider
def decide_duel(state: dict, args: dict, ctx) -> dict:
    a, b, _ = _duel_check(state, args)
    result = df.captains_duel(_captains(a), _captains(b), groups_arg(args, "dice"), ctx.rng, tuple(sides(state)))
    rolled = [die for c in result["side_a"] + result["side_b"] for die in c["dice"]]
    mine = result["side_a"] if any(u["id"] == turn(state)["current"] for u in a) else result["side_b"]
    return {"ships": [u["id"] for u in a + b], "result": result, "dice": rolled,
            "luck": luck(sum(len(c["dice"]) for c in mine) / 3, sum(c["victories"] for c in mine),
                         "duel victories")}


def _boarding_check(state: dict, args: dict) -> tuple[list, list, str]:
    a, b, key = _boarders(state, args, "A boarding action")
    now = turn(state)
    if key in now["boardings"]:
        raise RuleError("This boarding action has already been fought in this Boarding Actions sub-phase.", "ships")
    able = [any(c["wounds"] < df.MORTAL_WOUNDS for c in _captains(group)) for group in (a, b)]
    if all(able) and key not in now["duels"]:
        raise RuleError("Fight the captains' duel first: it opens each Boarding Actions sub-phase.", "ships")
    return a, b, key


@action("df-boarding", systems=GAME, chance=True)
def boarding(state: dict, p: dict) -> str:
    """A (multiple) boarding action: Crew dice, 5-6 a victory; the side with fewer draws the difference."""
    _, _, key = _boarding_check(state, p)
    turn(state)["boardings"].append(key)
    notes = resolve_damage(state, p["steps"])
    for uid, count in p["owed"]:
        owe(state, uid, count)
    owed = sum(count for _, count in p["owed"])
    return p["result"]["summary"] + _told(notes, owed, "losers")


@boarding.decider
def decide_boarding(state: dict, args: dict, ctx) -> dict:
    a, b, _ = _boarding_check(state, args)

    def crews(group):
        return [{"name": u["name"], "crew": now_stat(u, "crew")} for u in group]
    damage_ready(state)
    result = df.boarding_action(crews(a), crews(b), groups_arg(args, "dice"), ctx.rng, tuple(sides(state)))
    draws = [(u["id"], ship["damage_cards"]) for u, ship in zip(a + b, result["side_a"] + result["side_b"])
             if ship["damage_cards"]]
    physical = state["decks"]["damage"]["mode"] != "virtual"
    mine = "side_a" if any(u["id"] == turn(state)["current"] for u in a) else "side_b"
    return {"ships": [u["id"] for u in a + b], "result": result,
            "dice": [die for ship in result["side_a"] + result["side_b"] for die in ship["dice"]],
            "steps": [] if physical else plan_damage(state, ctx.rng, draws), "owed": draws if physical else [],
            "luck": luck(sum(len(s["dice"]) for s in result[mine]) / 3, result["victories"][mine],
                         "boarding victories")}


# --- auxiliaries (seed 002, Auxiliaries; Docking Auxiliaries; Flying Auxiliaries) ----------------

def _deploy_check(state: dict, args: dict) -> tuple[dict, dict]:
    uid = args.get("unit")
    aux = state["units"].get(uid) if isinstance(uid, str) else None
    carrier_id = books(state)["docked"].get(uid)
    if aux is None or aux["removed"] or not carrier_id:
        raise RuleError("Choose an auxiliary docked with a warship.", "unit")
    carrier = current(state, carrier_id, "Deploying an auxiliary")
    now = turn(state)
    if carrier_id in now["moved"] or carrier_id in now["sail"]:
        raise RuleError("A warship deploys its auxiliary before it moves.", "unit")
    reach_step(state, carrier_id, 1, "Deploying an auxiliary")
    return aux, carrier


@action("df-deploy", systems=GAME, chance=True)
def deploy(state: dict, p: dict) -> str:
    """Deploy a docked auxiliary within 1" of its warship; a cog not at anchor or aground tests capsize."""
    aux, carrier = _deploy_check(state, p)
    del books(state)["docked"][aux["id"]]
    if p["result"]["capsized"]:
        aux["removed"] = True
    elif p.get("treasure"):
        tokens = carrier["trackers"].get("treasure", {}).get("value", 0)
        if p["treasure"] > tokens:
            raise RuleError(f"The {carrier['name']} carries only {tokens} treasure tokens.", "treasure")
        _bump(carrier, "treasure", -p["treasure"])
        _bump(aux, "treasure", p["treasure"])
    handed = f"; {p['treasure']} treasure handed over" if p.get("treasure") and not p["result"]["capsized"] else ""
    return f"The {carrier['name']} deploys {aux['name']}: {p['result']['summary']}{handed}"


@deploy.decider
def decide_deploy(state: dict, args: dict, ctx) -> dict:
    aux, carrier = _deploy_check(state, args)
    if aux["stats"].get("flying"):
        # seed 002, Flying Auxiliaries: "They do not take capsize tests"
        result = {"needed": False, "roll": None, "capsized": False, "summary": "it flies: no capsize test"}
    else:
        anchored = df.AT_ANCHOR in [c["name"] for c in status_cards(state, carrier["id"])]
        result = df.capsize_test(aux["name"], at_anchor=anchored,
                                 run_aground=status_on(carrier, "Run Aground"), dice=dice_arg(args, "capsize_dice"),
                                 rng=ctx.rng)
    treasure = need_int(args, "treasure", 0, 99, default=0)
    return {"unit": aux["id"], "result": result, "treasure": treasure,
            "dice": [result["roll"]] if result["roll"] else []}


@action("df-dock", systems=GAME)
def dock(state: dict, p: dict) -> str:
    """Dock an auxiliary with a warship of its fleet in base contact: it is repaired, hands over treasure."""
    need_phase(state, "Action", "Docking")
    aux = unit_at_sea(state, p.get("unit"))
    if is_monster(aux):
        raise RuleError("Sea monsters cannot dock.", "unit")
    if not is_auxiliary(aux):
        raise RuleError(f"The {aux['name']} is a warship: only auxiliaries dock.", "unit")
    ship = unit_at_sea(state, p.get("to"), "to")
    if not is_warship(ship) or ship["side"] != aux["side"]:
        raise RuleError(f"{aux['name']} docks only with a warship of its own fleet.", "to")
    game = books(state)
    if aux["stats"].get("flying") and game["parent"].get(aux["id"]) != ship["id"]:
        raise RuleError("Dwarf Dirigibles and Dragons may only dock with their parent warships.", "to")
    if turn(state)["current"] not in (aux["id"], ship["id"]):
        raise RuleError("An auxiliary docks as it comes into base contact: activate it or the warship first.", "unit")
    repaired = []
    deck = state["decks"]["damage"]
    for cid in list(deck["attached"].get(aux["id"], [])):
        card = deck["cards"][cid]
        if not card.get("irreparable"):  # seed 002, Repair: Irreparable cards "cannot be ... removed by any means"
            lift_damage(aux, card)
            decks.apply_steps(deck, [{"step": "move", "card": cid, "to": "discard"}])
            repaired.append(card["name"])
    tokens = aux["trackers"].get("treasure", {}).get("value", 0)
    if tokens:
        _bump(aux, "treasure", -tokens)
        _bump(ship, "treasure", tokens)
    game["docked"][aux["id"]] = ship["id"]
    return (f"{aux['name']} docks with the {ship['name']}"
            + (f", repaired ({', '.join(repaired)} discarded)" if repaired else "")
            + (f", hands over {tokens} treasure" if tokens else ""))


@action("df-treasure", systems=GAME)
def treasure(state: dict, p: dict) -> str:
    """Treasure tokens: an auxiliary collects one a turn, or hands tokens to another auxiliary."""
    need_phase(state, "Action", "Collecting or handing over treasure")
    unit = unit_at_sea(state, p.get("unit"))
    if is_warship(unit):
        raise RuleError("Unlike auxiliaries, warships cannot collect treasure tokens.", "unit")
    if "treasure" not in unit["trackers"]:
        raise RuleError(f"The {unit['name']} has no treasure tracker.", "unit")
    if p.get("op") == "collect":
        now = turn(state)
        if unit["id"] in now["collected"]:
            raise RuleError(f"The {unit['name']} has already collected a treasure token this turn.", "unit")
        now["collected"].append(unit["id"])
        _bump(unit, "treasure", 1)
        return f"{unit['name']} collects a treasure token ({unit['trackers']['treasure']['value']} carried)"
    if p.get("op") == "hand":
        if is_monster(unit):
            raise RuleError("Sea monsters may claim treasure tokens but not hand them over.", "unit")
        other = unit_at_sea(state, p.get("to"), "to")
        if not is_auxiliary(other) or is_monster(other) or other is unit:
            raise RuleError("Tokens are handed between auxiliaries in base contact.", "to")
        count = need_int(p, "count", 1, 99, default=1)
        if count > unit["trackers"]["treasure"]["value"]:
            raise RuleError(f"The {unit['name']} carries only {unit['trackers']['treasure']['value']} tokens.", "count")
        _bump(unit, "treasure", -count)
        _bump(other, "treasure", count)
        return f"{unit['name']} hands {count} treasure to {other['name']}"
    raise RuleError("op must be collect or hand.", "op")


# --- sea monsters (seed 002, Sea Monsters) -----------------------------------------------------------

def _controller(state: dict, args: dict) -> tuple[str, bool]:
    if flag(args, "noctilus"):
        if df.SIDES[1] not in state["sides"]:
            raise RuleError("Count Noctilus commands the Dreadfleet, which is not a side at this table.", "noctilus")
        return df.SIDES[1], True
    nearest = args.get("nearest")
    if nearest not in sides(state):
        raise RuleError(f"Say whose warship is nearest: {' or '.join(sides(state))}.", "nearest")
    first, second = sides(state)
    return second if nearest == first else first, False


@action("df-sea-monster", systems=GAME)
def sea_monster(state: dict, p: dict) -> str:
    """A sea monster enters play (from a Fate card); the nearest warship's opponent controls it."""
    if any(u["name"] == p["name"] and not u["removed"] for u in state["units"].values()):
        raise RuleError(f"The {p['name']} is already in play.", "name")
    if p["unit"] != f"u{state['next_unit']}":
        raise RuleError("The table changed while the sea monster was being added; try again.", "unit")
    _new_unit(state, p["unit"], p["name"], p["side"], "sea-monster", p["stats"], p["trackers"])
    unit = state["units"][p["unit"]]
    set_status(unit, "Controlled by Count Noctilus", p["noctilus"])
    return f"The {p['name']} enters play, controlled by {'Count Noctilus' if p['noctilus'] else p['side']}"


@sea_monster.decider
def decide_sea_monster(state: dict, args: dict, ctx) -> dict:
    name = df.canonical_name(args.get("name") or "")
    if name not in df.SEA_MONSTERS:
        raise RuleError(f"Choose one of the sea monsters: {', '.join(df.SEA_MONSTERS)}.", "name")
    card = df.validate_warship(args.get("stats") or {}, auxiliary=True)
    side, noctilus = _controller(state, args)
    stats = {**{k: card[k] for k in df.AUXILIARY_STATS}, "auxiliary": True, "sea_monster": True}
    return {"unit": f"u{state['next_unit']}", "name": name, "side": side, "noctilus": noctilus,
            "stats": stats, "trackers": _made(ctx.system, "sea-monster", stats)}


@action("df-monster-control", systems=GAME)
def monster_control(state: dict, p: dict) -> str:
    """At the start of a sea monster's Action phase: the nearest warship's opponent controls it."""
    need_phase(state, "Action", "Deciding who controls a sea monster")
    unit = unit_at_sea(state, p.get("unit"))
    if not is_monster(unit):
        raise RuleError(f"The {unit['name']} is not a sea monster.", "unit")
    if unit["activated"]:
        raise RuleError(f"The {unit['name']} has already acted this turn.", "unit")
    side, noctilus = _controller(state, p)
    unit["side"] = side
    set_status(unit, "Controlled by Count Noctilus", noctilus)
    now = turn(state)
    if unit["id"] not in now["control"]:
        now["control"].append(unit["id"])
    return f"The {unit['name']} is controlled by {'Count Noctilus' if noctilus else side} this turn"

