"""Deck actions: load a definition, shuffle, draw (and draw-until), record real draws, move cards."""
from __future__ import annotations

from companion.actions import action, entered_flag
from companion.actions.core import unit_of
from companion.errors import RuleError, Stale
from companion.said import Said, _
from companion.schema import Flag, Int, List, Obj, Ref, Scalar, Text
from companion.trackers import deck as decks
from companion.trackers import need_int


def deck_of(state: dict, deck_id) -> dict:
    if not isinstance(deck_id, str) or deck_id not in state["decks"]:
        raise RuleError(_("No deck %(deck)r at this table.", deck=deck_id), "deck")
    return state["decks"][deck_id]


def destination(state: dict, to) -> str:
    to = to or "discard"
    if not isinstance(to, str):
        raise RuleError(_("to must be discard, top, bottom or unit:<id>."), "to")
    if to.startswith("unit:"):
        unit_of(state, to[5:])
    elif to not in ("discard", "top", "bottom"):
        raise RuleError(_("to must be discard, top, bottom or unit:<id>."), "to")
    return to


def _apply(state: dict, p: dict) -> list[str]:
    deck = deck_of(state, p.get("deck"))
    for step in p["steps"]:
        if step.get("to", "discard").startswith("unit:"):
            unit_of(state, step["to"][5:])
    return decks.apply_steps(deck, p["steps"])


def _where(state: dict, to: str) -> str:
    if to.startswith("unit:"):
        return state["units"][to[5:]]["name"]
    if to == "top":
        return Said("the top")
    if to == "bottom":
        return Said("the bottom")
    return Said("the discard")


def _drawn_text(deck: dict, ids: list[str], steps: list[dict]) -> str:
    """The cards drawn, saying so when the discard was reshuffled into a new deck first."""
    reshuffled = any(step["step"] == "reshuffle" for step in steps)
    names = ", ".join(decks.card_name(deck, c) for c in ids)
    return Said("discard reshuffled into a new deck; %(cards)s", cards=names) if reshuffled else names


@action("deck-load", chance=True, fields={"deck": Ref("deck"), "definition": Text(60),
                                      "cards": List(Obj(doc="a card: name, type, value ..."), decks.MAX_CARDS)})
def deck_load(state: dict, p: dict) -> str:
    """Load cards into a deck and shuffle: {"deck", "definition"} or {"deck", "cards": [...]}."""
    deck = deck_of(state, p.get("deck"))
    decks.apply_steps(deck, p["steps"])
    definition = p["steps"][0]["definition"]
    if not definition:
        return Said("%(deck)s: %(count)s cards loaded from your list and shuffled", deck=deck["label"], count=len(deck["draw"]))
    return Said("%(deck)s: %(count)s cards loaded from %(definition)s and shuffled", deck=deck["label"],
                count=len(deck["draw"]), definition=definition)


@deck_load.decider
def decide_deck_load(state: dict, args: dict, ctx) -> dict:
    deck_id = args.get("deck")
    deck_of(state, deck_id)
    definition = args.get("definition")
    if definition:
        definitions = ctx.system.decks.get(deck_id, {}).get("definitions", {})
        if definition not in definitions:
            if not definitions:
                raise RuleError(_("definition must be one of none (enter cards)."), "definition")
            raise RuleError(_("definition must be one of %(definitions)s.", definitions=", ".join(definitions)),
                            "definition")
        cards = definitions[definition]["cards"]
        label = definitions[definition]["name"]
    else:
        cards = args.get("cards")
        label = None
        if not isinstance(cards, list) or not cards:
            raise RuleError(_("Give the deck's cards (at least one) or pick a definition."), "cards")
    return {"deck": deck_id, "steps": decks.plan_load(decks.expand(cards), ctx.rng, label)}


@action("deck-mode", fields={"deck": Ref("deck"), "mode": Text(20)})
def deck_mode(state: dict, p: dict) -> str:
    """Switch a deck between virtual (the app draws) and physical (you record real draws)."""
    deck = deck_of(state, p.get("deck"))
    mode = p.get("mode")
    if mode not in ("virtual", "physical"):
        raise RuleError(_("mode must be virtual or physical."), "mode")
    if deck["mode"] == mode:
        if mode == "virtual":
            raise RuleError(_("%(deck)s is already virtual.", deck=deck["label"]), "mode")
        raise RuleError(_("%(deck)s is already physical.", deck=deck["label"]), "mode")
    deck["mode"] = mode
    if mode == "virtual":
        return Said("%(deck)s is now a virtual deck", deck=deck["label"])
    return Said("%(deck)s is now a physical deck", deck=deck["label"])


@action("deck-shuffle", chance=True, fields={"deck": Ref("deck"), "with_discard": Flag()})
def deck_shuffle(state: dict, p: dict) -> str:
    """Shuffle the draw pile (with_discard: the discard too)."""
    deck = deck_of(state, p.get("deck"))
    decks.apply_steps(deck, p["steps"])
    return Said("%(deck)s shuffled (%(count)s cards)", deck=deck["label"], count=len(deck["draw"]))


@deck_shuffle.decider
def decide_deck_shuffle(state: dict, args: dict, ctx) -> dict:
    deck = deck_of(state, args.get("deck"))
    return {"deck": args["deck"], "steps": decks.plan_shuffle(deck, ctx.rng, entered_flag(args, "with_discard"))}


