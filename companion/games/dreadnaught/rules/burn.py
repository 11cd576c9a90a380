"""Card Burn (seed 000, Damage, Push, & Burn: Resolving Card Burn; Primary Cards; Special Keywords).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import PRIMARY_BURN, TOKEN_BURN, _plural
from companion.schema import whole_argument

# --- Card Burn --------------------------------------------------------------------------------

BURN_SOURCES = ("hand", "token", "remains_in_play", "indestructible")


def card_burn(amount: int, hand: int, deck: int, *, choices=(), revealed=(), tokens: int = 0) -> dict:
    """Resolve Card Burn (after modifiers) with the seed's counting.

    ``choices`` are what the burned player picks, in order: ``{"from": "hand", "primary": bool}``,
    ``{"from": "token"}``, ``{"from": "remains_in_play", "name", "primary"}`` (never forced) or
    ``{"from": "indestructible", "name", "x", "tokens"}`` (optional; counts X, a partial burn places
    tokens).  ``revealed`` lists the top cards of the Draw Deck as they are revealed ("primary" or
    "card"); they absorb whatever the choices leave.  Primary cards count 2, tokens 1.  Ready cards
    cannot be burned.  A choice or revealed card past the point where the burn is met is an error.
    """
    whole_argument(amount, "amount", 0, what="Card Burn")
    whole_argument(hand, "hand", 0, what="Cards in hand")
    whole_argument(deck, "deck", 0, what="Cards in the Draw Deck")
    whole_argument(tokens, "tokens", 0, what="Tokens")
    left = amount
    new_hand, new_deck, new_tokens = hand, deck, tokens
    burned, crumbling, discarded = [], [], 0
    excess = 0

    def spend(count: int) -> None:
        nonlocal left, excess
        excess += max(0, count - left)
        left = max(0, left - count)

    for i, choice in enumerate(choices):
        if not isinstance(choice, dict):
            raise RuleError("Each Card Burn choice is a card or token with its source.", "choices")
        source = choice.get("from")
        if source == "ready":
            raise RuleError("Ready cards cannot be discarded to satisfy Card Burn (seed 000, Ready Cards & "
                            "Card Burn).", "choices")
        if source not in BURN_SOURCES:
            raise RuleError(f"A Card Burn choice comes from the hand, a token, a Remains in Play card or an "
                            f"Indestructible card; got {source!r}.", "choices")
        if left == 0:
            raise RuleError(f"The Card Burn of {amount} is already met; choice {i + 1} is not needed.", "choices")
        name = choice.get("name")
        primary = bool(choice.get("primary", False))
        if source == "hand":
            if new_hand == 0:
                raise RuleError("No cards left in hand to discard.", "choices")
            count = PRIMARY_BURN if primary else 1
            new_hand -= 1
            discarded += 1
        elif source == "token":
            if new_tokens == 0:
                raise RuleError("No tokens left to discard.", "choices")
            count = TOKEN_BURN
            new_tokens -= 1
        elif source == "remains_in_play":
            count = PRIMARY_BURN if primary else 1
            discarded += 1
        else:
            printed = whole_argument(choice.get("x"), "choices", 1, what="Indestructible-X")
            on_card = whole_argument(choice.get("tokens", 0), "choices", 0, printed - 1, what="Tokens on the card")
            strength = printed - on_card
            if left >= strength:
                count = strength
                discarded += 1
                crumbling.append({"name": name, "removed": True, "tokens_placed": 0, "x_left": 0})
            else:
                # seed 000, Indestructible-X [Card]: "place a number of tokens on it equal to the Card Burn
                # it absorbed, and reduce its Indestructible-X number by the number of tokens on it"
                count = left
                crumbling.append({"name": name, "removed": False, "tokens_placed": left,
                                  "tokens": on_card + left, "x_left": printed - on_card - left})
        spend(count)
        burned.append({"from": source, "name": name, "primary": primary, "counts": count})

    from_deck = 0
    for i, card in enumerate(revealed):
        if card not in ("primary", "card"):
            raise RuleError(f"Each revealed card is 'primary' or 'card'; got {card!r}.", "revealed")
        if left == 0:
            raise RuleError(f"The Card Burn is met before revealed card {i + 1}; leave it on the deck.", "revealed")
        if new_deck == 0:
            raise RuleError("The Draw Deck is empty; no more cards to reveal.", "revealed")
        count = PRIMARY_BURN if card == "primary" else 1
        new_deck -= 1
        from_deck += 1
        discarded += 1
        spend(count)
        burned.append({"from": "deck", "name": None, "primary": card == "primary", "counts": count})

    eliminated = new_hand == 0 and new_deck == 0
    # seed 000, Damage, Push, & Burn, Resolving Card Burn: "Your opponent may discard Remains in Play cards as
    # part of resolving Card Burn" - they go to the discard pile, so the summary names them too
    from_play = sum(1 for b in burned if b["from"] == "remains_in_play")
    out = {"amount": amount, "absorbed": amount - left + excess, "excess": excess,
           "hand": new_hand, "deck": new_deck, "tokens": new_tokens, "discard_added": discarded,
           "from_hand": hand - new_hand, "from_deck": from_deck, "from_play": from_play, "burned": burned,
           "indestructible": crumbling, "still_to_burn": 0, "unabsorbed": 0,
           "deck_emptied": deck > 0 and new_deck == 0, "eliminated": eliminated}
    if left and eliminated:
        out["unabsorbed"] = left
    else:
        out["still_to_burn"] = left
    parts = [f"Card Burn {amount}"]
    if out["from_hand"]:
        parts.append(f"{out['from_hand']} from hand")
    if from_deck:
        parts.append(f"{from_deck} from the deck")
    if from_play:
        parts.append(_plural(from_play, "Remains in Play card"))
    if tokens - new_tokens:
        parts.append(_plural(tokens - new_tokens, "token"))
    for item in crumbling:
        what = "removed" if item["removed"] else f"takes {item['tokens_placed']} tokens (X now {item['x_left']})"
        parts.append(f"{item['name'] or 'Indestructible card'} {what}")
    text = ": ".join([parts[0], ", ".join(parts[1:]) or "nothing discarded"])
    if excess:
        text += f" ({excess} over: a Primary card counts 2)"
    if out["still_to_burn"]:
        text += f"; {out['still_to_burn']} still to burn: reveal the top card of the deck or choose more"
    if eliminated:
        text += "; no cards in hand or deck - Eliminated"
        if out["unabsorbed"]:
            text += f" ({out['unabsorbed']} burn had nothing left to hit)"
    out["summary"] = text + "."
    return out
