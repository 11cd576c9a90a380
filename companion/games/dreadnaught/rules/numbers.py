"""The seed's numbers in one sheet (seed 000, each line names its section), and the checks every rule uses.

Every other module of the rules takes its numbers from here, so a number is checked against the seed in
one place.
"""
from __future__ import annotations

from companion.said import N_, Said, joined

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
PRIORITY_TIEBREAK = {"Upgrade": ("power_level", N_("power level")), "Terrain": ("speed", N_("speed"))}
X_TENTHS = 100            # initiative X: before 5.9 (seed 000, Initiative Order)
TOP_TENTHS = 59           # 5.9 is the highest numbered step (seed 000, Initiative Order)

# seed 000, Power Management: the choices per number of cards played
POWER_MANAGEMENT = {
    3: (),
    2: (("smaller_move", N_("Move using the smaller move value on your Offense System Card.")),
        ("flip_one_upgrade", N_("Flip one Upgrade Card face-up."))),
    1: (("larger_move", N_("Move using the larger move value on your Offense System Card.")),
        ("flip_two_upgrades", N_("Flip 2 Upgrade Cards face-up.")),
        ("flip_one_upgrade_and_smaller_move",
         N_("Flip one Upgrade Card face-up and move using the smaller move value."))),
}

# seed 000, Victory & Defeat: Major 5, Minor 3, Pyrrhic 1; a defeat earns nothing (no points named)
VICTORY_POINTS = {"major": 5, "minor": 3, "pyrrhic": 1, "defeat": 0}
VICTORY_NAMES = {"major": N_("Major Victory"), "minor": N_("Minor Victory"), "pyrrhic": N_("Pyrrhic Victory"),
                 "defeat": N_("Defeat")}

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


# the counted words of the sentences players read, one message for one and one for more (issue 42)
PLURALS = {
    "card": (N_("%(n)s card"), N_("%(n)s cards")),
    "game": (N_("%(n)s game"), N_("%(n)s games")),
    "Elimination": (N_("%(n)s Elimination"), N_("%(n)s Eliminations")),
    "Fleet Token": (N_("%(n)s Fleet Token"), N_("%(n)s Fleet Tokens")),
    "Remains in Play card": (N_("%(n)s Remains in Play card"), N_("%(n)s Remains in Play cards")),
    "token": (N_("%(n)s token"), N_("%(n)s tokens")),
}


def _plural(count: int, word: str) -> str:
    """"1 card", "2 cards": a Said for the words players read (``PLURALS``), plain text for the others."""
    if word in PLURALS:
        return Said(PLURALS[word][0 if count == 1 else 1], n=count)
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def sentence(text) -> str:
    """``text`` closed with a full stop, keeping its message (``bare`` takes the stop off again)."""
    return Said("%(text)s.", text=text)


def bare(text, stop: str = "."):
    """``text`` without its closing words (a full stop, or ``stop``), keeping its message: a Said closed by
    a wrapper message ("%(text)s.") gives back its inner part; a joined one, its last part bare."""
    if not str.endswith(text, stop):
        return text
    if isinstance(text, Said):
        if text.parts is not None:
            return joined(text.args["sep"], (*text.parts[:-1], bare(text.parts[-1], stop)))
        if text.msg == "%(text)s" + stop:
            return text.args["text"]
        last = next((k for k in text.args if text.msg.endswith(f"%({k})s")), None)
        if last is not None and isinstance(text.args[last], str):
            return Said(text.msg, **{**text.args, last: bare(text.args[last], stop)})
    if stop == ".":
        return text.rstrip(".")
    return text.removesuffix(stop)
