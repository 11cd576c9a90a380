"""Dreadnaught (seed 000): the numbers the players juggle while the cards stay on the table.

The cards are physical; these procedures keep the counts (HP, Draw Deck, hand, discard, tokens,
Upgrade/Ready slots, the Fleet Arrival Timer) and answer the questions the rulebook makes players
work out by hand (initiative order, range band, Card Burn counting, elimination, victory points).
Every number comes from seed 000 (``/work/shared/seeds/000_010efc3beb902eee.txt``) and names its
section.  Inputs and outputs are plain dicts, lists, strings and integers; each result carries a
``summary`` sentence.  A move the rules forbid raises ``RuleError(sentence, field)``.

Initiative values are held internally in tenths (5.9 -> 59) so that comparisons are exact; ``X``
sorts above every number (seed 000, Initiative Order: "This starts at initiative X, then moves
down through initiative 5.9, 5.8, 5.7 ... all the way down through initiative 1 to initiative 0").
"""
from __future__ import annotations

import copy
import math

from companion.rules import RuleError, roll_or_take

# --- numbers of the seed ----------------------------------------------------------------------
BASE_HP = 24              # seed 000, Setup: "Both players then set their HP to 24."
HAND_SIZE = 6             # seed 000, Setup "drawing 6 cards"; Turn Sequence, Draw "until they have 6"
DECK_SIZES = (26, 36)     # seed 000, Setup: Draw Deck "of 26 cards" (Defender) / "of 36 cards" (Attacker)
SLOTS = 4                 # seed 000, Readying Cards: "any of your 4 available Upgrade/Ready Slots"
UPGRADES_MAX = 4          # seed 000, Setup: "choose up to 4 Upgrade Cards"
READY_PER_TURN = 2        # seed 000, Readying Cards: "place up to 2 cards"; Turn Sequence, Ready
READY_PLAYS = 1           # seed 000, Power Management: "you may choose to play a single Ready card"
RETURN_MAX = 2            # seed 000, Turn Sequence, Return: "up to two cards"
PM_MAX_CARDS = 3          # seed 000, Power Management: "any combination of up to 3 cards"
PM_MAX_OFFENSE = 2        # seed 000, Power Management: "A maximum of two ... can be Offense Cards"
PM_MAX_TERRAIN = 1        # seed 000, Turn Sequence, Power Management: "may also play one Terrain Card"
ALWAYS_DANGEROUS_MAX = 2  # seed 000, Always Dangerous: "search your discard pile for up to 2 Offense Cards"
PRIMARY_BURN = 2          # seed 000, Primary Cards: "count as 2 cards when discarded"
TOKEN_BURN = 1            # seed 000, Symbols & Colours, Card Burn: "tokens count as 1 card"
GRACE_TENTHS = 10         # seed 000, Victory & Defeat, Elimination: "within 1.0 initiative steps"

# seed 000, Range & Line of Fire: "Close Medium Long Extreme / 0-3 4-6 7-10 11-15"
RANGE_BANDS = (("Close", 0, 3), ("Medium", 4, 6), ("Long", 7, 10), ("Extreme", 11, 15))
# seed 000, Firing Arcs, Narrow (Long+): "At Long and Extreme ranges the Narrow arc widens out to 5 columns"
NARROW_WIDENS = ("Long", "Extreme")

# seed 000, Initiative Order, Priority: top to bottom, then "the Attacker chooses"
PRIORITY = ("Upgrade", "Terrain", "Event", "Defense", "Offense")
PRIORITY_TIEBREAK = {"Upgrade": ("power_level", "power level"), "Terrain": ("speed", "speed")}
X_TENTHS = 100            # initiative X: before 5.9 (seed 000, Initiative Order)
TOP_TENTHS = 59           # 5.9 is the highest numbered step (seed 000, Initiative Order)

# seed 000, Power Management: the choices per number of cards played
POWER_MANAGEMENT = {
    3: (),
    2: (("smaller_move", "Move using the smaller move value on your Offense System Card."),
        ("flip_one_upgrade", "Flip one Upgrade Card face-up.")),
    1: (("larger_move", "Move using the larger move value on your Offense System Card."),
        ("flip_two_upgrades", "Flip 2 Upgrade Cards face-up."),
        ("flip_one_upgrade_and_smaller_move",
         "Flip one Upgrade Card face-up and move using the smaller move value.")),
}

# seed 000, Victory & Defeat: Major 5, Minor 3, Pyrrhic 1; a defeat earns nothing (no points named)
VICTORY_POINTS = {"major": 5, "minor": 3, "pyrrhic": 1, "defeat": 0}
VICTORY_NAMES = {"major": "Major Victory", "minor": "Minor Victory", "pyrrhic": "Pyrrhic Victory",
                 "defeat": "Defeat"}

# seed 000, Multiplayer Games
PLAYERS_BASE = 4          # "Up to four players"
PLAYERS_EXPANSIONS = 6    # "With expansions this can increase to 6 players"
PLAYERS_TEAMS = 8         # "or 8 if playing in teams"
# seed 000, Multiplayer, First Player: "at least 6 hexes away from all enemy ships (at least 5 hexes
# away in a 4 player game, or at least 4 hexes away in a 5 or more player game)"
PLACEMENT_DISTANCE = {3: 6, 4: 5}
PLACEMENT_DISTANCE_FIVE_PLUS = 4

# seed 000, Multiplayer, Fleet Arrival Timer / Fleet Arrival Effects
FLEET_START = 8           # "placed on the '8' space"
FLEET_TRIGGERS = {        # trigger -> (spaces, whose token)
    "deck_empty": (1, "each"),      # "Draw Deck is reduced to 0 cards, move each Fleet Token forward 1"
    "pushed_to_edge": (1, "each"),  # "Pushed into a hex on the edge of the map ... each ... 1 space"
    "elimination": (2, "own"),      # "you may move your Fleet Token forwards 2 spaces"
    "event_card": (1, "own"),       # Event Cards: "advance your Fleet Token one space"
}
ARRIVAL_RANGE = 4         # "all enemy ships within 4 hexes of that Fleet's Dreadnaught"
ARRIVAL_DAMAGE = 6        # "suffer 6 Damage"
ARRIVAL_BURN = 4          # "and 4 Card Burn"