def _check_expect(deck: dict, args: dict) -> None:
    """A draw made against a pile the player saw: a changed pile is a stale view (409)."""
    if args.get("expect") not in (None, "") and need_int(args, "expect", 0, decks.MAX_CARDS) != len(deck["draw"]):
        raise Stale(_("%(deck)s changed since you looked; draw again from the fresh view.", deck=deck["label"]), "deck")


@action("deck-draw", chance=True, fields={"deck": Ref("deck"), "to": Text(60), "count": Int(1, 20),
                                      "expect": Int(0, decks.MAX_CARDS)})
def deck_draw(state: dict, p: dict) -> str:
    """Draw the top card(s): {"deck", "to": discard|unit:<id>, "count"}; an empty pile reshuffles the discard."""
    deck = deck_of(state, p.get("deck"))
    ids = _apply(state, p)
    return Said("%(deck)s: drew %(cards)s → %(to)s", deck=deck["label"], cards=_drawn_text(deck, ids, p["steps"]),
                to=_where(state, p["to"]))


@deck_draw.decider
def decide_deck_draw(state: dict, args: dict, ctx) -> dict:
    deck = deck_of(state, args.get("deck"))
    _check_expect(deck, args)
    to = destination(state, args.get("to"))
    count = need_int(args, "count", 1, 20, default=1)
    return {"deck": args["deck"], "to": to, "steps": decks.plan_draw(deck, ctx.rng, to, count)}


@action("deck-draw-until", chance=True, fields={"deck": Ref("deck"), "to": Text(60), "field": Text(60),
                                            "value": Scalar(60), "fallback_last": Flag(),
                                            "expect": Int(0, decks.MAX_CARDS)})
def deck_draw_until(state: dict, p: dict) -> str:
    """Draw until a card whose field has a value (type Hull), the others discarded; at the deck's end, the last."""
    deck = deck_of(state, p.get("deck"))
    ids = _apply(state, p)
    kept = decks.card_name(deck, ids[-1])
    others = len(ids) - 1
    said = {"deck": deck["label"], "field": p["field"], "value": p["value"], "card": kept, "to": _where(state, p["to"])}
    if others == 1:
        return Said("%(deck)s: drew until %(field)s %(value)s: %(card)s → %(to)s (1 other card discarded)", **said)
    if others:
        return Said("%(deck)s: drew until %(field)s %(value)s: %(card)s → %(to)s (%(others)s other cards discarded)",
                    others=others, **said)
    return Said("%(deck)s: drew until %(field)s %(value)s: %(card)s → %(to)s", **said)


@deck_draw_until.decider
def decide_deck_draw_until(state: dict, args: dict, ctx) -> dict:
    deck = deck_of(state, args.get("deck"))
    _check_expect(deck, args)
    to = destination(state, args.get("to"))
    field = args.get("field") or "type"
    value = args.get("value")
    if not isinstance(field, str) or not isinstance(value, (str, int)) or value == "":
        raise RuleError(_("Say which card to draw until (field and value, e.g. type Hull)."), "value")
    # The rule draw-until serves stops at the end of the deck: "if ... no cards of that type have been
    # drawn when you reach the end of the deck, instead apply the last card drawn" (seed 002, Damage
    # Cards).  So that is the default; fallback_last=false keeps drawing through reshuffles.
    fallback = entered_flag(args, "fallback_last", default=True)
    steps = decks.plan_draw_until(deck, ctx.rng, field, value, to, fallback)
    return {"deck": args["deck"], "to": to, "field": field, "value": value, "steps": steps}


@action("deck-record", chance=True, fields={"deck": Ref("deck"), "to": Text(60),
                                        "card": Obj(doc="the card drawn from the real deck: name, type, value ...")})
def deck_record(state: dict, p: dict) -> str:
    """Physical deck: record the card drawn from the real deck: {"deck", "card": {...}, "to"}."""
    deck = deck_of(state, p.get("deck"))
    ids = _apply(state, p)
    return Said("%(deck)s: drew %(card)s (real deck) → %(to)s", deck=deck["label"], card=decks.card_name(deck, ids[0]),
                to=_where(state, p["to"]))


@deck_record.decider
def decide_deck_record(state: dict, args: dict, ctx) -> dict:
    deck_of(state, args.get("deck"))
    to = destination(state, args.get("to"))
    card = decks.clean_card(args.get("card"))
    return {"deck": args["deck"], "to": to, "steps": [{"step": "record", "card": card, "to": to}]}


@action("deck-move", fields={"deck": Ref("deck"), "card": Ref("card"), "to": Text(60)})
def deck_move(state: dict, p: dict) -> str:
    """Move a card: to the discard (repaired, resolved), onto a unit, or back into the deck."""
    deck = deck_of(state, p.get("deck"))
    to = destination(state, p.get("to"))
    card = p.get("card")
    if not isinstance(card, str) or card not in deck["cards"]:
        raise RuleError(_("No card %(card)r in %(deck)s.", card=card, deck=deck["label"]), "card")
    if decks.where(deck, card) == to:
        raise RuleError(_("%(card)s is already there.", card=decks.card_name(deck, card)), "to")
    decks.apply_steps(deck, [{"step": "move", "card": card, "to": to}])
    return Said("%(deck)s: %(card)s → %(to)s", deck=deck["label"], card=decks.card_name(deck, card), to=_where(state, to))
