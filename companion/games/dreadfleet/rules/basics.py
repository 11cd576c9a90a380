"""Dreadfleet basics (seed 002, Basics; Setup; Initiative): the seed's numbers and names, input
limits, the D6 test every procedure uses, card helpers, and the initiative roll-off."""
from __future__ import annotations

from companion import said
from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.said import (
    N_,
    Said,
    _,
    retold,  # noqa: F401  (the games' one rebuild, companion/said.py)
    )

# --- numbers and names from seed 002 ----------------------------------------------------------

SIDES = ("Grand Alliance", "Dreadfleet")  # seed 002, Setup
PHASES = ("Initiative", "Status", "Fate", "Action", "End")  # seed 002, The Game Turn
ACTION_STEPS = ("Orders", "Movement", "Broadsides", "Boarding Actions")  # seed 002, 4: Action a-d

RANGE_BANDS = (  # seed 002, Broadsides step 4 table: (band, maximum inches, D6 result to hit)
    ("Short", 6, 4),
    ("Medium", 12, 5),
    ("Long", 18, 6),
)
MAX_RANGE = 18  # seed 002, Broadsides step 4: "The maximum range is 18""
FIRST_BROADSIDE_BONUS = 1  # seed 002, Broadsides step 4: First Broadside "+1 to hit"
RAKING_BONUS = 1  # seed 002, Broadsides step 4: Raking Fire "+1 to hit"
ALWAYS_FAILS = 1  # seed 002, Basics and Broadsides step 5: "a roll of 1 always fails/misses"
ALWAYS_SUCCEEDS = 6  # seed 002, Basics and Broadsides step 5: "a roll of 6 always succeeds/hits"
LOWEST_SCORE = 1  # seed 002, Basics: "A D6 score can never be modified to less than 1"
VICTORY_ON = 5  # seed 002, Boarding Actions and Duelling: "Results of 5-6 score a single victory"
MORTAL_WOUNDS = 4  # seed 002, Duelling and Wound Cards: "A captain who suffers 4 wounds ... mortal"
FIRST_MATE_COMMAND = 6  # seed 002, Duelling and Wound Cards: the first mate has "Command ... of 6+"
ESCAPE_PENALTY_PER_ENEMY = -1  # seed 002, Escaping Jeopardy: "-1 for each enemy model in base contact"
ESCAPE_EXTRA_INCHES = 1  # seed 002, Escaping Jeopardy: "up to D3+1""
FULL_SPEED_AHEAD_DICE = 2  # seed 002, Order Cards, Full Speed Ahead: "move forwards 2D6""
CAPSIZE_ON_OR_UNDER = 3  # seed 002, Auxiliaries: capsize test "on a 1-3, the cog ... removed"
ANCHOR_REACH = 2  # seed 002, Dropping Anchor: "within 2" of an island or shipwreck"
CALM_WIND = 1  # seed 002, Wind Strength: "if there is no card in this pile, the strength is 1"
HAND_OF_ORDERS = 5  # seed 002, Setup: "their hand of 5 Order cards"

ORDERS = ("Full Speed Ahead", "Hard-a-Port", "Hard-a-Starboard", "Fire As She Bears", "Repair")
DAMAGE_TYPES = ("Hull", "Crew", "Speed", "Special")  # seed 002, Damage Cards
CARD_MULTIPLE = {1: "single", 2: "double", 3: "triple"}  # seed 002, Damage Cards: 'double'/'triple'
FATE_KINDS = ("immediate", "Status", "Spell", "Upgrade", "Shot")  # seed 002, Fate; Status Cards
AT_ANCHOR, SET_ABLAZE = "At Anchor", "Set Ablaze"  # seed 002, Dropping Anchor; Status Cards
RUN_AGROUND = "Run Aground"  # seed 002, Running Aground and Colliding: a warship "runs aground"
WOUND_RESULTS = (  # seed 002, Duelling and Wound Cards names only the first and the fourth
    N_("Unwounded"), N_("Flesh Wound"), N_("Wound 2 (see your Wound card)"), N_("Wound 3 (see your Wound card)"),
    N_("Mortal wound"),
)

