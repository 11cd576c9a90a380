"""HP, Damage and the Draw Deck (seed 000, Damage, Push, & Burn; Turn Sequence; Always Dangerous).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import ALWAYS_DANGEROUS_MAX, HAND_SIZE, RETURN_MAX, _plural, sentence
from companion.said import N_, Said, _
from companion.schema import whole_argument

# --- HP, Damage and the Draw Deck -------------------------------------------------------------

def damage(hp: int, amount: int, damage_this_turn: int = 0) -> dict:
    """Subtract Damage (after modifiers) from HP; 0 or less eliminates (seed 000, Damage, Push & Burn)."""
    whole_argument(hp, "hp", -999, what=N_("HP"))
    whole_argument(amount, "amount", 0, what=N_("Damage"))
    whole_argument(damage_this_turn, "damage_this_turn", 0, what=N_("Damage this turn"))
    new = hp - amount
    out = {"hp": new, "damage_this_turn": damage_this_turn + amount, "eliminated": new <= 0}
    text = Said("%(amount)s Damage: HP %(hp)s -> %(new)s", amount=amount, hp=hp, new=new)
    out["summary"] = Said("%(text)s - Eliminated.", text=text) if new <= 0 else sentence(text)
    return out


def heal(hp: int, start: int, amount: int) -> dict:
    """Green HP: never above the starting HP (seed 000, Symbols & Colours, Increase)."""
    whole_argument(start, "start", 1, what=N_("Starting HP"))
    whole_argument(hp, "hp", -999, start, what=N_("HP"))
    whole_argument(amount, "amount", 0, what=N_("Healing"))
    new = min(start, hp + amount)
    wasted = hp + amount - new
    text = (Said("Heal %(amount)s: HP %(hp)s -> %(new)s (%(lost)s lost: never above the starting %(start)s).",
                 amount=amount, hp=hp, new=new, lost=wasted, start=start) if wasted
            else Said("Heal %(amount)s: HP %(hp)s -> %(new)s.", amount=amount, hp=hp, new=new))
    return {"hp": new, "healed": new - hp, "wasted": wasted, "summary": text}


def recover_cards(hand: int, discard: int, amount: int) -> dict:
    """Green card symbol: random cards from the discard pile back to the hand (seed 000, Increase)."""
    whole_argument(hand, "hand", 0, what=N_("Cards in hand"))
    whole_argument(discard, "discard", 0, what=N_("Cards in the discard pile"))
    whole_argument(amount, "amount", 0, what=N_("Cards to return"))
    moved = min(amount, discard)
    return {"hand": hand + moved, "discard": discard - moved, "returned": moved,
            "summary": f"{_plural(moved, 'random card')} from the discard pile to the hand."}


def always_dangerous_reminder() -> str:
    return sentence(Said("Always Dangerous: if your hand has no Offense Card with an attack, you may take up to 2 "
                         "Offense Cards from your discard pile, then discard as many cards from your hand"))


def draw(hand: int, deck: int, hand_has_attack: bool | None = None) -> dict:
    """Draw step: top the hand up to 6; an empty deck stops the draw without eliminating."""
    whole_argument(hand, "hand", 0, what=N_("Cards in hand"))
    whole_argument(deck, "deck", 0, what=N_("Cards in the Draw Deck"))
    drawn = min(max(0, HAND_SIZE - hand), deck)
    new_hand, new_deck = hand + drawn, deck - drawn
    out = {"hand": new_hand, "deck": new_deck, "drawn": drawn,
           # seed 000, Fleet Arrival Timer: "When any player's Draw Deck is reduced to 0 cards"
           "deck_emptied": deck > 0 and new_deck == 0,
           "eliminated": new_hand == 0 and new_deck == 0}
    text = f"Draw {drawn}: hand {new_hand}, deck {new_deck}"
    if out["deck_emptied"]:
        text += " (Draw Deck empty: no more draws, not Eliminated)"
    if hand_has_attack is False:
        out["always_dangerous"] = always_dangerous_reminder()
        text += ". " + out["always_dangerous"]
    elif hand_has_attack is None:
        out["always_dangerous"] = "Check the Always Dangerous rule: any Offense Card with an attack in hand?"
    out["summary"] = text if text.endswith(".") else text + "."
    return out


def always_dangerous(hand: int, discard: int, taken: int, hand_has_attack: bool = False) -> dict:
    """Take up to 2 Offense Cards from the discard pile, then discard as many from the hand."""
    if hand_has_attack:
        raise RuleError(_("Always Dangerous applies only when your hand holds no Offense Card with an attack "
                          "(seed 000, Always Dangerous)."), "taken")
    whole_argument(hand, "hand", 0, what=N_("Cards in hand"))
    whole_argument(discard, "discard", 0, what=N_("Cards in the discard pile"))
    whole_argument(taken, "taken", 0, ALWAYS_DANGEROUS_MAX, what=N_("Offense Cards taken"))
    if taken > discard:
        raise RuleError(_("The discard pile holds only %(n)s cards.", n=discard), "taken")
    return {"hand": hand, "discard": discard, "taken": taken,
            "summary": f"Take {_plural(taken, 'Offense Card')} from the discard pile and discard "
                       f"{taken} from the hand; counts unchanged."}


def return_to_deck(hand: int, deck: int, count: int) -> dict:
    """Return step: up to two cards from the hand to the bottom of the Draw Deck."""
    whole_argument(hand, "hand", 0, what=N_("Cards in hand"))
    whole_argument(deck, "deck", 0, what=N_("Cards in the Draw Deck"))
    whole_argument(count, "count", 0, RETURN_MAX, what=N_("Cards returned"))
    if count > hand:
        raise RuleError(_("The hand holds only %(n)s cards.", n=hand), "count")
    return {"hand": hand - count, "deck": deck + count, "returned": count,
            "summary": Said("%(cards)s to the bottom of the Draw Deck: hand %(hand)s, deck %(deck)s.",
                            cards=_plural(count, "card"), hand=hand - count, deck=deck + count)}
