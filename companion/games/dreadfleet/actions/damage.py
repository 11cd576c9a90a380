"""Damage cards (seed 002, Characteristics; Damage Cards; Running Aground; Auxiliaries).

Every Damage card is drawn in the decider (a virtual deck) and applied card by card in ``apply``:
the ship's Hull/Crew/Speed damage counters go up by the card's value and a ship whose Hull or
Crew damage reaches its characteristic is removed, its cards going to their discard piles.  With
the real deck, the cards a ship owes are recorded as players draw them.
"""
from __future__ import annotations

from companion.actions import action
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.entries import physical_card
from companion.games.dreadfleet.state import GAME, books, is_auxiliary, set_status, unit_at_sea
from companion.said import Said, _, joined
from companion.schema import Flag, Int, Obj, Ref, Scalar, Text
from companion.trackers import deck as decks

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


def _add_damage(unit: dict, tracker_id: str, by: int) -> None:
    """A damage counter is the sum of the ship's cards of its type: never capped at the characteristic.

    Seed 002, Damage Cards: each Crew, Speed or Hull card reduces its characteristic "by one or more";
    a capped copy would lose the overflow, and a repair would then restore too much (issue 9, item 5).
    The characteristic now is derived from it (state.now_stat), never below 0.
    """
    tracker = unit["trackers"].get(tracker_id)
    if tracker is None and by > 0:
        # a sea monster put to sea before its card had a Speed damage counter: it gets one now, for
        # auxiliaries "follow all normal rules for warships" (seed 002, Auxiliaries; Sea Monsters)
        tracker = unit["trackers"][tracker_id] = {"kind": "counter", "label": tracker_id.replace("_", " ").capitalize(),
                                                  "value": 0, "min": 0, "max": 100_000}
    if tracker and tracker.get("kind") == "counter":
        tracker["value"] = max(tracker["min"], tracker["value"] + by)


def can_affect(unit: dict, card: dict) -> bool:
    """Whether a Damage card can affect the unit: a Hull, Crew or Speed card needs that characteristic.

    Seed 002, Damage Cards: "If a warship takes a Damage card that cannot affect it, discard that card
    with no effect."  (An auxiliary's Special card is discarded and replaced as it is drawn.)
    """
    kind = card_type(card)
    return kind not in COUNTERS or unit["stats"].get(kind.lower()) is not None


def lay_damage(unit: dict, card: dict) -> None:
    if card_type(card) in COUNTERS:
        _add_damage(unit, COUNTERS[card_type(card)], _value(card))


def lift_damage(unit: dict, card: dict) -> None:
    if card_type(card) in COUNTERS:
        _add_damage(unit, COUNTERS[card_type(card)], -_value(card))


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
        raise RuleError(_("The Damage deck is empty: load your Damage cards (or the example, or use the real deck) before "
                          "rolling."), "deck")


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
                raise RuleError(_("Only Special cards are left to draw for the %(unit)s.", unit=unit["name"]), "deck")
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
    """Apply planned (or recorded) Damage draws card by card; returns what happened (each a Said)."""
    deck = state["decks"]["damage"]
    notes = []
    for step in steps:
        to = step.get("to", "")
        if to.startswith("unit:") and state["units"][to[5:]]["removed"]:
            raise RuleError(_("The %(unit)s is no longer in play.", unit=state["units"][to[5:]]["name"]), "unit")
        ids = decks.apply_steps(deck, [step])
        if step["step"] == "reshuffle":
            notes.append(Said("Damage discards reshuffled into a new deck"))
        if not ids:
            continue
        card = deck["cards"][ids[0]]
        if not to.startswith("unit:"):
            notes.append(Said("%(card)s discarded", card=card["name"]))
            continue
        unit = state["units"][to[5:]]
        if not can_affect(unit, card):
            decks.apply_steps(deck, [{"step": "move", "card": ids[0], "to": "discard"}])
            notes.append(Said("%(card)s cannot affect the %(unit)s: discarded with no effect", card=card["name"],
                              unit=unit["name"]))
            continue
        lay_damage(unit, card)
        notes.append(Said("%(card)s on the %(unit)s", card=card["name"], unit=unit["name"]))
        if sunk(unit):
            sink(state, unit["id"])
            notes.append(Said("the %(unit)s is destroyed", unit=unit["name"]))
    return notes


def owe(state: dict, uid: str, count: int) -> None:
    """Physical Damage deck: the cards the ship must draw from the real deck and record."""
    if count:
        owed = books(state)["owed"]
        owed[uid] = owed.get(uid, 0) + count