WARSHIPS = {  # seed 002, Auxiliaries table (Warship / Auxiliary); sides: see data/warships.toml
    "Heldenhammer": ("Grand Alliance", ("Grand Alliance Cog",)),
    "Flaming Scimitar": ("Grand Alliance", ("Grand Alliance Cog",)),
    "Swordfysh": ("Grand Alliance", ("Grand Alliance Cog",)),
    "Seadrake": ("Grand Alliance", ("Dragon", "Dragon")),  # "2 x Dragons"
    "Grimnir's Thunder": ("Grand Alliance", ("Dwarf Dirigible", "Dwarf Dirigible")),
    "Bloody Reaver": ("Dreadfleet", ("Dreadfleet Cog",)),
    "Shadewraith": ("Dreadfleet", ()),  # "None"
    "Curse of Zandri": ("Dreadfleet", ("Dreadfleet Cog",)),
    "Skabrus": ("Dreadfleet", ("Dreadfleet Cog",)),
    "Black Kraken": ("Dreadfleet", ("Dreadfleet Cog",)),  # "Blake Kraken" in the OCR
}
OCR_NAMES = {"blake kraken": "Black Kraken"}
NO_SHOT_WARSHIPS = ("Skabrus", "Curse of Zandri", "Seadrake")  # seed 002, Status Cards (Shot)
FLYING_AUXILIARIES = ("Dragon", "Dwarf Dirigible")  # seed 002, Flying Auxiliaries
SEA_MONSTERS = ("Bone Hydra", "Leech Wyrm", "Sea Giant")  # seed 002, Sea Monsters

# Seed 002, Setup: a red die gives the first number and a white die the second, so the border has
# the 36 positions 11..66.  The seed does not say in which order they run round the border: the
# ring below runs 11..16, 21..26, ... 66 and back to 11, and "clockwise" means towards higher
# numbers (the same ring is in content/dreadfleet/system.toml; every wind function takes ``ring``).
WIND_RING = tuple(10 * red + white for red in range(1, 7) for white in range(1, 7))
DIRECTIONS = {"clockwise": 1, "anticlockwise": -1, "anti-clockwise": -1,
              "counterclockwise": -1, "counter-clockwise": -1}
WIND_RELATIONS = {  # where the wind gauge lies from the ship: seed 002, Wind Strength
    "astern": "astern", "wind astern": "astern", "aft": "astern", "aft arc": "astern",
    "in irons": "in irons", "irons": "in irons", "fore": "in irons", "fore arc": "in irons",
    "front": "in irons", "front arc": "in irons",
    "side": "side", "side arc": "side", "port": "side", "starboard": "side", "abeam": "side",
}

# --- input limits (NOT game numbers) ----------------------------------------------------------
# They only catch typing slips on a player-entered card; the seed gives no warship's numbers.
# Armour and Command are D6 targets (7 = never on a D6); Hull and Crew start at 1 because a ship
# at 0 is destroyed (seed 002, Characteristics).
STAT_INPUT_LIMITS = {
    "speed": (0, 20), "handling": (0, 20), "broadside": (0, 20), "armour": (1, 7),
    "hull": (1, 20), "crew": (1, 20), "command": (1, 7), "swashbuckling": (0, 20),
}
WARSHIP_STATS = tuple(STAT_INPUT_LIMITS)
# Seed 002, Auxiliaries: no captains (so no Command or Swashbuckling) and no Handling.
AUXILIARY_STATS = ("speed", "broadside", "armour", "hull", "crew")
WIND_INPUT_LIMITS = (0, 20)  # a Fate card's wind strength as typed by a player
MARKER_INPUT_LIMITS = (0, len(WIND_RING))  # at most one lap of the border


# --- small helpers ----------------------------------------------------------------------------


def _roll_each(counts: list[int], dice, rng, what: str) -> list[list[int]]:
    """Dice for several rollers: rolled, or taken as one flat list (in order) or one list each."""
    if dice is None:
        return [roll_or_take(count, 6, None, rng, what) for count in counts]
    dice = list(dice)
    if dice and all(isinstance(group, (list, tuple)) for group in dice):
        if len(dice) != len(counts):
            raise RuleError(_("Expected %(count)s groups of %(what)s, one per roller; got %(got)s.", count=len(counts),
                              what=_(what), got=len(dice)), "dice")
        return [roll_or_take(count, 6, group, None, what) for count, group in zip(counts, dice, strict=False)]
    flat = roll_or_take(sum(counts), 6, dice, None, what)
    groups, start = [], 0
    for count in counts:
        groups.append(flat[start:start + count])
        start += count
    return groups


def _passes(natural: int, target: int, modifier: int = 0) -> bool:
    """Seed 002, Basics: roll + modifiers (never below 1) >= target; a 1 always fails, a 6 always succeeds."""
    if natural == ALWAYS_FAILS:
        return False
    if natural == ALWAYS_SUCCEEDS:
        return True
    return max(LOWEST_SCORE, natural + modifier) >= target


def lowest_success(target: int, modifier: int = 0) -> int:
    """The lowest natural D6 that passes a target with a modifier (2..6: 1 never passes, 6 always does)."""
    return min(n for n in range(1, 7) if _passes(n, target, modifier))


