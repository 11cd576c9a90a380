"""The wind (seed 002, Setup; Fate; Wind Strength): the gauge round the border, its strength, and how
far a ship may and must sail."""
from __future__ import annotations

from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import (
    CALM_WIND,
    DIRECTIONS,
    FIRST_MATE_COMMAND,
    MARKER_INPUT_LIMITS,
    WIND_INPUT_LIMITS,
    WIND_RELATIONS,
    WIND_RING,
    _card_name,
    _plural,
)
from companion.games.dreadfleet.rules.cards import validate_card
from companion.games.dreadfleet.rules.command import command_check
from companion.schema import whole_argument


def _ring_position(position, ring) -> int:
    if isinstance(position, bool) or position not in ring:
        raise RuleError(f"The wind gauge position must be one of {ring[0]}..{ring[-1]} "
                        f"(red die then white die); got {position!r}.", "position")
    return position


def place_wind(dice=None, rng=None) -> dict:
    """Seed 002, Setup: roll a red die (first number) and a white die (second number): [red, white]."""
    red, white = roll_or_take(2, 6, dice, rng, "dice (red, then white)")
    position = 10 * red + white
    return {"position": position, "red": red, "white": white,
            "summary": f"Wind gauge placed at {position} (red {red}, white {white})"}


def move_wind(position: int, markers: int, direction: str = "clockwise", ring=WIND_RING) -> dict:
    """Seed 002, Fate: move the gauge the number of markers shown, in the direction of the arrows."""
    ring = tuple(ring)
    position = _ring_position(position, ring)
    markers = whole_argument(markers, "markers", *MARKER_INPUT_LIMITS, what="Markers")
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
    return whole_argument(wind, "wind", *WIND_INPUT_LIMITS, what=f"The wind strength of {_card_name(top) or 'the top Fate card'}")


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
    speed = whole_argument(speed, "speed", 0, what="Speed")
    strength = whole_argument(strength, "strength", *WIND_INPUT_LIMITS, what="Wind strength")
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