def _told(label: str, notes: list[str], owed: int, name: str | None) -> str:
    """A label with what its Damage cards did, and what the ship (``name``; None: the losers of a boarding
    action) still draws from the real deck."""
    said = {"label": label, "notes": joined("; ", notes), "n": owed}
    if owed and name is None:
        if notes:
            return Said("%(label)s: %(notes)s; the losers draws %(n)s from the real Damage deck", **said)
        return Said("%(label)s; the losers draws %(n)s from the real Damage deck", **said)
    if owed:
        if notes:
            return Said("%(label)s: %(notes)s; the %(ship)s draws %(n)s from the real Damage deck", ship=name, **said)
        return Said("%(label)s; the %(ship)s draws %(n)s from the real Damage deck", ship=name, **said)
    return Said("%(label)s: %(notes)s", **said) if notes else label


# --- Damage cards drawn for other reasons (seed 002, Running Aground; Damage Cards) -------------

@action("df-damage", systems=GAME, chance=True, fields={
    "unit": Ref("unit"), "mode": Text(20), "value": Scalar(60, "a Damage card's type"),
    "count": Int(1, 10), "card": Obj({"irreparable": Flag()}, doc="the card drawn from the real deck")})
def damage(state: dict, p: dict) -> str:
    """Draw Damage cards for a ship: one or more, until a Hull result (run aground), or of a type."""
    unit = unit_at_sea(state, p.get("unit"))
    notes = resolve_damage(state, p["steps"])
    if p["mode"] == "aground" or p.get("aground"):  # with the real deck too: it records the Hull card
        set_status(unit, df.RUN_AGROUND, True)
        books(state)["aground"][unit["id"]] = state["round"]  # when: see sailing.moves_off
    # A card recorded for a grounding is not one the ship owed; nor is an auxiliary's Special card,
    # which it discards and replaces (seed 002, Auxiliaries: "draw another to replace it").
    if p["mode"] == "record" and not p.get("aground") and not p.get("replaced"):
        owed = books(state)["owed"]
        if owed.get(unit["id"]):
            owed[unit["id"]] -= 1
            if not owed[unit["id"]]:
                del owed[unit["id"]]
    name = unit["name"]
    if p.get("aground"):
        label = Said("%(unit)s runs aground: the Hull card drawn from the real Damage deck", unit=name)
    elif p["mode"] == "aground":
        label = Said("%(unit)s runs aground, draws until a Hull card", unit=name)
    elif p["mode"] == "type":
        label = Said("%(unit)s draws for a %(type)s card", unit=name, type=p.get("value"))
    elif p["mode"] == "record":
        label = Said("%(unit)s draws from the real Damage deck", unit=name)
    else:
        label = Said("%(unit)s draws Damage", unit=name)
    if p.get("replaced"):
        notes.append(Said("an auxiliary discards a Special card and draws another in its place"))
    return _told(label, notes, 0, name)


@damage.decider
def decide_damage(state: dict, args: dict, ctx) -> dict:
    unit = unit_at_sea(state, args.get("unit"))
    deck = state["decks"]["damage"]
    mode = args.get("mode") or "card"
    if mode == "aground" and is_auxiliary(unit):
        raise RuleError(_("Auxiliaries do not run aground when they touch islands or wrecks."), "mode")
    if deck["mode"] == "physical":
        card = df.validate_card(physical_card(args), "damage")
        # seed 002, Auxiliaries: "any Special Damage card they draw is discarded (draw another to replace it)"
        replaced = is_auxiliary(unit) and card["type"] == "Special"
        to = "discard" if replaced else f"unit:{unit['id']}"
        return {"unit": unit["id"], "mode": "record", "aground": mode == "aground", "replaced": replaced,
                "steps": [{"step": "record", "card": card, "to": to}]}
    damage_ready(state)
    if mode == "card":
        steps = plan_damage(state, ctx.rng, [(unit["id"], args.get("count", 1))])
    elif mode in ("aground", "type"):
        wanted = "Hull" if mode == "aground" else card_type({"type": args.get("value")})
        if wanted is None:
            raise RuleError(_("Choose the card type: %(types)s.", types=", ".join(df.DAMAGE_TYPES)), "value")
        steps = plan_of_type(deck, ctx.rng, wanted, f"unit:{unit['id']}")
        args = {**args, "value": wanted}
    else:
        raise RuleError(_("mode must be card, aground or type."), "mode")
    return {"unit": unit["id"], "mode": mode, "value": args.get("value"), "steps": steps}