# seed 000, Multiplayer, Player Elimination
WRECK_DEBRIS_DAMAGE = 8   # "Debris if it suffered 8 or more Damage that turn, otherwise ... Wreckage"
WRECK_DERELICT_BURN = 6   # "Derelict Hull if it suffered 6 or more Card Burn that turn, otherwise ... Drifting Hulk"

# seed 000, Multiplayer, Targeting: "[Teams] Combined Fire ... an extra 2 Damage, 1 Push, or 2 Card Burn"
COMBINED_FIRE = {"damage": 2, "push": 1, "card_burn": 2}


# --- small helpers ----------------------------------------------------------------------------

def _whole(value, field: str, what: str, minimum: int = 0, maximum: int | None = None) -> int:
    """A whole number within limits, or a RuleError naming the field."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{what} must be a whole number; got {value!r}.", field)
    if value < minimum or (maximum is not None and value > maximum):
        limit = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
        raise RuleError(f"{what} must be {limit}; got {value}.", field)
    return value


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _initiative(value, field: str = "initiative") -> int:
    """An initiative step in tenths: 'X' -> 100, 5.9 -> 59, 0 -> 0 (seed 000, Initiative Order)."""
    shown = repr(value)
    if isinstance(value, str):
        text = value.strip()
        shown = text
        if text.upper() == "X":
            return X_TENTHS
        try:
            value = float(text)
        except ValueError:
            raise RuleError(f"An initiative is X or a number from 5.9 down to 0; got {text!r}.", field) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RuleError(f"An initiative is X or a number from 5.9 down to 0; got {shown}.", field)
    tenths = round(value * 10)
    if abs(value * 10 - tenths) > 1e-6:
        raise RuleError(f"Initiative steps go in tenths (5.9, 5.8 ...); got {shown}.", field)
    if not 0 <= tenths <= TOP_TENTHS:
        raise RuleError(f"Initiative runs from X, then 5.9 down to 0; got {shown}.", field)
    return tenths


def initiative_label(tenths: int) -> str:
    """How a step is written: 'X', '5.9', '4' (seed 000 writes whole steps as 'initiative 4')."""
    if tenths == X_TENTHS:
        return "X"
    return str(tenths // 10) if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}"


# --- set-up -----------------------------------------------------------------------------------

def _per_player(value, players: list[str], field: str) -> dict:
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(players))
        if unknown:
            raise RuleError(f"{unknown[0]!r} is not one of the players.", field)
        missing = [p for p in players if p not in value]
        if missing:
            raise RuleError(f"Give a value for {missing[0]}.", field)
        return dict(value)
    return {p: value for p in players}


def placement_distance(players: int) -> int:
    """Minimum hexes from every enemy ship when placing ships in a multiplayer game."""
    _whole(players, "players", "The number of players", 3, PLAYERS_TEAMS)
    return PLACEMENT_DISTANCE.get(players, PLACEMENT_DISTANCE_FIVE_PLUS)


def setup(players, deck_size=36, system_bonus=0, *, teams=None, attacker=None, dice=None, rng=None) -> dict:
    """Starting numbers of every ship: HP 24 + System Card bonus, Draw Deck after a hand of 6.

    Two players are Attacker and Defender (chosen at random, or ``attacker`` names one); three or
    more play the multiplayer rules and a first player is chosen at random instead.  ``deck_size``
    and ``system_bonus`` are one value for all or a dict player -> value; ``teams`` maps player ->
    team name.  The random pick takes one die with as many sides as there are players.
    """
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RuleError("List the players by name.", "players")
    if len(set(players)) != len(players):
        raise RuleError("Each player needs a different name.", "players")
    count = len(players)
    if count < 2:
        raise RuleError("Dreadnaught needs at least 2 players.", "players")
    if count > PLAYERS_TEAMS:
        raise RuleError(f"At most {PLAYERS_TEAMS} players, and only in teams (seed 000, Multiplayer Games).",
                        "players")
    if teams is not None:
        if count == 2:
            raise RuleError("Teams are a multiplayer rule: a 2-player game is Attacker against Defender.", "teams")
        teams = _per_player(teams, players, "teams")
        if not all(isinstance(t, str) and t.strip() for t in teams.values()):
            raise RuleError("Each team needs a name.", "teams")
        if len(set(teams.values())) < 2:
            raise RuleError("A team game needs at least 2 teams.", "teams")
    if count > PLAYERS_EXPANSIONS and teams is None:
        raise RuleError(f"More than {PLAYERS_EXPANSIONS} players must play in teams (seed 000, Multiplayer Games: "
                        f"'6 players; or 8 if playing in teams').", "teams")
    sizes = _per_player(deck_size, players, "deck_size")
    for name, size in sizes.items():
        if isinstance(size, bool) or size not in DECK_SIZES:
            raise RuleError(f"A Draw Deck starts with 26 or 36 cards (seed 000, Setup); got {size!r} for {name}.",
                            "deck_size")
    bonuses = _per_player(system_bonus, players, "system_bonus")
    for name, bonus in bonuses.items():
        _whole(bonus, "system_bonus", f"{name}'s System Card HP bonus")
    if attacker is not None:
        if attacker not in players:
            raise RuleError(f"{attacker!r} is not one of the players.", "attacker")
        chosen, rolled = attacker, None
    else:
        rolled = roll_or_take(1, count, dice, rng, "die")
        chosen = players[rolled[0] - 1]
    ships = []
    for name in players:
        start = BASE_HP + bonuses[name]
        ship = {"name": name, "start_hp": start, "hp": start, "deck": sizes[name] - HAND_SIZE,
                "hand": HAND_SIZE, "discard": 0, "tokens": 0, "mulligan_available": True,
                "slots": [[] for _ in range(SLOTS)]}
        if count == 2:
            ship["role"] = "Attacker" if name == chosen else "Defender"
        if teams is not None:
            ship["team"] = teams[name]
        ships.append(ship)
    result = {"mode": "duel" if count == 2 else "multiplayer", "ships": ships, "rolled": rolled}
    reminders = ["Choose up to 4 Upgrade Cards; their total Power Level may not exceed the System Cards'.",
                 "Each player may mulligan once: draw a new hand of 6, shuffle the old one back."]
    if count == 2:
        result["attacker"] = chosen
        text = f"{chosen} is the Attacker"
    else:
        result["first_player"] = chosen
        result["teams"] = teams
        result["placement_distance"] = placement_distance(count)
        reminders.append("Each player places 2 hexes of Debris, 2 pieces of Wreckage or 1 Drifting Hulk, "
                         "outside the outer 2 rings of the green zone.")
        if count > PLAYERS_BASE:
            reminders.append(f"More than {PLAYERS_BASE} players needs the expansions (seed 000, Multiplayer Games).")
        text = (f"{chosen} places first; ships start at least {result['placement_distance']} hexes "
                f"from every enemy ship")
    result["reminders"] = reminders
    hp = ", ".join(f"{s['name']} {s['hp']} HP / {s['deck']} in deck" for s in ships)
    result["summary"] = f"{text}. {hp}; everyone holds 6 cards."
    return result


def upgrade_power_check(power_levels, system_power: int) -> dict:
    """Up to 4 Upgrade Cards whose Power Levels total no more than the System Cards' total."""
    if not isinstance(power_levels, list):
        raise RuleError("List the Power Level of each chosen Upgrade Card.", "upgrades")
    if len(power_levels) > UPGRADES_MAX:
        raise RuleError(f"Choose at most {UPGRADES_MAX} Upgrade Cards (seed 000, Setup).", "upgrades")
    for level in power_levels:
        _whole(level, "upgrades", "A Power Level")
    _whole(system_power, "system_power", "The System Cards' total Power Level")
    total = sum(power_levels)
    if total > system_power:
        raise RuleError(f"The Upgrade Cards total Power Level {total}, more than the System Cards' "
                        f"{system_power} (seed 000, Card Anatomy).", "upgrades")
    return {"total": total, "limit": system_power, "spare": system_power - total,
            "summary": f"Upgrades total Power Level {total} of {system_power}."}


