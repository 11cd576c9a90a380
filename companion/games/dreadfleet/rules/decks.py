"""The Fate and Damage decks (seed 002, Basics; Running Aground; Damage Cards; Auxiliaries): shuffling,
drawing, drawing until a type."""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import DAMAGE_TYPES, _card_name, _card_type, _plural
from companion.said import N_, Said, _
from companion.schema import whole_argument


def shuffle(cards: list, rng=None, order: list[int] | None = None) -> list:
    """A shuffled copy: in ``order`` (indexes, e.g. from the log) or by Fisher-Yates with rng.randint."""
    cards = list(cards)
    if order is not None:
        if sorted(order) != list(range(len(cards))):
            raise RuleError(_("A shuffle order must list every card's index exactly once."), "order")
        return [cards[i] for i in order]
    if rng is None:
        raise RuleError(_("Shuffling needs the companion's dice (an RNG) or the new order."), "order")
    for i in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _draw_one(deck: list, discard: list, rng) -> tuple[object, bool]:
    """Take the top card (mutating deck/discard); an exhausted deck is first rebuilt from its discards."""
    reshuffled = False
    if not deck:
        if not discard:
            raise RuleError(_("The deck and its discard pile are both empty."), "deck")
        # seed 002, Basics: "when the deck is exhausted, shuffle the discards to form a new deck"
        deck.extend(shuffle(discard, rng))
        discard.clear()
        reshuffled = True
    return deck.pop(0), reshuffled


def draw_cards(deck: list, discard: list, count: int = 1, rng=None) -> dict:
    """Draw ``count`` cards from the top, reshuffling the discards whenever the deck runs out."""
    count = whole_argument(count, "count", 0, what=N_("The number of cards"))
    deck, discard, drawn, reshuffles = list(deck), list(discard), [], 0
    for _n in range(count):
        card, reshuffled = _draw_one(deck, discard, rng)
        drawn.append(card)
        reshuffles += reshuffled
    return {"drawn": drawn, "deck": deck, "discard": discard, "reshuffled": reshuffles,
            "summary": Said("Drew %(cards)s (discards reshuffled into a new deck)", cards=_drew(drawn)) if reshuffles
            else Said("Drew %(cards)s", cards=_drew(drawn))}


def _drew(drawn: list) -> str:
    return ", ".join(map(_card_name, drawn)) or Said("nothing")


def _damage_type(card_type) -> str:
    wanted = str(card_type).strip().casefold()
    for kind in DAMAGE_TYPES:
        if kind.casefold() == wanted:
            return kind
    raise RuleError(_("A Damage card type is one of %(types)s; got %(got)r.", types=", ".join(DAMAGE_TYPES), got=card_type),
                    "type")


def draw_of_type(deck: list, discard: list, card_type: str, rng=None) -> dict:
    """Seed 002, Damage Cards: draw until a card of the type; the others are discarded.

    "If ... no cards of that type have been drawn when you reach the end of the deck, instead apply
    the last card drawn instead of discarding it."  An empty deck is reshuffled before the search.
    """
    card_type = _damage_type(card_type)
    deck, discard = list(deck), list(discard)
    first, reshuffled = _draw_one(deck, discard, rng)
    turned = [first]
    while _card_type(turned[-1]) != card_type and deck:
        turned.append(deck.pop(0))
    fell_back = _card_type(turned[-1]) != card_type
    applied, passed_over = turned[-1], turned[:-1]
    discard.extend(passed_over)
    said = {"count": len(turned), "type": card_type, "card": _card_name(applied),
            "discarded": _plural(len(passed_over), "card")}
    return {"card": applied, "discarded": passed_over, "deck": deck, "discard": discard,
            "fell_back": fell_back, "reshuffled": int(reshuffled),
            "summary": Said("Drew %(count)s for a %(type)s card -> apply %(card)s (end of the deck: the last card drawn "
                            "applies); %(discarded)s discarded", **said) if fell_back
            else Said("Drew %(count)s for a %(type)s card -> apply %(card)s (a %(type)s card); %(discarded)s discarded",
                      **said)}


def draw_until_hull(deck: list, discard: list, rng=None) -> dict:
    """Seed 002, Running Aground: draw Damage cards until a Hull result, apply it, discard the rest."""
    result = draw_of_type(deck, discard, "Hull", rng)
    return {**result, "summary": Said("Run aground: %(drew)s", drew=result["summary"])}


def draw_damage(deck: list, discard: list, count: int = 1, *, auxiliary: bool = False, rng=None) -> dict:
    """Draw Damage cards; an auxiliary discards each Special card and draws another (seed 002, Auxiliaries)."""
    count = whole_argument(count, "count", 0, what=N_("The number of Damage cards"))
    deck, discard, drawn, replaced, reshuffles = list(deck), list(discard), [], [], 0
    while len(drawn) < count:
        if auxiliary and all(_card_type(c) == "Special" for c in deck + discard):
            raise RuleError(_("Only Special cards are left to draw for this auxiliary."), "deck")
        card, reshuffled = _draw_one(deck, discard, rng)
        reshuffles += reshuffled
        if auxiliary and _card_type(card) == "Special":
            discard.append(card)
            replaced.append(card)
            continue
        drawn.append(card)
    return {"drawn": drawn, "replaced": replaced, "deck": deck, "discard": discard,
            "reshuffled": reshuffles,
            "summary": Said("Drew %(cards)s (%(replaced)s discarded and replaced)", cards=_drew(drawn),
                            replaced=_plural(len(replaced), "Special card")) if replaced
            else Said("Drew %(cards)s", cards=_drew(drawn))}
