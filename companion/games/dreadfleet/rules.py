"""Dreadfleet (Games Workshop, 2011): the game's procedures as pure functions.

Source: seed 002 (Universal Head rules summary v1.1, OCR text; "Renai" there is the Repair order,
"Blake Kraken" the Black Kraken).  Comments cite its headings.  What the seed does not give - a
warship's characteristics, the Fate and Damage cards, the wound results after Flesh Wound - the
players enter from their own cards; nothing here invents it.

Conventions
- Dice: a procedure takes ``dice`` (what the player rolled on the table) or ``rng`` (anything with
  ``randint(a, b)``), see ``companion.rules.roll_or_take``.  A roll that depends on the first one
  (armour saves after hits, the D3 after a passed escape) has its own argument; if it is neither
  given nor rollable, the result names it under ``awaiting`` and the caller asks again with both.
- Cards are dicts.  Damage: ``{"name", "type", "value", "irreparable"}``; Fate: ``{"name", "wind",
  "markers", "direction", "kind", "br"}``; status: ``{"name": "At Anchor"}``.  A deck is a list with
  its top card first, a discard pile a list with its top card last.
- Results are JSON-ready dicts with a one-line ``summary`` for the log.
"""
from __future__ import annotations

import math

import icepool

from companion.rules import RuleError, roll_or_take

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
WOUND_RESULTS = (  # seed 002, Duelling and Wound Cards names only the first and the fourth
    "Unwounded", "Flesh Wound", "Wound 2 (see your Wound card)", "Wound 3 (see your Wound card)",
    "Mortal wound",
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

def _whole(value, field: str, label: str, lo: int | None = None, hi: int | None = None) -> int:
    """An int within [lo, hi], or a RuleError whose sentence names the field."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{label} must be a whole number; got {value!r}.", field)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
        raise RuleError(f"{label} must be a whole number {span}; got {value}.", field)
    return value


def _take(count: int, sides: int, dice, rng, what: str, field: str = "dice") -> list[int]:
    """roll_or_take, with the error pointed at the right control."""
    try:
        return roll_or_take(count, sides, dice, rng, what)
    except RuleError as exc:
        raise RuleError(exc.message, field) from None


def _roll_each(counts: list[int], dice, rng, what: str) -> list[list[int]]:
    """Dice for several rollers: rolled, or taken as one flat list (in order) or one list each."""
    if dice is None:
        return [_take(count, 6, None, rng, what) for count in counts]
    dice = list(dice)
    if dice and all(isinstance(group, (list, tuple)) for group in dice):
        if len(dice) != len(counts):
            raise RuleError(f"Expected {len(counts)} groups of {what}, one per roller; got {len(dice)}.", "dice")
        return [_take(count, 6, group, None, what) for count, group in zip(counts, dice)]
    flat = _take(sum(counts), 6, dice, None, what)
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


def _plural(count: int, word: str) -> str:
    if word == "die":
        return "1 die" if count == 1 else f"{count} dice"
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


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


# --- broadsides (seed 002, Broadsides) --------------------------------------------------------

def range_band(distance_inches) -> dict:
    """Seed 002, Broadsides step 4: the range band and D6 needed; a band includes its maximum."""
    if isinstance(distance_inches, bool) or not isinstance(distance_inches, (int, float)) \
            or math.isnan(distance_inches):
        raise RuleError(f"The range must be a distance in inches; got {distance_inches!r}.", "distance")
    if distance_inches < 0:
        raise RuleError(f"The range cannot be negative; got {distance_inches}.", "distance")
    for band, reach, needed in RANGE_BANDS:
        if distance_inches <= reach:
            return {"band": band, "distance": distance_inches, "max_inches": reach, "needed": needed,
                    "summary": f"{_inches(distance_inches)} is {band} range: {needed}+ to hit"}
    raise RuleError(f"{_inches(distance_inches)} is beyond the maximum range of {MAX_RANGE}\": "
                    "no broadside.", "distance")


def broadside_dice(broadside: int, partial: bool = False) -> int:
    """Seed 002, Broadsides step 3: dice = Broadside, halved for a partial shot (Basics: round up)."""
    broadside = _whole(broadside, "broadside", "Broadside", 0)
    return -(-broadside // 2) if partial else broadside


def to_hit_modifier(*, first_broadside: bool = False, raking: bool = False, modifier: int = 0,
                    target_is_auxiliary: bool = False) -> int:
    """Seed 002, Broadsides step 4: +1 first broadside, +1 raking fire, plus any card's modifier."""
    if raking and target_is_auxiliary:
        # Seed 002, Auxiliaries: "Warships cannot claim the raking bonus against them."
        raise RuleError("Warships cannot claim the raking bonus against an auxiliary.", "raking")
    modifier = _whole(modifier, "modifier", "The to-hit modifier")
    return FIRST_BROADSIDE_BONUS * bool(first_broadside) + RAKING_BONUS * bool(raking) + modifier


def _shot(broadside, distance, armour, partial, raking, first_broadside, modifier,
          target_is_auxiliary) -> dict:
    band = range_band(distance)
    modifier = to_hit_modifier(first_broadside=first_broadside, raking=raking, modifier=modifier,
                               target_is_auxiliary=target_is_auxiliary)
    armour = _whole(armour, "armour", "Armour", *STAT_INPUT_LIMITS["armour"])
    return {"broadside": broadside, "partial": bool(partial), "dice": broadside_dice(broadside, partial),
            "band": band["band"], "distance": distance, "needed": band["needed"], "modifier": modifier,
            "hits_on": lowest_success(band["needed"], modifier), "armour": armour}


def _at(shot: dict) -> str:
    bonus = f" ({shot['modifier']:+d} to hit)" if shot["modifier"] else ""
    return f"{_plural(shot['dice'], 'die')} at {shot['needed']}+{bonus}"


def broadside(broadside: int, distance, armour: int, *, partial: bool = False, raking: bool = False,
              first_broadside: bool = False, modifier: int = 0, target_is_auxiliary: bool = False,
              dice=None, save_dice=None, rng=None, firer: str = "", target: str = "") -> dict:
    """Seed 002, Broadsides steps 3-7: roll to hit; each hit saved on D6 >= Armour; unsaved hits draw Damage cards."""
    shot = _shot(broadside, distance, armour, partial, raking, first_broadside, modifier,
                 target_is_auxiliary)
    hit_dice = _take(shot["dice"], 6, dice, rng, "broadside dice")
    hits = sum(_passes(die, shot["needed"], shot["modifier"]) for die in hit_dice)
    result = {**shot, "firer": firer, "target": target, "hit_dice": hit_dice, "hits": hits,
              "save_dice": None, "saved": None, "unsaved": None, "damage_cards": None, "awaiting": None}
    if hits and save_dice is None and rng is None:
        result["awaiting"] = {"field": "save_dice", "count": hits, "sides": 6,
                              "prompt": f"{target or 'Target'}: roll {_plural(hits, 'armour save')} "
                                        f"(D6 >= {shot['armour']} cancels a hit)."}
        result["summary"] = f"{firer or 'Warship'} fires {_at(shot)}: {_plural(hits, 'hit')} -> roll armour saves"
        return result
    saves = [] if hits == 0 and not save_dice else _take(hits, 6, save_dice, rng, "armour saves", "save_dice")
    saved = sum(1 for die in saves if die >= shot["armour"])  # seed 002, step 6: equals or exceeds
    unsaved = hits - saved
    result.update(save_dice=saves, saved=saved, unsaved=unsaved, damage_cards=unsaved,
                  summary=f"{firer or 'Warship'} fires {_at(shot)}: {_plural(hits, 'hit')}, {saved} saved -> "
                          f"draw {_plural(unsaved, 'Damage card')}")
    return result


def broadside_odds(broadside: int, distance, armour: int, *, partial: bool = False,
                   raking: bool = False, first_broadside: bool = False, modifier: int = 0,
                   target_is_auxiliary: bool = False) -> dict:
    """Exact chances of 0, 1, 2 ... unsaved hits (Damage cards) before rolling, with icepool."""
    shot = _shot(broadside, distance, armour, partial, raking, first_broadside, modifier,
                 target_is_auxiliary)
    hit = icepool.d6.map(lambda n: int(_passes(n, shot["needed"], shot["modifier"])))
    fails_save = icepool.d6.map(lambda n: int(n < shot["armour"]))
    cards = shot["dice"] @ (hit * fails_save)
    distribution = [[k, float(cards.probability(k))] for k in range(shot["dice"] + 1)]
    mean = float(cards.mean())
    return {**shot, "distribution": distribution, "mean": mean,
            "p_hit": float(hit.probability(1)), "p_save": 1 - float(fails_save.probability(1)),
            "p_at_least_one": 1 - distribution[0][1],
            "summary": f"{_at(shot)} against "
                       f"Armour {shot['armour']}: expect {mean:.2f} Damage cards, "
                       f"{1 - distribution[0][1]:.0%} chance of at least one"}


# --- command (seed 002, Basics; Order Cards) --------------------------------------------------

def command_check(command: int, dice=None, rng=None, modifier: int = 0, first_mate: bool = False,
                  reroll_allowed: bool = False, what: str = "Command check") -> dict:
    """Seed 002, Basics: D6 (+ modifiers) >= Command passes; a natural 1 fails, a natural 6 passes.

    ``dice`` is [roll] or, where a re-roll is allowed and the roll failed, [roll, re-roll]
    (Basics: "No single dice may be re-rolled more than once").  With ``rng`` a failed roll that
    may be re-rolled is re-rolled at once.
    """
    if first_mate:
        command = FIRST_MATE_COMMAND
    command = _whole(command, "command", "Command", *STAT_INPUT_LIMITS["command"])
    modifier = _whole(modifier, "modifier", "The Command modifier")
    if dice is None:
        rolls = _take(1, 6, None, rng, "Command die")
        if reroll_allowed and not _passes(rolls[0], command, modifier):
            rolls += _take(1, 6, None, rng, "re-rolled Command die")
    else:
        dice = list(dice)
        if not 1 <= len(dice) <= 2:
            raise RuleError("Enter the Command die you rolled (and its re-roll, if you took one).", "dice")
        rolls = _take(1, 6, dice[:1], None, "Command die")
        if len(dice) == 2:
            if not reroll_allowed:
                raise RuleError(f"This {what} may not be re-rolled.", "dice")
            if _passes(rolls[0], command, modifier):
                raise RuleError(f"Only a failed {what} is re-rolled.", "dice")
            rolls += _take(1, 6, dice[1:], None, "re-rolled Command die")
    natural = rolls[-1]
    passed = _passes(natural, command, modifier)
    note = ""
    if natural == ALWAYS_FAILS:
        note = " (a 1 always fails)"
    elif natural == ALWAYS_SUCCEEDS and natural + modifier < command:
        note = " (a 6 always succeeds)"
    rolled = ", re-rolled ".join(str(die) for die in rolls)
    who = " by the first mate" if first_mate else ""
    return {"command": command, "modifier": modifier, "first_mate": bool(first_mate), "rolls": rolls,
            "rerolled": len(rolls) == 2, "passed": passed,
            "can_reroll": bool(reroll_allowed) and not passed and len(rolls) == 1,
            "summary": f"{what}{who} ({command}+{_signed(modifier)}): rolled {rolled}{note} -> "
                       f"{'passed' if passed else 'failed'}"}


def command_odds(command: int, modifier: int = 0, first_mate: bool = False,
                 reroll_allowed: bool = False) -> dict:
    """The chance a Command check passes (a failed roll re-rolled once where allowed)."""
    if first_mate:
        command = FIRST_MATE_COMMAND
    command = _whole(command, "command", "Command", *STAT_INPUT_LIMITS["command"])
    p = sum(_passes(n, command, modifier) for n in range(1, 7)) / 6
    if reroll_allowed:
        p = 1 - (1 - p) ** 2
    return {"command": command, "modifier": modifier, "p_pass": p,
            "summary": f"Command {command}+{_signed(modifier)}: {p:.0%} to pass"
                       + (" (a failed roll re-rolled once)" if reroll_allowed else "")}


def _order_name(order) -> str:
    wanted = str(order).strip().casefold()
    if wanted == "renai":  # the seed's OCR spelling of Repair
        return "Repair"
    for name in ORDERS:
        if name.casefold() == wanted:
            return name
    raise RuleError(f"Unknown order {order!r}; the orders are {', '.join(ORDERS)}.", "order")


def _check_full_speed_ahead(current_speed, in_irons: bool, at_anchor: bool) -> None:
    if current_speed is None:
        raise RuleError("Full Speed Ahead needs the warship's current Speed.", "speed")
    if _whole(current_speed, "speed", "Speed", 0) == 0:
        # seed 002, Full Speed Ahead: "cannot be issued to a warship with a current Speed of 0"
        raise RuleError("Full Speed Ahead cannot be issued to a warship with a current Speed of 0.", "order")
    if in_irons:
        raise RuleError("A sail class warship caught in irons may not use Full Speed Ahead.", "order")
    if at_anchor:
        # seed 002, Dropping Anchor: at anchor "It may not now move for any reason."
        raise RuleError("A warship at anchor may not move for any reason, so not at Full Speed Ahead.", "order")


def issue_order(order: str, command: int, *, current_speed: int | None = None, in_irons: bool = False,
                at_anchor: bool = False, first_mate: bool = False, modifier: int = 0,
                dice=None, rng=None) -> dict:
    """Seed 002, Order Cards: one order per activation, issued on a passed Command check.

    A warship at anchor may re-roll the check for a Repair order (seed 002, Dropping Anchor).
    """
    order = _order_name(order)
    if order == "Full Speed Ahead":
        _check_full_speed_ahead(current_speed, in_irons, at_anchor)
    check = command_check(command, dice, rng, modifier, first_mate,
                          reroll_allowed=order == "Repair" and at_anchor, what=f"{order} order")
    verdict = "issued" if check["passed"] else "not issued (return it to your hand)"
    return {**check, "order": order, "issued": check["passed"],
            "summary": f"{check['summary']}: {order} {verdict}"}


def full_speed_ahead(current_speed: int, *, in_irons: bool = False, at_anchor: bool = False,
                     dice=None, rng=None) -> dict:
    """Seed 002, Full Speed Ahead: after its other moves the warship must move 2D6" straight forwards."""
    _check_full_speed_ahead(current_speed, in_irons, at_anchor)
    rolled = _take(FULL_SPEED_AHEAD_DICE, 6, dice, rng, "Full Speed Ahead dice")
    inches = sum(rolled)
    return {"dice": rolled, "inches": inches,
            "summary": f"Full Speed Ahead: must move {inches}\" straight forwards (rolled "
                       f"{' + '.join(map(str, rolled))}), even if it runs aground or contacts a ship"}


def escape_jeopardy(command: int, enemies_in_contact: int = 0, *, at_anchor: bool = False,
                    auxiliary: bool = False, first_mate: bool = False, dice=None, move_dice=None,
                    rng=None) -> dict:
    """Seed 002, Escaping Jeopardy: Command check at -1 per enemy in base contact, then move up to D3+1".

    ``move_dice`` is [the D3] (1-3) once the check has passed.
    """
    if auxiliary:
        raise RuleError("Auxiliaries cannot escape jeopardy.", "auxiliary")  # seed 002, Auxiliaries
    if at_anchor:
        raise RuleError("A warship at anchor may not escape jeopardy.", "at_anchor")
    enemies = _whole(enemies_in_contact, "enemies_in_contact", "Enemies in base contact", 0)
    check = command_check(command, dice, rng, ESCAPE_PENALTY_PER_ENEMY * enemies, first_mate,
                          what="Escape jeopardy")
    result = {"check": check, "escaped": check["passed"], "d3": None, "move_inches": 0, "awaiting": None}
    if not check["passed"]:
        return {**result, "summary": f"{check['summary']}: it may not move at all this turn"}
    if move_dice is None and rng is None:
        result["awaiting"] = {"field": "move_dice", "count": 1, "sides": 3,
                              "prompt": "Roll a D3 for the escape move (D3+1\")."}
        return {**result, "move_inches": None, "summary": f"{check['summary']}: roll a D3 to move"}
    d3 = _take(1, 3, move_dice, rng, "D3", "move_dice")[0]
    move = d3 + ESCAPE_EXTRA_INCHES
    return {**result, "d3": d3, "move_inches": move,
            "summary": f"{check['summary']}: move up to {move}\" facing the same way, out of contact, "
                       "then a free change of heading"}


# --- boarding actions and duels (seed 002, Boarding Actions; Duelling and Wound Cards) --------

def _crews(side, field: str, label: str) -> list[dict]:
    ships = side if isinstance(side, (list, tuple)) else [side]
    if not ships:
        raise RuleError("Each side of a boarding action needs at least one warship.", field)
    out = []
    for i, ship in enumerate(ships):
        name = (ship.get("name") if isinstance(ship, dict) else None) or f"{label} ship {i + 1}"
        crew = ship.get("crew") if isinstance(ship, dict) else ship
        out.append({"name": name, "crew": _whole(crew, "crew", f"{name}'s current Crew",
                                                          *STAT_INPUT_LIMITS["crew"])})
    return out


def boarding_action(side_a, side_b, dice=None, rng=None, labels=("Side A", "Side B")) -> dict:
    """Seed 002, Boarding Actions: D6 per current Crew, 5-6 a victory; fewer victories draw the difference.

    A side is one warship or a list (a multiple boarding action: each warship rolls, the side's
    victories are summed and every warship of the losing side draws the result).  A warship is its
    current Crew or ``{"name", "crew"}``.  On a tie every warship involved draws one Damage card.
    """
    ships = {"side_a": _crews(side_a, "side_a", labels[0]), "side_b": _crews(side_b, "side_b", labels[1])}
    everyone = ships["side_a"] + ships["side_b"]
    for ship, rolled in zip(everyone, _roll_each([s["crew"] for s in everyone], dice, rng,
                                                 "boarding action dice")):
        ship.update(dice=rolled, victories=_victories(rolled))
    totals = {key: sum(s["victories"] for s in group) for key, group in ships.items()}
    result = abs(totals["side_a"] - totals["side_b"])
    loser = None if result == 0 else min(totals, key=totals.get)
    for key, group in ships.items():
        for ship in group:
            ship["damage_cards"] = 1 if loser is None else (result if key == loser else 0)
    names = dict(zip(("side_a", "side_b"), labels))
    score = f"{names['side_a']} {totals['side_a']}, {names['side_b']} {totals['side_b']} victories"
    if loser is None:
        outcome = "a tie: every warship involved draws 1 Damage card"
    else:
        drawers = " and ".join(s["name"] for s in ships[loser])
        outcome = f"{drawers} {'draws' if len(ships[loser]) == 1 else 'each draw'} " \
                  f"{_plural(result, 'Damage card')}"
    return {"side_a": ships["side_a"], "side_b": ships["side_b"], "victories": totals,
            "result": result, "loser": loser, "tie": loser is None,
            "summary": f"Boarding action: {score} -> {outcome}"}


def wound_result(wounds: int) -> dict:
    """Seed 002, Duelling and Wound Cards: the wound ladder, Flesh Wound first, mortal at 4."""
    wounds = _whole(wounds, "wounds", "Wounds", 0, MORTAL_WOUNDS)
    mortal = wounds >= MORTAL_WOUNDS
    return {"wounds": wounds, "result": WOUND_RESULTS[wounds], "mortal": mortal,
            "can_duel": not mortal, "first_mate_commands": mortal,
            "command": FIRST_MATE_COMMAND if mortal else None}


def _captains(side, field: str, label: str) -> list[dict]:
    captains = side if isinstance(side, (list, tuple)) else [side]
    out = []
    for i, captain in enumerate(captains):
        if not isinstance(captain, dict):
            raise RuleError("A captain is {name, swashbuckling, wounds}.", field)
        name = captain.get("name") or f"{label} captain {i + 1}"
        out.append({"name": name,
                    "swashbuckling": _whole(captain.get("swashbuckling"), "swashbuckling",
                                            f"{name}'s Swashbuckling",
                                            *STAT_INPUT_LIMITS["swashbuckling"]),
                    "wounds_before": _whole(captain.get("wounds", 0), "wounds", f"{name}'s wounds",
                                            0, MORTAL_WOUNDS)})
    return out


def captains_duel(side_a, side_b, dice=None, rng=None, labels=("Side A", "Side B")) -> dict:
    """Seed 002, Duelling: D6 per Swashbuckling, 5-6 a victory; the loser takes a wound, a tie wounds both.

    A side is one captain or a list (a multiple boarding action: victories summed, every captain of
    the losing side is wounded).  A captain is ``{"name", "swashbuckling", "wounds"}``.  Mortally
    wounded captains sit out; if a side has none left to fight, no duel is fought.
    """
    sides = {"side_a": _captains(side_a, "side_a", labels[0]), "side_b": _captains(side_b, "side_b", labels[1])}
    fighting = {key: [c for c in group if c["wounds_before"] < MORTAL_WOUNDS] for key, group in sides.items()}
    names = dict(zip(("side_a", "side_b"), labels))
    for group in sides.values():
        for captain in group:
            captain.update(dice=[], victories=0, wounds=captain["wounds_before"],
                           fights=captain["wounds_before"] < MORTAL_WOUNDS)
    if not fighting["side_a"] or not fighting["side_b"]:
        idle = names["side_a"] if not fighting["side_a"] else names["side_b"]
        return {**sides, "fought": False, "victories": {"side_a": 0, "side_b": 0}, "loser": None,
                "tie": False, "summary": f"No duel: {idle} has no captain able to duel"}
    everyone = fighting["side_a"] + fighting["side_b"]
    for captain, rolled in zip(everyone, _roll_each([c["swashbuckling"] for c in everyone], dice, rng,
                                                    "Swashbuckling dice")):
        captain.update(dice=rolled, victories=_victories(rolled))
    totals = {key: sum(c["victories"] for c in group) for key, group in fighting.items()}
    loser = None if totals["side_a"] == totals["side_b"] else min(totals, key=totals.get)
    wounded = [c for key, group in fighting.items() for c in group if loser in (None, key)]
    for captain in wounded:
        captain["wounds"] = min(MORTAL_WOUNDS, captain["wounds"] + 1)
    for group in sides.values():
        for captain in group:
            captain.update({k: v for k, v in wound_result(captain["wounds"]).items() if k != "wounds"})
    score = f"{names['side_a']} {totals['side_a']}, {names['side_b']} {totals['side_b']} victories"
    hurt = ", ".join(f"{c['name']} takes a wound ({c['result']})" for c in wounded)
    return {**sides, "fought": True, "victories": totals, "loser": loser, "tie": loser is None,
            "summary": f"Duel: {score}{' (tie)' if loser is None else ''} -> {hurt}"}


def contest_odds(dice_a: int, dice_b: int) -> dict:
    """Chances of a boarding action or duel: each side rolls its dice, 5-6 a victory."""
    dice_a = _whole(dice_a, "dice_a", "Side A's dice", 0, 200)
    dice_b = _whole(dice_b, "dice_b", "Side B's dice", 0, 200)
    victory = icepool.d6.map(lambda n: int(n >= VICTORY_ON))
    margin = (dice_a @ victory) - (dice_b @ victory)
    distribution = [[k, float(margin.probability(k))] for k in range(-dice_b, dice_a + 1)]
    a_wins = sum(p for k, p in distribution if k > 0)
    tie = sum(p for k, p in distribution if k == 0)
    return {"dice_a": dice_a, "dice_b": dice_b, "margin": distribution,
            "p_side_a_wins": a_wins, "p_tie": tie, "p_side_b_wins": 1 - a_wins - tie,
            "summary": f"{_plural(dice_a, 'die')} against {dice_b}: side A wins {a_wins:.0%}, "
                       f"tie {tie:.0%}, side B wins {1 - a_wins - tie:.0%}"}


# --- wind (seed 002, Setup; Fate; Wind Strength) ----------------------------------------------

def _ring_position(position, ring) -> int:
    if isinstance(position, bool) or position not in ring:
        raise RuleError(f"The wind gauge position must be one of {ring[0]}..{ring[-1]} "
                        f"(red die then white die); got {position!r}.", "position")
    return position


def place_wind(dice=None, rng=None) -> dict:
    """Seed 002, Setup: roll a red die (first number) and a white die (second number): [red, white]."""
    red, white = _take(2, 6, dice, rng, "dice (red, then white)")
    position = 10 * red + white
    return {"position": position, "red": red, "white": white,
            "summary": f"Wind gauge placed at {position} (red {red}, white {white})"}


def move_wind(position: int, markers: int, direction: str = "clockwise", ring=WIND_RING) -> dict:
    """Seed 002, Fate: move the gauge the number of markers shown, in the direction of the arrows."""
    ring = tuple(ring)
    position = _ring_position(position, ring)
    markers = _whole(markers, "markers", "Markers", *MARKER_INPUT_LIMITS)
    step = DIRECTIONS.get(str(direction).strip().casefold())
    if step is None:
        raise RuleError(f"The wind direction must be clockwise or anticlockwise; got {direction!r}.", "direction")
    new = ring[(ring.index(position) + step * markers) % len(ring)]
    return {"from": position, "position": new, "markers": markers, "direction": direction,
            "summary": f"Wind gauge moves {_plural(markers, 'marker')} {direction}: {position} -> {new}"}


def apply_fate_wind(position: int, card: dict, dice=None, rng=None, ring=WIND_RING) -> dict:
    """Seed 002, Fate: after a Fate card, move the gauge by its markers, or re-place it on a 2D6 symbol."""
    card = validate_card(card, "fate")
    if card["markers"] == "2D6":
        placed = place_wind(dice, rng)
        return {**placed, "from": position,
                "summary": f"{card['name']}: {placed['summary'].replace('placed', 're-placed')}"}
    moved = move_wind(position, card["markers"], card.get("direction") or "clockwise", ring)
    return {**moved, "summary": f"{card['name']}: {moved['summary']}"}


def wind_strength(fate_discard: list) -> int:
    """Seed 002, Wind Strength: the number on the top Fate discard (its bottom left corner), 1 if none."""
    if not fate_discard:
        return CALM_WIND
    top = fate_discard[-1]
    wind = top.get("wind") if isinstance(top, dict) else None
    return _whole(wind, "wind", f"The wind strength of {_card_name(top) or 'the top Fate card'}",
                  *WIND_INPUT_LIMITS)


def _relation(relation) -> str:
    found = WIND_RELATIONS.get(str(relation).strip().casefold())
    if found is None:
        raise RuleError("Say where the wind gauge is from the ship: aft arc (astern), fore arc "
                        f"(in irons) or a side arc; got {relation!r}.", "relation")
    return found


def sail_move_allowance(speed: int, strength: int, relation: str = "side", *, sail: bool = True,
                        at_anchor: bool = False, command: int | None = None, first_mate: bool = False,
                        dice=None, rng=None) -> dict:
    """Seed 002, Wind Strength: how far a warship may (max) and must (min) move this Movement sub-phase.

    ``speed`` is the current Speed; ``relation`` where the wind gauge lies at the start of the
    sub-phase: "astern" (aft arc), "in irons" (fore arc) or "side".  In irons rolls the Command check.
    """
    speed = _whole(speed, "speed", "Speed", 0)
    strength = _whole(strength, "strength", "Wind strength", *WIND_INPUT_LIMITS)
    base = {"speed": speed, "strength": strength, "relation": None, "command_check": None,
            "full_speed_ahead_allowed": speed > 0 and not at_anchor}
    if at_anchor:
        # seed 002, Dropping Anchor / Wind Strength: may not move; "not affected by wind strength"
        return {**base, "max_inches": 0, "min_inches": 0,
                "summary": "At anchor: it may not move, and the wind does not affect it"}
    if not sail:
        return {**base, "max_inches": speed, "min_inches": 0,
                "summary": f"Not sail class: move up to {speed}\""}
    relation = _relation(relation)
    base["relation"] = relation
    if relation == "in irons":
        if command is None and not first_mate:
            raise RuleError("A warship in irons must pass a Command check: enter its Command.", "command")
        check = command_check(command or FIRST_MATE_COMMAND, dice, rng, first_mate=first_mate,
                              what="In irons Command check")
        most = speed if check["passed"] else max(0, speed - strength)
        return {**base, "command_check": check, "max_inches": most, "min_inches": 0,
                "full_speed_ahead_allowed": False,
                "summary": f"In irons: {check['summary']} -> move up to {most}\", no minimum, "
                           "no Full Speed Ahead"}
    # Sail class must move at least the wind strength "(unless unable to do so)".
    most = speed + strength if relation == "astern" else speed
    least = min(strength, most)
    why = f"wind astern adds {strength}" if relation == "astern" else "wind on the side"
    return {**base, "max_inches": most, "min_inches": least,
            "summary": f"{why.capitalize()}: move at least {least}\" and up to {most}\""}


# --- auxiliaries, anchor, initiative ----------------------------------------------------------

def is_flying(auxiliary: str) -> bool:
    """Seed 002, Flying Auxiliaries: Dwarf Dirigibles and Dragons."""
    name = str(auxiliary).strip().casefold()
    return any(name.startswith(kind.casefold()) for kind in FLYING_AUXILIARIES)


def capsize_test(auxiliary: str = "Cog", *, at_anchor: bool = False, run_aground: bool = False,
                 dice=None, rng=None) -> dict:
    """Seed 002, Auxiliaries: deploying a cog while not at anchor or aground, a D6 of 1-3 loses it."""
    if canonical_name(auxiliary) in SEA_MONSTERS:
        raise RuleError("Sea monsters cannot be deployed.", "auxiliary")
    if is_flying(auxiliary):
        return {"needed": False, "roll": None, "capsized": False,
                "summary": f"{auxiliary} flies: no capsize test"}
    if at_anchor or run_aground:
        return {"needed": False, "roll": None, "capsized": False,
                "summary": f"{auxiliary} deployed from a warship {'at anchor' if at_anchor else 'run aground'}: "
                           "no capsize test"}
    roll = _take(1, 6, dice, rng, "capsize die")[0]
    capsized = roll <= CAPSIZE_ON_OR_UNDER
    return {"needed": True, "roll": roll, "capsized": capsized,
            "summary": f"Capsize test for {auxiliary}: rolled {roll} -> "
                       f"{'capsized: it and its card are removed from play' if capsized else 'deployed'}"}


def drop_anchor(attached: list, distance_to_terrain, *, weighed_this_turn: bool = False) -> dict:
    """Seed 002, Dropping Anchor: within 2" of an island or wreck at the end of the Movement sub-phase."""
    if isinstance(distance_to_terrain, bool) or not isinstance(distance_to_terrain, (int, float)) \
            or not 0 <= distance_to_terrain:
        raise RuleError("The distance to the island or wreck must be inches, 0 or more.", "distance")
    if distance_to_terrain > ANCHOR_REACH:
        raise RuleError(f"A warship drops anchor only within {ANCHOR_REACH}\" of an island or shipwreck.",
                        "distance")
    if weighed_this_turn:
        raise RuleError("You cannot drop and weigh anchor in the same turn.", "anchor")
    problem = attach_problem({"name": AT_ANCHOR}, attached)
    if problem:
        raise RuleError(problem, "anchor")
    return {"attached": [*attached, {"name": AT_ANCHOR}],
            "summary": "Drops anchor: it may not move for any reason; Repair checks may be re-rolled"}


def weigh_anchor(attached: list, *, dropped_this_turn: bool = False) -> dict:
    """Seed 002, Dropping Anchor: remove At Anchor at the end of a later Movement sub-phase."""
    if dropped_this_turn:
        raise RuleError("You cannot drop and weigh anchor in the same turn.", "anchor")
    if not any(_is_named(card, AT_ANCHOR) for card in attached):
        raise RuleError("This warship is not at anchor.", "anchor")
    return {"attached": [card for card in attached if not _is_named(card, AT_ANCHOR)],
            "summary": "Weighs anchor: normal movement rules again"}


def initiative_roll_off(dice=None, rng=None, sides=SIDES) -> dict:
    """Seed 002, Basics and Initiative: each player rolls a die, the highest wins.

    The seed gives no rule for a tie: the result says so and the players roll off again.
    """
    rolls = _take(2, 6, dice, rng, "roll-off dice (one per player)")
    winner = None if rolls[0] == rolls[1] else sides[0 if rolls[0] > rolls[1] else 1]
    said = f"{sides[0]} {rolls[0]}, {sides[1]} {rolls[1]}"
    return {"rolls": dict(zip(sides, rolls)), "winner": winner, "tie": winner is None,
            "summary": f"Initiative roll-off: {said} -> "
                       + (f"{winner} has initiative and chooses first or second player" if winner
                          else "a tie: roll off again")}


def sea_monster_controller(nearest_warship_side: str, sides=SIDES) -> str:
    """Seed 002, Sea Monsters: the opponent of the player with the nearest warship controls it."""
    if nearest_warship_side not in sides:
        raise RuleError(f"The nearest warship's side must be one of {', '.join(sides)}.", "side")
    return sides[1] if nearest_warship_side == sides[0] else sides[0]


# --- decks (seed 002, Basics; Running Aground; Damage Cards) ----------------------------------

def shuffle(cards: list, rng=None, order: list[int] | None = None) -> list:
    """A shuffled copy: in ``order`` (indexes, e.g. from the log) or by Fisher-Yates with rng.randint."""
    cards = list(cards)
    if order is not None:
        if sorted(order) != list(range(len(cards))):
            raise RuleError("A shuffle order must list every card's index exactly once.", "order")
        return [cards[i] for i in order]
    if rng is None:
        raise RuleError("Shuffling needs the companion's dice (an RNG) or the new order.", "order")
    for i in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _draw_one(deck: list, discard: list, rng) -> tuple[object, bool]:
    """Take the top card (mutating deck/discard); an exhausted deck is first rebuilt from its discards."""
    reshuffled = False
    if not deck:
        if not discard:
            raise RuleError("The deck and its discard pile are both empty.", "deck")
        # seed 002, Basics: "when the deck is exhausted, shuffle the discards to form a new deck"
        deck.extend(shuffle(discard, rng))
        discard.clear()
        reshuffled = True
    return deck.pop(0), reshuffled


def draw_cards(deck: list, discard: list, count: int = 1, rng=None) -> dict:
    """Draw ``count`` cards from the top, reshuffling the discards whenever the deck runs out."""
    count = _whole(count, "count", "The number of cards", 0)
    deck, discard, drawn, reshuffles = list(deck), list(discard), [], 0
    for _ in range(count):
        card, reshuffled = _draw_one(deck, discard, rng)
        drawn.append(card)
        reshuffles += reshuffled
    return {"drawn": drawn, "deck": deck, "discard": discard, "reshuffled": reshuffles,
            "summary": f"Drew {', '.join(map(_card_name, drawn)) or 'nothing'}"
                       + (" (discards reshuffled into a new deck)" if reshuffles else "")}


def _damage_type(card_type) -> str:
    wanted = str(card_type).strip().casefold()
    for kind in DAMAGE_TYPES:
        if kind.casefold() == wanted:
            return kind
    raise RuleError(f"A Damage card type is one of {', '.join(DAMAGE_TYPES)}; got {card_type!r}.", "type")


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
    why = "end of the deck: the last card drawn applies" if fell_back else f"a {card_type} card"
    return {"card": applied, "discarded": passed_over, "deck": deck, "discard": discard,
            "fell_back": fell_back, "reshuffled": int(reshuffled),
            "summary": f"Drew {len(turned)} for a {card_type} card -> apply {_card_name(applied)} ({why}); "
                       f"{_plural(len(passed_over), 'card')} discarded"}


def draw_until_hull(deck: list, discard: list, rng=None) -> dict:
    """Seed 002, Running Aground: draw Damage cards until a Hull result, apply it, discard the rest."""
    result = draw_of_type(deck, discard, "Hull", rng)
    return {**result, "summary": f"Run aground: {result['summary']}"}


def draw_damage(deck: list, discard: list, count: int = 1, *, auxiliary: bool = False, rng=None) -> dict:
    """Draw Damage cards; an auxiliary discards each Special card and draws another (seed 002, Auxiliaries)."""
    count = _whole(count, "count", "The number of Damage cards", 0)
    deck, discard, drawn, replaced, reshuffles = list(deck), list(discard), [], [], 0
    while len(drawn) < count:
        if auxiliary and all(_card_type(c) == "Special" for c in deck + discard):
            raise RuleError("Only Special cards are left to draw for this auxiliary.", "deck")
        card, reshuffled = _draw_one(deck, discard, rng)
        reshuffles += reshuffled
        if auxiliary and _card_type(card) == "Special":
            discard.append(card)
            replaced.append(card)
            continue
        drawn.append(card)
    return {"drawn": drawn, "replaced": replaced, "deck": deck, "discard": discard,
            "reshuffled": reshuffles,
            "summary": f"Drew {', '.join(map(_card_name, drawn)) or 'nothing'}"
                       + (f" ({_plural(len(replaced), 'Special card')} discarded and replaced)"
                          if replaced else "")}


# --- damage, repair, destruction (seed 002, Characteristics; Damage Cards; Repair order) -------

def damage_totals(damage_cards: list) -> dict:
    """Hull, Crew and Speed damage (card values summed) and the number of Special cards."""
    totals = dict.fromkeys(DAMAGE_TYPES, 0)
    for card in damage_cards:
        kind = _card_type(card)
        if kind == "Special":
            totals["Special"] += 1
        elif kind:
            totals[kind] += _card_value(card)
    return totals


def current_stats(stats: dict, damage_cards: list) -> dict:
    """A warship's characteristics after its Hull, Crew and Speed cards (never below 0)."""
    totals = damage_totals(damage_cards)
    now = dict(stats)
    for kind in ("Hull", "Crew", "Speed"):
        key = kind.lower()
        if key in now:
            now[key] = max(0, now[key] - totals[kind])
    return now


def warship_destroyed(hull: int, crew: int, damage_cards: list) -> dict:
    """Seed 002, Damage Cards: total Hull or Crew damage >= that characteristic removes the warship."""
    hull = _whole(hull, "hull", "Hull", *STAT_INPUT_LIMITS["hull"])
    crew = _whole(crew, "crew", "Crew", *STAT_INPUT_LIMITS["crew"])
    totals = damage_totals(damage_cards)
    reasons = [f"{kind} damage {totals[kind]} >= {value}"
               for kind, value in (("Hull", hull), ("Crew", crew)) if totals[kind] >= value]
    destroyed = bool(reasons)
    return {"destroyed": destroyed, "hull_damage": totals["Hull"], "crew_damage": totals["Crew"],
            "summary": ("Destroyed (" + "; ".join(reasons) + "): remove it and discard its cards")
                       if destroyed else f"Afloat: Hull damage {totals['Hull']}/{hull}, "
                                         f"Crew damage {totals['Crew']}/{crew}"}


def is_repairable(card) -> bool:
    """Seed 002, Repair order: a Hull, Speed, Special or Crew card, or Set Ablaze - never an Irreparable one."""
    if isinstance(card, dict) and card.get("irreparable"):
        return False
    return _card_type(card) is not None or _is_named(card, SET_ABLAZE)


def repair(attached: list, card) -> dict:
    """Seed 002, Repair order: discard one repairable card from the warship (``card`` = index or name)."""
    attached = list(attached)
    if isinstance(card, int) and not isinstance(card, bool):
        if not 0 <= card < len(attached):
            raise RuleError("Choose one of the cards on this warship to repair.", "card")
        index = card
    else:
        index = next((i for i, c in enumerate(attached) if _is_named(c, str(card))), None)
        if index is None:
            raise RuleError(f"This warship has no card named {card!r}.", "card")
    chosen = attached[index]
    if isinstance(chosen, dict) and chosen.get("irreparable"):
        raise RuleError(f"{_card_name(chosen)} is Irreparable: it cannot be repaired or removed by any means.",
                        "card")
    if not is_repairable(chosen):
        raise RuleError("Repair discards a Hull, Speed, Special, Crew or Set Ablaze card; "
                        f"{_card_name(chosen)} is none of these.", "card")
    del attached[index]
    return {"repaired": chosen, "attached": attached,
            "summary": f"Repair: {_card_name(chosen)} discarded"}


# --- cards attached to a warship (seed 002, Status Cards; Dropping Anchor) --------------------

def attach_problem(card, attached: list, warship_name: str = "") -> str | None:
    """Why this card may not go on this warship now (one sentence), or None if it may."""
    ship = canonical_name(warship_name) if warship_name else "this warship"
    if _is_named(card, AT_ANCHOR):
        if any(_is_named(c, AT_ANCHOR) for c in attached):
            return f"{ship} already has an At Anchor card: only one is allowed."
        if any(_is_named(c, SET_ABLAZE) for c in attached):
            return "A warship set ablaze may not drop anchor."
    kind = _fate_kind(card)
    if kind == "Shot":
        if ship in NO_SHOT_WARSHIPS:
            return f"Shot cards may be placed on any warship except the {', '.join(NO_SHOT_WARSHIPS[:-1])} " \
                   f"or {NO_SHOT_WARSHIPS[-1]}."
        if any(_fate_kind(c) == "Shot" for c in attached):
            return f"{ship} already has a Shot card: a warship may only have one at a time."
    if kind == "Upgrade" and (ship in SEA_MONSTERS or is_flying(ship)):
        return "Upgrade cards go on a Warship or a Cog Auxiliary card."
    return None


def can_attach(card, attached: list, warship_name: str = "") -> bool:
    """Whether the card may be placed in this warship's Status area now."""
    return attach_problem(card, attached, warship_name) is None


def attach(card, attached: list, warship_name: str = "") -> dict:
    """Place a card on a warship; Set Ablaze flips an At Anchor card over (seed 002, Dropping Anchor)."""
    problem = attach_problem(card, attached, warship_name)
    if problem:
        raise RuleError(problem, "card")
    removed = []
    if _is_named(card, SET_ABLAZE):
        removed = [c for c in attached if _is_named(c, AT_ANCHOR)]
        attached = [c for c in attached if not _is_named(c, AT_ANCHOR)]
    note = " (no longer at anchor)" if removed else ""
    return {"attached": [*attached, card], "removed": removed,
            "summary": f"{_card_name(card)} placed on {warship_name or 'the warship'}{note}"}


# --- player-entered cards ---------------------------------------------------------------------

def validate_warship(stats: dict, *, auxiliary: bool = False) -> dict:
    """Check a Warship (or Auxiliary) card typed in by a player; returns it with lower-case keys."""
    if not isinstance(stats, dict):
        raise RuleError("A warship card is a set of characteristics.", "stats")
    given = {str(key).strip().casefold(): value for key, value in stats.items()}
    needed = AUXILIARY_STATS if auxiliary else WARSHIP_STATS
    known = set(WARSHIP_STATS) | {"name", "side", "sail", "flying"}
    for key in given:
        if key not in known:
            raise RuleError(f"Unknown characteristic {key!r}; a warship has "
                            f"{', '.join(WARSHIP_STATS)} and sail.", key)
    card = {key: given[key] for key in ("name", "side") if key in given}
    for key in needed:
        if key not in given or given[key] is None or given[key] == "":
            raise RuleError(f"{key.capitalize()} is missing: enter it from your card.", key)
        card[key] = _whole(given[key], key, key.capitalize(), *STAT_INPUT_LIMITS[key])
    for key in set(WARSHIP_STATS) - set(needed):
        if given.get(key) not in (None, ""):
            card[key] = _whole(given[key], key, key.capitalize(), *STAT_INPUT_LIMITS[key])
    for flag in ("sail", "flying"):
        if flag not in given:
            if flag == "sail" and not auxiliary:
                raise RuleError("Sail is missing: say whether the card is sail class.", "sail")
            continue
        if given[flag] not in (True, False, 0, 1):
            raise RuleError(f"{flag.capitalize()} must be yes or no; got {given[flag]!r}.", flag)
        card[flag] = bool(given[flag])
    if "side" in card and card["side"] not in SIDES:
        raise RuleError(f"Side must be {SIDES[0]} or {SIDES[1]}; got {card['side']!r}.", "side")
    return card


def _card_text(card: dict, key: str, label: str) -> str:
    value = card.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RuleError(f"{label} is missing: give the card a {key}.", key)
    return value.strip()


def _flag(card: dict, key: str, label: str) -> bool:
    value = card.get(key, False)
    if not isinstance(value, bool):
        raise RuleError(f"{label} must be true or false; got {value!r}.", key)
    return value


def validate_card(card: dict, deck: str) -> dict:
    """Check a player-defined Fate or Damage card; returns it normalised (canonical spellings, defaults)."""
    if not isinstance(card, dict):
        raise RuleError("A card is a set of fields (name, type ...).", "card")
    deck = str(deck).strip().casefold()
    out = {**card, "name": _card_text(card, "name", "The card's name")}
    if "count" in card:
        out["count"] = _whole(card["count"], "count", "Count", 1, 100)
    if deck == "damage":
        if "type" not in card:
            raise RuleError(f"Type is missing: a Damage card is {', '.join(DAMAGE_TYPES)}.", "type")
        out["type"] = _damage_type(card["type"])
        # seed 002, Damage Cards: single, 'double' or 'triple'
        out["value"] = _whole(card.get("value", 1), "value", "Value (1 single, 2 double, 3 triple)",
                              min(CARD_MULTIPLE), max(CARD_MULTIPLE))
        out["irreparable"] = _flag(card, "irreparable", "Irreparable")
        return out
    if deck != "fate":
        raise RuleError(f"The deck must be fate or damage; got {deck!r}.", "deck")
    if "wind" not in card:
        raise RuleError("Wind is missing: enter the wind strength (bottom left of the card).", "wind")
    out["wind"] = _whole(card["wind"], "wind", "Wind strength", *WIND_INPUT_LIMITS)
    markers = card.get("markers")
    if isinstance(markers, str) and markers.strip().upper() == "2D6":
        out["markers"] = "2D6"  # seed 002, Fate: "on a 2D6 symbol, to a new location"
        out.pop("direction", None)
    else:
        if markers is None:
            raise RuleError("Markers is missing: how many markers the wind gauge moves, or 2D6.", "markers")
        out["markers"] = _whole(markers, "markers", "Markers", *MARKER_INPUT_LIMITS)
        direction = str(card.get("direction") or "").strip().casefold()
        if (out["markers"] or direction) and direction not in DIRECTIONS:
            raise RuleError("Direction must be clockwise or anticlockwise (the arrows on the card).", "direction")
        if direction:
            out["direction"] = "clockwise" if DIRECTIONS[direction] > 0 else "anticlockwise"
    kind = _fate_kind(card)
    if kind is None:
        raise RuleError(f"Kind must be one of {', '.join(FATE_KINDS)}; got {card.get('kind')!r}.", "kind")
    out["kind"] = kind
    out["br"] = _flag(card, "br", "BR (brief respite)")
    return out


def check_warship_roster(raw: dict) -> list[dict]:
    """Check content/dreadfleet/data/warships.toml against the seed's names; returns its warships."""
    ships = raw.get("warships") if isinstance(raw, dict) else None
    if not isinstance(ships, list):
        raise RuleError("warships.toml needs a [[warships]] list.", "warships")
    for i, ship in enumerate(ships):
        name = ship.get("name")
        if name not in WARSHIPS:
            raise RuleError(f"warships[{i}].name {name!r} is not one of the seed's ten warships.", "name")
        side, auxiliaries = WARSHIPS[name]
        if ship.get("side") != side:
            raise RuleError(f"warships[{i}].side of {name} must be {side}.", "side")
        listed = [a["name"] for a in ship.get("auxiliaries", []) for _ in range(a.get("count", 1))]
        if tuple(listed) != auxiliaries:
            raise RuleError(f"warships[{i}].auxiliaries of {name} must be {list(auxiliaries)}.", "auxiliaries")
    if sorted(s["name"] for s in ships) != sorted(WARSHIPS):
        raise RuleError("warships.toml must list each of the ten warships once.", "warships")
    return ships