def _victories(dice: list[int]) -> int:
    return sum(1 for die in dice if die >= VICTORY_ON)


PLURALS = {  # _plural's words: (one, more), each a message of its own
    "die": (N_("1 die"), N_("%(n)s dice")),
    "marker": (N_("1 marker"), N_("%(n)s markers")),
    "hit": (N_("1 hit"), N_("%(n)s hits")),
    "armour save": (N_("1 armour save"), N_("%(n)s armour saves")),
    "Damage card": (N_("1 Damage card"), N_("%(n)s Damage cards")),
    "Special card": (N_("1 Special card"), N_("%(n)s Special cards")),
    "card": (N_("1 card"), N_("%(n)s cards")),
}


def _plural(count: int, word: str) -> str:
    """"1 hit", "3 hits": a Said (each reader's words)."""
    if word in PLURALS:
        one, more = PLURALS[word]
        return Said(one) if count == 1 else Said(more, n=count)
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _and(names) -> str:
    """"A", "A and B", "A and B and C" (names are plain; the "and" is the reader's)."""
    names = list(names)
    if len(names) < 2:
        return names[0] if names else ""
    return Said("%(first)s and %(rest)s", first=names[0], rest=_and(names[1:]))


def _said(text) -> str:
    """A sentence part as a Said: a message constant (marked N_ where it is written) or a Said already."""
    return text if isinstance(text, Said) else Said(text)


def spoken(text) -> str:
    """A message (a Said, or a constant marked N_) in the asking phone's words now (for a refusal)."""
    return said.spoken(text) if isinstance(text, Said) else _(text)


def _inches(distance) -> str:
    return f'{int(distance)}"' if float(distance).is_integer() else f'{distance}"'


def _signed(modifier: int) -> str:
    return f", {modifier:+d}" if modifier else ""


def canonical_name(name) -> str:
    """A warship's name as the seed spells it (case-insensitive, OCR slips mended), else as given."""
    text = str(name).strip()
    key = text.casefold()
    if key in OCR_NAMES:
        return OCR_NAMES[key]
    for known in (*WARSHIPS, *SEA_MONSTERS, *FLYING_AUXILIARIES):
        if known.casefold() == key:
            return known
    return text


def _card_name(card) -> str:
    return str(card.get("name", "")) if isinstance(card, dict) else str(card)


def _card_type(card) -> str | None:
    """A damage card's type (Hull/Crew/Speed/Special), or None for other cards."""
    if not isinstance(card, dict):
        return None
    wanted = str(card.get("type", "")).strip().casefold()
    return next((kind for kind in DAMAGE_TYPES if kind.casefold() == wanted), None)


def _card_value(card) -> int:
    # Seed 002, Damage Cards: a 'double' or 'triple' card reduces the characteristic by 2 or 3.
    return int(card.get("value", 1)) if isinstance(card, dict) else 1


def _is_named(card, name: str) -> bool:
    return _card_name(card).strip().casefold() == name.casefold()


def _fate_kind(card) -> str | None:
    if not isinstance(card, dict):
        return None
    wanted = str(card.get("kind", "")).strip().casefold()
    return next((kind for kind in FATE_KINDS if kind.casefold() == wanted), None)


# --- initiative (seed 002, Basics and Initiative) ---------------------------------------------

def initiative_roll_off(dice=None, rng=None, sides=SIDES) -> dict:
    """Seed 002, Basics and Initiative: each player rolls a die, the highest wins.

    The seed gives no rule for a tie: the result says so and the players roll off again.
    """
    rolls = roll_or_take(2, 6, dice, rng, N_("roll-off dice (one per player)"))
    winner = None if rolls[0] == rolls[1] else sides[0 if rolls[0] > rolls[1] else 1]
    result = {"rolls": dict(zip(sides, rolls, strict=False)), "winner": winner, "tie": winner is None}
    return {**result, "summary": initiative_summary(result)}


def initiative_summary(result: dict) -> str:
    """The roll-off's line for the log, from its result (or the stored payload)."""
    (a, a_roll), (b, b_roll) = result["rolls"].items()
    said = {"a": a, "a_roll": a_roll, "b": b, "b_roll": b_roll}
    if result["winner"]:
        return Said("Initiative roll-off: %(a)s %(a_roll)s, %(b)s %(b_roll)s -> %(winner)s has initiative and chooses "
                    "first or second player", winner=result["winner"], **said)
    return Said("Initiative roll-off: %(a)s %(a_roll)s, %(b)s %(b_roll)s -> a tie: roll off again", **said)

