"""The players' own Fate and Damage deck lists (library kind "deck"): one card per line, parsed and
checked card by card.  Pure: the pages are ``views``' own (its ``__init__``)."""
from __future__ import annotations

import re

from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.said import _

MAX_DECK_LINES = 200
WORDS = {"single": 1, "double": 2, "triple": 3}
TURNS = {"cw": "clockwise", "clockwise": "clockwise", "acw": "anticlockwise", "ccw": "anticlockwise",
         "anticlockwise": "anticlockwise", "anti-clockwise": "anticlockwise",
         "counterclockwise": "anticlockwise"}


def parse_card(line: str, deck: str) -> dict:
    """One card per line: "name; field; field ..." (see the deck form's help)."""
    parts = [p.strip() for p in re.split(r"[;|]", line) if p.strip()]
    card: dict = {"name": parts[0]}
    numbers = []
    for part in parts[1:]:
        low = part.casefold()
        count = re.fullmatch(r"(?:x\s*(\d+)|(\d+)\s*x)", low)
        move = re.fullmatch(r"(\d+)\s*(?:markers?\s*)?([a-z-]+)", low)
        if count:
            card["count"] = int(count.group(1) or count.group(2))
        elif deck == "damage" and low in {t.casefold() for t in df.DAMAGE_TYPES}:
            card["type"] = part.capitalize()
        elif deck == "damage" and low in WORDS:
            card["value"] = WORDS[low]
        elif low == "irreparable":
            card["irreparable"] = True
        elif deck == "fate" and low == "2d6":
            card["markers"] = "2D6"
        elif deck == "fate" and move and move.group(2) in TURNS:
            card["markers"], card["direction"] = int(move.group(1)), TURNS[move.group(2)]
        elif deck == "fate" and low in {k.casefold() for k in df.FATE_KINDS}:
            card["kind"] = next(k for k in df.FATE_KINDS if k.casefold() == low)
        elif deck == "fate" and low == "br":
            card["br"] = True
        elif re.fullmatch(r"\d{1,2}", low):
            numbers.append(int(low))
        else:
            raise RuleError(_("%(part)r is not a field of a %(deck)s card.", part=part, deck=deck.capitalize()), "cards")
    if deck == "damage" and numbers:
        card["value"] = numbers[0]
    if deck == "fate" and numbers:
        card["wind"] = numbers[0]
        if len(numbers) > 1:
            card.setdefault("markers", numbers[1])
    return df.validate_card(card, deck)


def parse_deck(text: str, deck: str) -> list[dict]:
    lines = [line.strip() for line in str(text or "").splitlines() if line.strip() and not line.startswith("#")]
    if not lines:
        raise RuleError(_("Enter the cards, one per line."), "cards")
    if len(lines) > MAX_DECK_LINES:
        raise RuleError(_("At most %(n)s lines (use x3 for three copies).", n=MAX_DECK_LINES), "cards")
    cards = []
    for number, line in enumerate(lines, start=1):
        try:
            cards.append(parse_card(line, deck))
        except RuleError as exc:
            raise RuleError(_("Line %(n)s (%(line)s): %(error)s", n=number, line=line[:30], error=exc.message),
                            exc.field) from None
    return cards


def card_line(card: dict, deck: str) -> str:
    """A card as a line of the deck form (the inverse of parse_card)."""
    parts = [card["name"]]
    if deck == "damage":
        parts += [card["type"], str(card.get("value", 1))] + (["irreparable"] if card.get("irreparable") else [])
    else:
        move = "2D6" if card.get("markers") == "2D6" else f"{card.get('markers', 0)} {card.get('direction', 'clockwise')}"
        parts += [str(card["wind"]), move, card["kind"]] + (["BR"] if card.get("br") else [])
    if card.get("count", 1) > 1:
        parts.append(f"x{card['count']}")
    return "; ".join(parts)
