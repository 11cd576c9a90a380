"""Deck: draw pile, discard, cards attached to units; shuffles decided before the event.

A change to a deck is a list of *steps* (shuffle with this order, reshuffle the discard with this
order, draw card c3 to the discard ...).  ``plan_*`` functions use an RNG to choose the steps once;
``apply_steps`` replays them exactly, checking each against the deck, so a replayed log never
shuffles again.  Physical-deck mode keeps no draw pile: players record what they drew from the
real deck, so the books (discard, attached cards, wind strength ...) stay right either way.
"""
from __future__ import annotations

import math

from companion.errors import RuleError
from companion.said import _, figure

CARD_FIELDS_MAX = 12
MAX_CARDS = 500
MAX_CARD_NUMBER = 1_000_000_000


def create(label: str, mode: str = "virtual") -> dict:
    return {"label": label, "mode": mode, "definition": None, "cards": {}, "next": 1,
            "draw": [], "discard": [], "attached": {}}


def card_name(deck: dict, cid: str) -> str:
    return deck["cards"][cid]["name"]


def clean_card(raw: dict) -> dict:
    """A card definition with short text/number fields only (bad input named)."""
    if not isinstance(raw, dict):
        raise RuleError(_("Each card must be a table of fields (name, type, value ...)."), "cards")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        raise RuleError(_("Each card needs a name of 1 to 60 characters."), "name")
    if len(raw) > CARD_FIELDS_MAX:
        raise RuleError(_("A card has at most %(most)s fields.", most=CARD_FIELDS_MAX), "cards")
    card = {}
    for key, value in raw.items():
        if key == "count":
            continue
        if isinstance(value, str):
            if len(value) > 200:
                raise RuleError(_("Card field %(field)s is longer than 200 characters.", field=key), key)
            value = value.strip()
        elif not isinstance(value, (int, float, bool)):
            raise RuleError(_("Card field %(field)s must be text, a number or true/false.", field=key), key)
        elif not isinstance(value, bool) and not (math.isfinite(value) and abs(value) <= MAX_CARD_NUMBER):
            # NaN or Infinity would make the table's state unreadable as JSON
            raise RuleError(_("Card field %(field)s must be a finite number of at most %(most)s.", field=key,
                              most=figure(MAX_CARD_NUMBER)), key)
        card[str(key)[:30]] = value
    return card


def expand(cards: list[dict]) -> list[dict]:
    """Card definitions with ``count`` expanded into single cards."""
    out = []
    for raw in cards:
        count = raw.get("count", 1) if isinstance(raw, dict) else 1
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 60:
            raise RuleError(_("A card's count must be from 1 to 60."), "count")
        out.extend(clean_card(raw) for _ in range(count))
    if len(out) > MAX_CARDS:
        raise RuleError(_("A deck holds at most %(most)s cards.", most=MAX_CARDS), "cards")
    return out


def where(deck: dict, cid: str) -> str:
    if cid in deck["draw"]:
        return "draw"
    if cid in deck["discard"]:
        return "discard"
    for unit, cards in deck["attached"].items():
        if cid in cards:
            return f"unit:{unit}"
    raise RuleError(_("No card %(card)s in %(deck)s.", card=cid, deck=deck["label"]), "card")


def _remove(deck: dict, cid: str) -> None:
    place = where(deck, cid)
    if place.startswith("unit:"):
        cards = deck["attached"][place[5:]]
        cards.remove(cid)
        if not cards:
            del deck["attached"][place[5:]]
    else:
        deck[place].remove(cid)


def _place(deck: dict, cid: str, to: str) -> None:
    if to == "discard":
        deck["discard"].append(cid)
    elif to == "top":
        deck["draw"].insert(0, cid)
    elif to == "bottom":
        deck["draw"].append(cid)
    elif to.startswith("unit:"):
        deck["attached"].setdefault(to[5:], []).append(cid)
    else:
        raise RuleError(_("A card can go to the discard, the top or bottom of the deck, or a unit; not %(to)r.", to=to), "to")


