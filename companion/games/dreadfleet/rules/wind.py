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
    _said,
)
from companion.games.dreadfleet.rules.cards import validate_card
from companion.games.dreadfleet.rules.command import check_summary, command_check
from companion.said import N_, Said, _
from companion.schema import whole_argument


def _ring_position(position, ring) -> int:
    if isinstance(position, bool) or position not in ring:
        raise RuleError(_("The wind gauge position must be one of %(first)s..%(last)s (red die then white die); "
                          "got %(got)r.", first=ring[0], last=ring[-1], got=position), "position")
    return position


def place_wind(dice=None, rng=None) -> dict:
    """Seed 002, Setup: roll a red die (first number) and a white die (second number): [red, white]."""
    red, white = roll_or_take(2, 6, dice, rng, N_("dice (red, then white)"))
    position = 10 * red + white
    result = {"position": position, "red": red, "white": white}
    return {**result, "summary": placed_summary(result)}


def placed_summary(result: dict, again: bool = False) -> str:
    """Where the gauge was placed (``again``: re-placed by a Fate card), from the result or the payload."""
    said = {"position": result["position"], "red": result["red"], "white": result["white"]}
    if again:
        return Said("Wind gauge re-placed at %(position)s (red %(red)s, white %(white)s)", **said)
    return Said("Wind gauge placed at %(position)s (red %(red)s, white %(white)s)", **said)


TURNING = {"clockwise": N_("clockwise"), "anticlockwise": N_("anticlockwise")}  # the card's arrows, in words


def move_wind(position: int, markers: int, direction: str = "clockwise", ring=WIND_RING) -> dict:
    """Seed 002, Fate: move the gauge the number of markers shown, in the direction of the arrows."""
    ring = tuple(ring)
    position = _ring_position(position, ring)
    markers = whole_argument(markers, "markers", *MARKER_INPUT_LIMITS, what=N_("Markers"))
    step = DIRECTIONS.get(str(direction).strip().casefold())
    if step is None:
        raise RuleError(_("The wind direction must be clockwise or anticlockwise; got %(got)r.", got=direction),
                        "direction")
    new = ring[(ring.index(position) + step * markers) % len(ring)]
    turning = Said(TURNING[direction]) if direction in TURNING else direction
    return {"from": position, "position": new, "markers": markers, "direction": direction,
            "summary": Said("Wind gauge moves %(markers)s %(direction)s: %(from)s -> %(to)s",
                            markers=_plural(markers, "marker"), direction=turning, **{"from": position}, to=new)}


def apply_fate_wind(position: int, card: dict, dice=None, rng=None, ring=WIND_RING) -> dict:
    """Seed 002, Fate: after a Fate card, move the gauge by its markers, or re-place it on a 2D6 symbol."""
    card = validate_card(card, "fate")
    if card["markers"] == "2D6":
        placed = place_wind(dice, rng)
        wind = placed_summary(placed, again=True)
        return {**placed, "from": position, "wind_said": wind,
                "summary": Said("%(card)s: %(wind)s", card=card["name"], wind=wind)}
    moved = move_wind(position, card["markers"], card.get("direction") or "clockwise", ring)
    return {**moved, "wind_said": moved["summary"],
            "summary": Said("%(card)s: %(wind)s", card=card["name"], wind=moved["summary"])}


def wind_strength(fate_discard: list) -> int:
    """Seed 002, Wind Strength: the number on the top Fate discard (its bottom left corner), 1 if none."""
    if not fate_discard:
        return CALM_WIND
    top = fate_discard[-1]
    wind = top.get("wind") if isinstance(top, dict) else None
    return whole_argument(wind, "wind", *WIND_INPUT_LIMITS,
                          what=_("The wind strength of %(card)s", card=_card_name(top) or _("the top Fate card")))


def _relation(relation) -> str:
    found = WIND_RELATIONS.get(str(relation).strip().casefold())
    if found is None:
        raise RuleError(_("Say where the wind gauge is from the ship: aft arc (astern), fore arc (in irons) or a "
                          "side arc; got %(got)r.", got=relation), "relation")
    return found


def sail_move_allowance(speed: int, strength: int, relation: str = "side", *, sail: bool = True,
                        at_anchor: bool = False, command: int | None = None, first_mate: bool = False,
                        dice=None, rng=None) -> dict:
    """Seed 002, Wind Strength: how far a warship may (max) and must (min) move this Movement sub-phase.

    ``speed`` is the current Speed; ``relation`` where the wind gauge lies at the start of the
    sub-phase: "astern" (aft arc), "in irons" (fore arc) or "side".  In irons rolls the Command check.
    """
    speed = whole_argument(speed, "speed", 0, what=N_("Speed"))
    strength = whole_argument(strength, "strength", *WIND_INPUT_LIMITS, what=N_("Wind strength"))
    base = {"speed": speed, "strength": strength, "relation": None, "command_check": None,
            "full_speed_ahead_allowed": speed > 0 and not at_anchor}
    if at_anchor:
        # seed 002, Dropping Anchor / Wind Strength: may not move; "not affected by wind strength"
        out = {**base, "max_inches": 0, "min_inches": 0}
        return {**out, "summary": sail_summary(out, anchored=True)}
    if not sail:
        out = {**base, "max_inches": speed, "min_inches": 0}
        return {**out, "summary": sail_summary(out)}
    relation = _relation(relation)
    base["relation"] = relation
    if relation == "in irons":
        if command is None and not first_mate:
            raise RuleError(_("A warship in irons must pass a Command check: enter its Command."), "command")
        check = command_check(command or FIRST_MATE_COMMAND, dice, rng, first_mate=first_mate,
                              what=IN_IRONS_CHECK)
        most = speed if check["passed"] else max(0, speed - strength)
        out = {**base, "command_check": check, "max_inches": most, "min_inches": 0,
               "full_speed_ahead_allowed": False}
        return {**out, "summary": sail_summary(out)}
    # Sail class must move at least the wind strength "(unless unable to do so)".
    most = speed + strength if relation == "astern" else speed
    least = min(strength, most)
    out = {**base, "max_inches": most, "min_inches": least}
    return {**out, "summary": sail_summary(out)}


IN_IRONS_CHECK = N_("In irons Command check")


def sail_summary(result: dict, anchored: bool = False) -> str:
    """How far the ship may and must move, from sail_move_allowance's result (or the stored payload)."""
    most, least = f'{result["max_inches"]}"', f'{result["min_inches"]}"'
    if anchored:
        return Said("At anchor: it may not move, and the wind does not affect it")
    if result["relation"] is None:
        return Said("Not sail class: move up to %(most)s", most=most)
    if result["relation"] == "in irons":
        check = check_summary(result["command_check"], _said(IN_IRONS_CHECK))
        return Said("In irons: %(check)s -> move up to %(most)s, no minimum, no Full Speed Ahead", check=check,
                    most=most)
    if result["relation"] == "astern":
        return Said("Wind astern adds %(strength)s: move at least %(least)s and up to %(most)s",
                    strength=result["strength"], least=least, most=most)
    return Said("Wind on the side: move at least %(least)s and up to %(most)s", least=least, most=most)