def mulligan(ship: dict) -> dict:
    """The one mulligan after the starting draw: a new hand of 6, the old hand shuffled back in."""
    if not ship.get("mulligan_available", False):
        raise RuleError("The mulligan is taken once, right after the starting draw (seed 000, Setup).", "mulligan")
    if ship.get("hand") != HAND_SIZE:
        raise RuleError("A mulligan replaces the starting hand of 6 cards.", "mulligan")
    return {**ship, "mulligan_available": False,
            "summary": f"{ship.get('name', 'Ship')} draws a new hand of 6 and shuffles the old one back; "
                       "counts unchanged."}


# --- HP, Damage and the Draw Deck -------------------------------------------------------------

def damage(hp: int, amount: int, damage_this_turn: int = 0) -> dict:
    """Subtract Damage (after modifiers) from HP; 0 or less eliminates (seed 000, Damage, Push & Burn)."""
    _whole(hp, "hp", "HP", minimum=-999)
    _whole(amount, "amount", "Damage")
    _whole(damage_this_turn, "damage_this_turn", "Damage this turn")
    new = hp - amount
    out = {"hp": new, "damage_this_turn": damage_this_turn + amount, "eliminated": new <= 0}
    out["summary"] = f"{amount} Damage: HP {hp} -> {new}" + (" - Eliminated." if new <= 0 else ".")
    return out


def heal(hp: int, start: int, amount: int) -> dict:
    """Green HP: never above the starting HP (seed 000, Symbols & Colours, Increase)."""
    _whole(start, "start", "Starting HP", minimum=1)
    _whole(hp, "hp", "HP", minimum=-999, maximum=start)
    _whole(amount, "amount", "Healing")
    new = min(start, hp + amount)
    wasted = hp + amount - new
    text = f"Heal {amount}: HP {hp} -> {new}"
    if wasted:
        text += f" ({wasted} lost: never above the starting {start})"
    return {"hp": new, "healed": new - hp, "wasted": wasted, "summary": text + "."}


def recover_cards(hand: int, discard: int, amount: int) -> dict:
    """Green card symbol: random cards from the discard pile back to the hand (seed 000, Increase)."""
    _whole(hand, "hand", "Cards in hand")
    _whole(discard, "discard", "Cards in the discard pile")
    _whole(amount, "amount", "Cards to return")
    moved = min(amount, discard)
    return {"hand": hand + moved, "discard": discard - moved, "returned": moved,
            "summary": f"{_plural(moved, 'random card')} from the discard pile to the hand."}


def always_dangerous_reminder() -> str:
    return ("Always Dangerous: if your hand has no Offense Card with an attack, you may take up to 2 Offense "
            "Cards from your discard pile, then discard as many cards from your hand.")


def draw(hand: int, deck: int, hand_has_attack: bool | None = None) -> dict:
    """Draw step: top the hand up to 6; an empty deck stops the draw without eliminating."""
    _whole(hand, "hand", "Cards in hand")
    _whole(deck, "deck", "Cards in the Draw Deck")
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
        raise RuleError("Always Dangerous applies only when your hand holds no Offense Card with an attack "
                        "(seed 000, Always Dangerous).", "taken")
    _whole(hand, "hand", "Cards in hand")
    _whole(discard, "discard", "Cards in the discard pile")
    _whole(taken, "taken", "Offense Cards taken", 0, ALWAYS_DANGEROUS_MAX)
    if taken > discard:
        raise RuleError(f"The discard pile holds only {discard} cards.", "taken")
    return {"hand": hand, "discard": discard, "taken": taken,
            "summary": f"Take {_plural(taken, 'Offense Card')} from the discard pile and discard "
                       f"{taken} from the hand; counts unchanged."}