def apply_steps(deck: dict, steps: list[dict]) -> list[str]:
    """Carry out planned steps in order; returns the card ids drawn or recorded."""
    drawn = []
    for step in steps:
        kind = step["step"]
        if kind == "load":
            deck.update(definition=step.get("definition"), cards={}, draw=[], discard=[], attached={},
                        next=1)
            for card in step["cards"]:
                cid = f"c{deck['next']}"
                deck["next"] += 1
                deck["cards"][cid] = card
            deck["draw"] = [f"c{i + 1}" for i in step["order"]]
        elif kind == "shuffle":
            if sorted(step["order"]) != sorted(deck["draw"]):
                raise RuleError(_("The deck changed before the shuffle; try again."), "deck")
            deck["draw"] = list(step["order"])
        elif kind == "reshuffle":
            if deck["draw"] or sorted(step["order"]) != sorted(deck["discard"]):
                raise RuleError(_("The discard changed before the reshuffle; try again."), "deck")
            deck["draw"], deck["discard"] = list(step["order"]), []
        elif kind == "draw":
            if not deck["draw"] or deck["draw"][0] != step["card"]:
                raise RuleError(_("The top of %(deck)s changed; look again and redraw.", deck=deck["label"]), "deck")
            deck["draw"].pop(0)
            _place(deck, step["card"], step["to"])
            drawn.append(step["card"])
        elif kind == "record":
            cid = f"c{deck['next']}"
            deck["next"] += 1
            deck["cards"][cid] = step["card"]
            _place(deck, cid, step["to"])
            drawn.append(cid)
        elif kind == "move":
            _remove(deck, step["card"])
            _place(deck, step["card"], step["to"])
        else:  # pragma: no cover - planned steps come from this module only
            raise RuleError(_("Unknown deck step %(step)r.", step=kind), "deck")
    return drawn


# --- planning (the only place randomness is used) -----------------------------------------------

def _shuffled(items: list, rng) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


def plan_load(cards: list[dict], rng, definition: str | None = None) -> list[dict]:
    return [{"step": "load", "cards": cards, "definition": definition,
             "order": _shuffled(range(len(cards)), rng)}]


def plan_shuffle(deck: dict, rng, with_discard: bool = False) -> list[dict]:
    steps = []
    if with_discard:
        steps += [{"step": "move", "card": c, "to": "bottom"} for c in deck["discard"]]
    pile = deck["draw"] + (deck["discard"] if with_discard else [])
    if not pile:
        raise RuleError(_("%(deck)s has no cards to shuffle.", deck=deck["label"]), "deck")
    return steps + [{"step": "shuffle", "order": _shuffled(pile, rng)}]


def _draw_one(sim: dict, rng, to: str, steps: list) -> str | None:
    """Plan one draw on a simulated deck, reshuffling the discard when the pile is empty."""
    if not sim["draw"]:
        if not sim["discard"]:
            return None
        step = {"step": "reshuffle", "order": _shuffled(sim["discard"], rng)}
        apply_steps(sim, [step])
        steps.append(step)
    step = {"step": "draw", "card": sim["draw"][0], "to": to}
    apply_steps(sim, [step])
    steps.append(step)
    return step["card"]


def _copy(deck: dict) -> dict:
    return {**deck, "draw": list(deck["draw"]), "discard": list(deck["discard"]),
            "attached": {k: list(v) for k, v in deck["attached"].items()}}


def plan_draw(deck: dict, rng, to: str = "discard", count: int = 1) -> list[dict]:
    if deck["mode"] != "virtual":
        raise RuleError(_("%(deck)s is a physical deck: record the card you drew instead.", deck=deck["label"]), "deck")
    sim, steps = _copy(deck), []
    for _n in range(count):
        if _draw_one(sim, rng, to, steps) is None:
            raise RuleError(_("%(deck)s and its discard are empty: no card to draw.", deck=deck["label"]), "deck")
    return steps


def plan_draw_until(deck: dict, rng, field: str, wanted, to: str, fallback_last: bool = False) -> list[dict]:
    """Draw until a card with ``field == wanted``: it goes to ``to``, the others to the discard.

    fallback_last=False: keep going through reshuffles (running aground: "draw until a Hull
    result"). fallback_last=True: stop at the end of the draw pile and apply the last card drawn
    (the draw-of-type rule).
    """
    if deck["mode"] != "virtual":
        raise RuleError(_("%(deck)s is a physical deck: record the card you drew instead.", deck=deck["label"]), "deck")
    if not any(c.get(field) == wanted for c in deck["cards"].values()):
        raise RuleError(_("%(deck)s has no card with %(field)s %(value)s.", deck=deck["label"], field=field, value=wanted),
                        field)
    sim, steps = _copy(deck), []
    for _n in range(2 * len(deck["cards"]) + 1):
        if fallback_last and not sim["draw"] and steps:
            break
        cid = _draw_one(sim, rng, "discard", steps)
        if cid is None:
            break
        if sim["cards"][cid].get(field) == wanted:
            break
    draws = [s for s in steps if s["step"] == "draw"]
    if not draws:
        raise RuleError(_("%(deck)s and its discard are empty: no card to draw.", deck=deck["label"]), "deck")
    hit = draws[-1]
    if sim["cards"][hit["card"]].get(field) != wanted and not fallback_last:
        raise RuleError(_("No card with %(field)s %(value)s is left to draw in %(deck)s.", field=field, value=wanted,
                          deck=deck["label"]), field)
    hit["to"] = to
    return steps
