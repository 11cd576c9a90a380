"""Card Burn (seed 000, Damage, Push, & Burn: Resolving Card Burn; Primary Cards; Special Keywords).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import PRIMARY_BURN, TOKEN_BURN, _plural, sentence
from companion.said import N_, Said, _, joined
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
    whole_argument(amount, "amount", 0, what=N_("Card Burn"))
    whole_argument(hand, "hand", 0, what=N_("Cards in hand"))
    whole_argument(deck, "deck", 0, what=N_("Cards in the Draw Deck"))
    whole_argument(tokens, "tokens", 0, what=N_("Tokens"))
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
            raise RuleError(_("Each Card Burn choice is a card or token with its source."), "choices")
        source = choice.get("from")
        if source == "ready":
            raise RuleError(_("Ready cards cannot be discarded to satisfy Card Burn (seed 000, Ready Cards & "
                              "Card Burn)."), "choices")
        if source not in BURN_SOURCES:
            raise RuleError(_("A Card Burn choice comes from the hand, a token, a Remains in Play card or an "
                              "Indestructible card; got %(source)r.", source=source), "choices")
        if left == 0:
            raise RuleError(_("The Card Burn of %(amount)s is already met; choice %(n)s is not needed.", amount=amount,
                                  n=i + 1), "choices")
        name = choice.get("name")
        primary = bool(choice.get("primary", False))
        if source == "hand":
            if new_hand == 0:
                raise RuleError(_("No cards left in hand to discard."), "choices")
            count = PRIMARY_BURN if primary else 1
            new_hand -= 1
            discarded += 1
        elif source == "token":
            if new_tokens == 0:
                raise RuleError(_("No tokens left to discard."), "choices")
            count = TOKEN_BURN
            new_tokens -= 1
        elif source == "remains_in_play":
            count = PRIMARY_BURN if primary else 1
            discarded += 1
        else:
            printed = whole_argument(choice.get("x"), "choices", 1, what=N_("Indestructible-X"))
            on_card = whole_argument(choice.get("tokens", 0), "choices", 0, printed - 1, what=N_("Tokens on the card"))
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
            raise RuleError(_("Each revealed card is 'primary' or 'card'; got %(card)r.", card=card), "revealed")
        if left == 0:
            raise RuleError(_("The Card Burn is met before revealed card %(n)s; leave it on the deck.", n=i + 1),
                            "revealed")
        if new_deck == 0:
            raise RuleError(_("The Draw Deck is empty; no more cards to reveal."), "revealed")
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
    parts = []
    if out["from_hand"]:
        parts.append(Said("%(n)s from hand", n=out["from_hand"]))
    if from_deck:
        parts.append(Said("%(n)s from the deck", n=from_deck))
    if from_play:
        parts.append(_plural(from_play, "Remains in Play card"))
    if tokens - new_tokens:
        parts.append(_plural(tokens - new_tokens, "token"))
    for item in crumbling:
        card = item["name"] or Said("Indestructible card")
        parts.append(Said("%(card)s removed", card=card) if item["removed"] else
                     Said("%(card)s takes %(n)s tokens (X now %(x)s)", card=card, n=item["tokens_placed"],
                          x=item["x_left"]))
    text = Said("Card Burn %(amount)s: %(burned)s", amount=amount,
                burned=joined(", ", parts) if parts else Said("nothing discarded"))
    if excess:
        text = Said("%(text)s (%(n)s over: a Primary card counts 2)", text=text, n=excess)
    if out["still_to_burn"]:
        text = Said("%(text)s; %(n)s still to burn: reveal the top card of the deck or choose more", text=text,
                    n=out["still_to_burn"])
    if eliminated:
        text = Said("%(text)s; no cards in hand or deck - Eliminated", text=text)
        if out["unabsorbed"]:
            text = Said("%(text)s (%(n)s burn had nothing left to hit)", text=text, n=out["unabsorbed"])
    out["summary"] = sentence(text)
    return out