def return_to_deck(hand: int, deck: int, count: int) -> dict:
    """Return step: up to two cards from the hand to the bottom of the Draw Deck."""
    _whole(hand, "hand", "Cards in hand")
    _whole(deck, "deck", "Cards in the Draw Deck")
    _whole(count, "count", "Cards returned", 0, RETURN_MAX)
    if count > hand:
        raise RuleError(f"The hand holds only {hand} cards.", "count")
    return {"hand": hand - count, "deck": deck + count, "returned": count,
            "summary": f"{_plural(count, 'card')} to the bottom of the Draw Deck: hand {hand - count}, "
                       f"deck {deck + count}."}


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
    _whole(amount, "amount", "Card Burn")
    _whole(hand, "hand", "Cards in hand")
    _whole(deck, "deck", "Cards in the Draw Deck")
    _whole(tokens, "tokens", "Tokens")
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
            printed = _whole(choice.get("x"), "choices", "Indestructible-X", minimum=1)
            on_card = _whole(choice.get("tokens", 0), "choices", "Tokens on the card", 0, printed - 1)
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
    out = {"amount": amount, "absorbed": amount - left + excess, "excess": excess,
           "hand": new_hand, "deck": new_deck, "tokens": new_tokens, "discard_added": discarded,
           "from_hand": hand - new_hand, "from_deck": from_deck, "burned": burned,
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


# --- Ready / Upgrade slots --------------------------------------------------------------------

def _slots(slots) -> list:
    if not isinstance(slots, list) or len(slots) != SLOTS or not all(isinstance(s, list) for s in slots):
        raise RuleError(f"A ship has {SLOTS} Upgrade/Ready slots, each a pile of cards.", "slots")
    return copy.deepcopy(slots)


def _slot_index(slot, field: str = "slot") -> int:
    return _whole(slot, field, "A slot", 1, SLOTS) - 1


def upgrade_slots(upgrades) -> dict:
    """Set-up: up to 4 Upgrade Cards face-up above the System Cards, one per slot."""
    if not isinstance(upgrades, list) or not all(isinstance(u, str) and u.strip() for u in upgrades):
        raise RuleError("List the chosen Upgrade Cards by name.", "upgrades")
    if len(upgrades) > UPGRADES_MAX:
        raise RuleError(f"Choose at most {UPGRADES_MAX} Upgrade Cards (seed 000, Setup).", "upgrades")
    slots = [[] for _ in range(SLOTS)]
    for i, name in enumerate(upgrades):
        slots[i].append({"name": name, "kind": "upgrade", "face_up": True})
    return {"slots": slots, "summary": f"{_plural(len(upgrades), 'Upgrade Card')} in the slots, face-up."}


def ready_cards(slots, placements) -> dict:
    """Ready step: place up to 2 Primary Cards in slots; a new card covers whatever is there."""
    slots = _slots(slots)
    if not isinstance(placements, list):
        raise RuleError("List the cards to ready with their slots.", "placements")
    if len(placements) > READY_PER_TURN:
        raise RuleError(f"Ready at most {READY_PER_TURN} cards a turn (seed 000, Readying Cards).", "placements")
    covered = []
    for placement in placements:
        if not isinstance(placement, dict) or not str(placement.get("name", "")).strip():
            raise RuleError("Each readied card needs a name and a slot.", "placements")
        index = _slot_index(placement.get("slot"))
        if slots[index]:
            covered.append(slots[index][-1]["name"])
        slots[index].append({"name": placement["name"], "kind": "ready"})
    text = f"{_plural(len(placements), 'card')} readied"
    if covered:
        text += f", covering {', '.join(covered)} (unavailable, and not flippable, until the new card is used)"
    return {"slots": slots, "covered": covered, "summary": text + "."}


def play_ready(slots, slot) -> dict:
    """Power Management: play the Ready card on top of a slot, face-up; what it covered is free again."""
    slots = _slots(slots)
    index = _slot_index(slot)
    if not slots[index] or slots[index][-1]["kind"] != "ready":
        raise RuleError(f"Slot {index + 1} has no Ready card on top.", "slot")
    card = slots[index].pop()
    text = f"{card['name']} played from slot {index + 1}"
    if slots[index]:
        under = slots[index][-1]
        text += f"; {under['name']} is uncovered"
    return {"slots": slots, "played": card["name"], "summary": text + "."}


def flip_upgrade(slots, slot, face_up: bool) -> dict:
    """Flip the top Upgrade Card of a slot: face-down when used, face-up through Power Management."""
    slots = _slots(slots)
    index = _slot_index(slot)
    pile = slots[index]
    if not pile:
        raise RuleError(f"Slot {index + 1} is empty.", "slot")
    top = pile[-1]
    if top["kind"] != "upgrade":
        raise RuleError(f"The Upgrade Card in slot {index + 1} is covered and cannot be flipped until the card "
                        f"on it is used (seed 000, Readying Cards).", "slot")
    if top["face_up"] == bool(face_up):
        raise RuleError(f"{top['name']} is already face-{'up' if face_up else 'down'}.", "slot")
    top["face_up"] = bool(face_up)
    verb = "face-up: available again" if face_up else "face-down: used"
    return {"slots": slots, "summary": f"{top['name']} flipped {verb}."}


# --- Power Management -------------------------------------------------------------------------

def power_management_options(cards_played: int, offense_count: int, *, ready_played: int = 0,
                             terrain_played: int = 0, event_played: int = 0, hand: int | None = None) -> dict:
    """Check the cards played for Power Management and list the choices they leave."""
    _whole(cards_played, "cards_played", "Offense & Defense cards played", 0)
    if cards_played > PM_MAX_CARDS:
        raise RuleError(f"Play at most {PM_MAX_CARDS} Offense & Defense cards, a Ready card included "
                        "(seed 000, Power Management).", "cards_played")
    _whole(offense_count, "offense_count", "Offense Cards played", 0)
    _whole(ready_played, "ready_played", "Ready cards played", 0)
    _whole(terrain_played, "terrain_played", "Terrain Cards played", 0)
    _whole(event_played, "event_played", "Event Cards played", 0)
    if offense_count > PM_MAX_OFFENSE:
        raise RuleError(f"At most {PM_MAX_OFFENSE} of the cards may be Offense Cards, a Ready card included "
                        "(seed 000, Power Management).", "offense_count")
    if offense_count > cards_played:
        raise RuleError("More Offense Cards than cards played.", "offense_count")
    if ready_played > READY_PLAYS:
        raise RuleError("Only a single Ready card may be played (seed 000, Power Management).", "ready_played")
    if ready_played > cards_played:
        raise RuleError("A Ready card counts among the cards played.", "ready_played")
    if terrain_played > PM_MAX_TERRAIN:
        raise RuleError("Only one Terrain Card may be played (seed 000, Turn Sequence).", "terrain_played")
    out = {"cards_played": cards_played, "offense_count": offense_count,
           "options": [{"id": i, "text": t} for i, t in POWER_MANAGEMENT.get(cards_played, ())]}
    if cards_played == 3:
        out["summary"] = "3 cards played: no special choices."
    elif cards_played == 0:
        out["summary"] = "No Offense or Defense card played: the seed lists choices only for 1, 2 or 3 cards."
    else:
        names = " / ".join(o["text"].rstrip(".") for o in out["options"])
        out["summary"] = f"{_plural(cards_played, 'card')} played: choose one - {names}."
    if hand is not None:
        _whole(hand, "hand", "Cards in hand")
        from_hand = cards_played - ready_played + terrain_played + event_played
        if from_hand > hand:
            raise RuleError(f"Only {hand} cards in hand; {from_hand} would come from it.", "hand")
        out["hand"] = hand - from_hand
    return out


# --- Initiative order -------------------------------------------------------------------------

def _card_type(value, name) -> str:
    text = str(value or "").strip().capitalize()
    if text == "Defence":
        text = "Defense"
    if text not in PRIORITY:
        raise RuleError(f"{name}: the card type is one of {', '.join(PRIORITY)}; got {value!r}.", "type")
    return text


def initiative_order(cards, attacker: str = "Attacker") -> dict:
    """Resolution order of the revealed cards, step by step, with the Priority tie-break.

    Each card: ``{"name" or "id", "owner", "type", "steps": [X, 5.9, 3, 0 ...], "power_level"
    (Upgrade), "speed" (Terrain)}``.  A card with several steps appears once per step.  Ties at one
    step go Upgrade (higher power level) > Terrain (higher speed) > Event > Defense > Offense; what
    is still tied is flagged ``attacker_chooses`` (seed 000, Initiative Order, Priority).
    """
    if not isinstance(cards, list):
        raise RuleError("List the revealed cards.", "cards")
    entries, ids = [], set()
    for number, card in enumerate(cards, 1):
        if not isinstance(card, dict):
            raise RuleError(f"Card {number} must give its name, type and initiative steps.", "cards")
        name = str(card.get("name") or card.get("id") or "").strip()
        if not name:
            raise RuleError(f"Card {number} needs a name.", "name")
        if card.get("id") is not None:
            if card["id"] in ids:
                raise RuleError(f"Two cards share the id {card['id']!r}.", "id")
            ids.add(card["id"])
        kind = _card_type(card.get("type"), name)
        steps = card.get("steps")
        if not isinstance(steps, list) or not steps:
            raise RuleError(f"{name}: list the initiative steps it resolves at.", "steps")
        tenths = [_initiative(step, "steps") for step in steps]
        if len(set(tenths)) != len(tenths):
            raise RuleError(f"{name}: list each initiative step once.", "steps")
        key, _ = PRIORITY_TIEBREAK.get(kind, (None, None))
        level = card.get(key) if key else None
        if level is not None:
            _whole(level, key, f"{name}'s {key.replace('_', ' ')}")
        ordered = sorted(tenths, reverse=True)
        for i, t in enumerate(ordered, 1):
            entries.append({"card": name, "id": card.get("id"), "owner": card.get("owner"), "type": kind,
                            "initiative": initiative_label(t), "_t": t, "_rank": PRIORITY.index(kind),
                            "_level": level, "step_of": f"{i} of {len(ordered)}",
                            "steps": [initiative_label(x) for x in ordered]})
    # A tie inside Upgrade (or Terrain) needs the power level (or speed) of every card involved.
    for entry in entries:
        key, words = PRIORITY_TIEBREAK.get(entry["type"], (None, None))
        if key and entry["_level"] is None and any(
                o is not entry and o["_t"] == entry["_t"] and o["type"] == entry["type"] for o in entries):
            raise RuleError(f"{entry['card']} ties with another {entry['type']} Card at initiative "
                            f"{entry['initiative']}: enter its {words} (higher breaks the tie).", key)
    entries.sort(key=lambda e: (-e["_t"], e["_rank"], -(e["_level"] or 0)))
    order, choices = [], []
    group, group_id = None, 0
    for position, entry in enumerate(entries, 1):
        prev = entries[position - 2] if position > 1 else None
        tie_key = (entry["_t"], entry["_rank"], entry["_level"] if entry["type"] in PRIORITY_TIEBREAK else None)
        same_step = prev is not None and prev["_t"] == entry["_t"]
        if not same_step:
            reason = f"initiative {entry['initiative']}"
        elif prev["_rank"] != entry["_rank"]:
            reason = f"priority: {prev['type']} before {entry['type']}"
        elif tie_key != group["key"]:
            words = PRIORITY_TIEBREAK[entry["type"]][1]
            reason = f"priority: higher {words} first ({prev['_level']} before {entry['_level']})"
        else:
            reason = f"tied: the Attacker ({attacker}) chooses"
        if group is None or tie_key != group["key"] or not same_step:
            group_id += 1
            group = {"key": tie_key, "id": group_id, "members": []}
        group["members"].append(position)
        row = {k: v for k, v in entry.items() if not k.startswith("_")}
        if entry["type"] in PRIORITY_TIEBREAK:
            row[PRIORITY_TIEBREAK[entry["type"]][0]] = entry["_level"]
        row.update(position=position, reason=reason, tie_group=group_id, attacker_chooses=False)
        order.append(row)
    by_group: dict[int, list] = {}
    for row in order:
        by_group.setdefault(row["tie_group"], []).append(row)
    for gid, rows in by_group.items():
        if len(rows) > 1:
            for row in rows:
                row["attacker_chooses"] = True
                if not row["reason"].startswith("tied"):
                    row["reason"] += f"; tied: the Attacker ({attacker}) chooses"
            choices.append({"tie_group": gid, "initiative": rows[0]["initiative"], "type": rows[0]["type"],
                            "cards": [r["card"] for r in rows], "chooser": attacker})
    steps = []
    for row in order:
        if not steps or steps[-1]["initiative"] != row["initiative"]:
            steps.append({"initiative": row["initiative"], "positions": []})
        steps[-1]["positions"].append(row["position"])
    text = "; ".join(f"{r['initiative']} {r['card']}" + (" *" if r["attacker_chooses"] else "") for r in order)
    summary = f"Resolve: {text}." if order else "No cards revealed."
    if choices:
        summary += f" * tied: {attacker} (the Attacker) chooses the order."
    return {"order": order, "steps": steps, "attacker_choices": choices, "attacker": attacker, "summary": summary}


# --- Range, reduction and the Unstoppable keyword ---------------------------------------------

def range_band(hexes: int) -> dict:
    """Standard range band of a range in hexes (counting the target's hex); none beyond Extreme."""
    _whole(hexes, "hexes", "Range in hexes")
    for band, low, high in RANGE_BANDS:
        if low <= hexes <= high:
            return {"hexes": hexes, "band": band, "in_range": True, "narrow_arc_widens": band in NARROW_WIDENS,
                    "summary": f"{hexes} hexes: {band} range ({low}-{high})."}
    return {"hexes": hexes, "band": None, "in_range": False, "narrow_arc_widens": False,
            "summary": f"{hexes} hexes: beyond Extreme range - no attacks (seed 000, Range & Line of Fire)."}


def reduction(value: int, amount: int = 0, *, negate: bool = False, unstoppable: bool = False,
              unbreakable: bool = False) -> dict:
    """Apply a reduction (or an ignore/negate effect) to Damage, Push or Card Burn.

    Plain: reduce to a minimum of 0.  Unstoppable: immune to reductions, but an effect that would
    ignore or negate the value halves it instead, rounding down; a reduction that would bring the
    value to 0 counts as negating it.  Unbreakable reductions ignore Unstoppable (seed 000, Special
    Keywords).
    """
    _whole(value, "value", "The value")
    _whole(amount, "amount", "The reduction")
    if unstoppable and not unbreakable:
        if negate or (value and amount >= value):
            result, how = value // 2, "Unstoppable: halved, rounding down"
        else:
            result, how = value, "Unstoppable: immune to the reduction"
    else:
        result = 0 if negate else max(0, value - amount)
        how = "negated" if negate else f"reduced by {amount}"
        if unstoppable:
            how += " (Unbreakable ignores Unstoppable)"
    return {"value": value, "result": result, "summary": f"{value} -> {result} ({how})."}


def unstoppable(value: int, amount: int = 0, *, negate: bool = False, unbreakable: bool = False) -> dict:
    """An Unstoppable value against a reduction or a negating effect (see ``reduction``)."""
    return reduction(value, amount, negate=negate, unstoppable=True, unbreakable=unbreakable)


# --- Elimination and victory ------------------------------------------------------------------

def eliminated(ship: dict) -> dict:
    """The three ways out: HP 0 or less, no cards in hand and Draw Deck, Pushed off through a Danger Zone."""
    if not isinstance(ship, dict):
        raise RuleError("Give the ship's HP, hand and deck.", "ship")
    reasons = []
    hp, hand, deck = ship.get("hp"), ship.get("hand"), ship.get("deck")
    if hp is not None and _whole(hp, "hp", "HP", minimum=-999) <= 0:
        reasons.append("destroyed")          # seed 000, Elimination: "reduced to 0 or less HP"
    if hand is not None and deck is not None:
        if _whole(hand, "hand", "Cards in hand") == 0 and _whole(deck, "deck", "Cards in the Draw Deck") == 0:
            reasons.append("disabled")       # "reduced 0 cards in both their hand and Draw Deck"
    if ship.get("pushed_off_danger_zone"):
        reasons.append("denied")             # "Pushed off the map through a Danger Zone"
    words = {"destroyed": "HP 0 or less", "disabled": "no cards in hand or Draw Deck",
             "denied": "Pushed off the map through a Danger Zone"}
    name = ship.get("name", "The ship")
    text = f"{name} is Eliminated: " + "; ".join(words[r] for r in reasons) if reasons else f"{name} fights on"
    return {"eliminated": bool(reasons), "reasons": reasons, "summary": text + "."}


def grace_window(elimination_initiative, step_initiative) -> dict:
    """Does a step still resolve after an Elimination?  Within 1.0 initiative steps: yes."""
    elim = _initiative(elimination_initiative, "elimination_initiative")
    step = _initiative(step_initiative, "step_initiative")
    e, s = initiative_label(elim), initiative_label(step)
    if step >= elim:
        return {"resolves": True, "summary": f"Initiative {s} is not after the Elimination at {e}: it resolves."}
    if elim == X_TENTHS:
        return {"resolves": None, "players_decide": True,
                "summary": f"Eliminated at initiative X: the seed gives X no number, so the players decide "
                           f"whether {s} is within 1.0 steps."}
    gap = elim - step
    ok = gap <= GRACE_TENTHS
    last = initiative_label(max(0, elim - GRACE_TENTHS))
    text = (f"Initiative {s} is within 1.0 of the Elimination at {e}: it still resolves (Event Cards may "
            f"be played)" if ok else f"Initiative {s} is beyond the window (down to {last}): ignored")
    return {"resolves": ok, "window_ends": last, "summary": text + "."}


def victory_points(result: str) -> dict:
    """Points of one battle: Major Victory 5, Minor 3, Pyrrhic 1 (multiplayer only), Defeat 0."""
    key = str(result).strip().lower().replace(" victory", "")
    if key not in VICTORY_POINTS:
        raise RuleError(f"A result is major, minor, pyrrhic or defeat; got {result!r}.", "result")
    points = VICTORY_POINTS[key]
    return {"result": key, "points": points, "summary": f"{VICTORY_NAMES[key]}: {points} pts."}


def duel_result(eliminated_ships: dict) -> dict:
    """Result of a 2-player battle from who was Eliminated: one -> Major for the other; both -> Minor each."""
    if not isinstance(eliminated_ships, dict) or len(eliminated_ships) != 2:
        raise RuleError("Give both players and whether each was Eliminated.", "eliminated")
    out = [name for name, gone in eliminated_ships.items() if gone]
    if not out:
        raise RuleError("The battle ends only when a ship is Eliminated.", "eliminated")
    results = {}
    for name in eliminated_ships:
        if len(out) == 2:
            results[name] = "minor"
        else:
            results[name] = "defeat" if name in out else "major"
    points = {name: VICTORY_POINTS[r] for name, r in results.items()}
    text = ", ".join(f"{n} {VICTORY_NAMES[r]} ({points[n]} pts)" for n, r in results.items())
    return {"results": results, "points": points, "summary": text + "."}


def running_battle(results, best_of: int) -> dict:
    """Totals over a set of linked games (best of 3, 5 ...): most points at the end wins."""
    _whole(best_of, "best_of", "Best of", minimum=1)
    if best_of % 2 == 0:
        raise RuleError("A running battle is best of an odd number of games (3, 5 ...).", "best_of")
    if not isinstance(results, list) or len(results) > best_of:
        raise RuleError(f"A best of {best_of} has at most {best_of} games.", "results")
    totals: dict[str, int] = {}
    games = []
    for number, game in enumerate(results, 1):
        if not isinstance(game, dict) or not game:
            raise RuleError(f"Game {number}: give each player's result.", "results")
        scored = {}
        for name, result in game.items():
            try:
                scored[name] = victory_points(result)["points"]
            except RuleError as exc:
                raise RuleError(f"Game {number}: {exc.message}", "results") from None
            totals[name] = totals.get(name, 0) + scored[name]
        games.append(scored)
    for game in games:
        for name in totals:
            game.setdefault(name, 0)
    left = best_of - len(results)
    ranking = sorted(totals.items(), key=lambda kv: -kv[1])
    leaders = [n for n, p in ranking if ranking and p == ranking[0][1]]
    lead = ranking[0][1] - ranking[1][1] if len(ranking) > 1 else 0
    # Nobody can gain more than a Major Victory (5) in each game still to play.
    decided = len(leaders) == 1 and lead > VICTORY_POINTS["major"] * left
    complete = left == 0
    winner = leaders[0] if (complete or decided) and len(leaders) == 1 else None
    scores = ", ".join(f"{n} {p}" for n, p in ranking)
    if winner and complete:
        text = f"{winner} wins the running battle ({scores})."
    elif winner:
        text = f"{winner} cannot be caught ({scores}); {_plural(left, 'game')} still to play."
    elif complete:
        text = f"Tied on points ({scores}): the seed names no tie-break."
    else:
        text = f"After {_plural(len(results), 'game')}: {scores or 'no points yet'}; {left} to play."
    return {"totals": totals, "games": games, "games_played": len(results), "games_left": left,
            "complete": complete, "decided": decided, "leaders": leaders, "winner": winner, "summary": text}


# --- Multiplayer ------------------------------------------------------------------------------

def fleet_arrival_start(fleets, *, teams: bool = False) -> dict:
    """The first Elimination starts the timer: one Fleet Token per remaining ship (or team) on 8."""
    if not isinstance(fleets, list) or not fleets or not all(isinstance(f, str) and f.strip() for f in fleets):
        raise RuleError("Name each remaining ship (or team) that gets a Fleet Token.", "fleets")
    if len(set(fleets)) != len(fleets):
        raise RuleError("Each Fleet Token needs a different name.", "fleets")
    return {"started": True, "teams": bool(teams), "tokens": {f: FLEET_START for f in fleets},
            "lost": [], "event_advancer": {}, "ends_this_turn": False,
            "summary": f"Fleet Arrival Timer started: {_plural(len(fleets), 'Fleet Token')} on {FLEET_START}."}


def _timer(timer) -> dict:
    if not isinstance(timer, dict) or not timer.get("started"):
        raise RuleError("The Fleet Arrival Timer starts only when the first ship is Eliminated "
                        "(seed 000, Fleet Arrival Timer).", "timer")
    return copy.deepcopy(timer)


def fleet_arrival_advance(timer, trigger: str, *, fleet: str | None = None, player: str | None = None,
                          fleet_lost: str | None = None) -> dict:
    """Move Fleet Tokens towards 0 for one of the seed's triggers.

    ``deck_empty`` and ``pushed_to_edge`` move every token 1; ``elimination`` moves the eliminating
    ``fleet`` 2 (the player may decline: then do not call) and ``fleet_lost`` names a fleet whose
    Dreadnaught is gone (it arrives harmlessly); ``event_card`` moves ``fleet`` 1 instead of the
    Event's effect (in teams, one ``player`` per team each turn).
    """
    timer = _timer(timer)
    if trigger not in FLEET_TRIGGERS:
        raise RuleError(f"A Fleet Token moves for {', '.join(FLEET_TRIGGERS)}; got {trigger!r}.", "trigger")
    spaces, whose = FLEET_TRIGGERS[trigger]
    if whose == "own":
        if fleet not in timer["tokens"]:
            raise RuleError(f"Name the Fleet Token to move; {fleet!r} is not on the timer.", "fleet")
        if trigger == "event_card" and timer["teams"]:
            if not player:
                raise RuleError("Name the player who plays the Event Card.", "player")
            already = timer["event_advancer"].get(fleet)
            if already and already != player:
                raise RuleError(f"Only one player per team advances the Fleet Token each turn; {already} "
                                f"already did (seed 000, Event Cards).", "player")
            timer["event_advancer"][fleet] = player
        moved = [fleet]
    else:
        moved = list(timer["tokens"])
    for name in moved:
        timer["tokens"][name] = max(0, timer["tokens"][name] - spaces)
    if fleet_lost is not None:
        if fleet_lost not in timer["tokens"]:
            raise RuleError(f"{fleet_lost!r} is not on the timer.", "fleet_lost")
        if fleet_lost not in timer["lost"]:
            timer["lost"].append(fleet_lost)
    arrived = [n for n, pos in timer["tokens"].items() if pos == 0]
    if arrived:
        timer["ends_this_turn"] = True
    where = ", ".join(f"{n} {timer['tokens'][n]}" for n in moved)
    text = f"{trigger.replace('_', ' ')}: {_plural(spaces, 'space')} for {where}"
    if arrived:
        text += f". {', '.join(arrived)} at 0: the game ends at the end of this turn (after initiative 0)"
    timer["summary"] = text + "."
    return timer


def fleet_arrival_new_turn(timer) -> dict:
    """A new turn: each team may again have one player advance its token with an Event Card."""
    timer = _timer(timer)
    timer["event_advancer"] = {}
    timer["summary"] = "New turn: Event Card advances reset."
    return timer


def fleet_arrival_effects(timer, distances) -> dict:
    """End of the turn a token reached 0: each arriving Fleet hits enemy ships within 4 hexes.

    ``distances`` maps each fleet to ``{enemy ship: hexes from that Fleet's Dreadnaught}``.  A fleet
    whose Dreadnaught was Eliminated (``lost``) arrives but inflicts nothing.
    """
    timer = _timer(timer)
    if not isinstance(distances, dict):
        raise RuleError("Give, for each arriving fleet, the hexes to each enemy ship.", "distances")
    arriving = [n for n, pos in timer["tokens"].items() if pos == 0]
    if not arriving:
        raise RuleError("No Fleet Token is on the 0 space.", "timer")
    hits = []
    for fleet in arriving:
        if fleet in timer["lost"]:
            continue
        for ship, hexes in (distances.get(fleet) or {}).items():
            _whole(hexes, "distances", f"Hexes from {fleet} to {ship}")
            if hexes <= ARRIVAL_RANGE:
                hits.append({"fleet": fleet, "ship": ship, "hexes": hexes,
                             "damage": ARRIVAL_DAMAGE, "card_burn": ARRIVAL_BURN})
    text = ", ".join(f"{h['ship']} takes {h['damage']} Damage and {h['card_burn']} Card Burn from {h['fleet']}"
                     for h in hits) or "no enemy ship within 4 hexes"
    harmless = [f for f in arriving if f in timer["lost"]]
    if harmless:
        text += f"; {', '.join(harmless)} arrive{'s' if len(harmless) == 1 else ''} without a Dreadnaught: no effect"
    return {"arriving": arriving, "hits": hits, "game_ends": True,
            "summary": f"Fleets arrive: {text}. The game ends: most Eliminations wins."}


def most_eliminations(eliminations: dict) -> dict:
    """Winner of a multiplayer game: the player (or team) that Eliminated the most other ships."""
    if not isinstance(eliminations, dict) or not eliminations:
        raise RuleError("Give each player's (or team's) Eliminations.", "eliminations")
    for name, count in eliminations.items():
        _whole(count, "eliminations", f"{name}'s Eliminations")
    best = max(eliminations.values())
    leaders = [n for n, c in eliminations.items() if c == best]
    winner = leaders[0] if len(leaders) == 1 else None
    text = (f"{winner} wins with {_plural(best, 'Elimination')}." if winner
            else f"Tied on {_plural(best, 'Elimination')}: {', '.join(leaders)} (the seed names no tie-break).")
    return {"winner": winner, "leaders": leaders, "summary": text}


def wreck_terrain(damage_this_turn: int = 0, burn_this_turn: int = 0, cause: str | None = None) -> dict:
    """Terrain left by an Eliminated ship in a multiplayer game, from how and how hard it went."""
    _whole(damage_this_turn, "damage_this_turn", "Damage suffered this turn")
    _whole(burn_this_turn, "burn_this_turn", "Card Burn suffered this turn")
    if cause == "damage":
        terrain = "Debris" if damage_this_turn >= WRECK_DEBRIS_DAMAGE else "Wreckage"
        why = f"{damage_this_turn} Damage this turn ({WRECK_DEBRIS_DAMAGE}+ makes Debris)"
    elif cause == "card_burn":
        terrain = "Derelict Hull" if burn_this_turn >= WRECK_DERELICT_BURN else "Drifting Hulk"
        why = f"{burn_this_turn} Card Burn this turn ({WRECK_DERELICT_BURN}+ makes a Derelict Hull)"
    elif cause == "push":
        terrain, why = None, "Pushed off the map"
    else:
        raise RuleError("Say how the ship was Eliminated: damage, card_burn or push.", "cause")
    text = f"Replace the ship with {terrain}" if terrain else "No terrain"
    return {"terrain": terrain, "cause": cause, "summary": f"{text}: {why}."}


def combined_fire(attackers, teams: dict, effect: str, applied_this_step: bool = False) -> dict:
    """[Teams] Combined Fire: teammates hitting one target at one step add 2 Damage, 1 Push or 2 Burn."""
    if not isinstance(attackers, list) or len(set(attackers)) < 2:
        raise RuleError("Combined Fire needs you and at least one teammate attacking the same target.", "attackers")
    if not isinstance(teams, dict) or any(a not in teams for a in attackers):
        raise RuleError("Give each attacker's team.", "teams")
    if len({teams[a] for a in attackers}) != 1:
        raise RuleError("Combined Fire is for teammates only.", "attackers")
    if effect not in COMBINED_FIRE:
        raise RuleError("Choose the extra effect: damage, push or card_burn.", "effect")
    if applied_this_step:
        raise RuleError("Combined Fire applies only once per initiative step (seed 000, Targeting).", "effect")
    bonus = COMBINED_FIRE[effect]
    words = {"damage": "Damage", "push": "Push", "card_burn": "Card Burn"}[effect]
    return {"effect": effect, "bonus": bonus, "summary": f"Combined Fire: +{bonus} {words} on the target."}


def shared_defense(hexes: int) -> dict:
    """[Teams] Shared Defense: a teammate within Close range may receive your Defense Cards."""
    band = range_band(hexes)
    ok = band["band"] == RANGE_BANDS[0][0]
    text = ("Within Close range: you may assign Defense Cards to your teammate's ship; it counts as having a "
            "copy of your Defense System Card for those cards' tokens and effects" if ok
            else "Not within Close range (0-3): no Shared Defense")
    return {"allowed": ok, "summary": text + "."}
