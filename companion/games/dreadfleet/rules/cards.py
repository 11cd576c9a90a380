"""Cards the players type in from their own game (seed 002, Characteristics; Damage Cards; Fate): Warship
and Auxiliary cards, Fate and Damage cards, and the warship roster of the content pack."""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import (
    AUXILIARY_STATS,
    CARD_MULTIPLE,
    DAMAGE_TYPES,
    DIRECTIONS,
    FATE_KINDS,
    MARKER_INPUT_LIMITS,
    SIDES,
    STAT_INPUT_LIMITS,
    WARSHIP_STATS,
    WARSHIPS,
    WIND_INPUT_LIMITS,
    _fate_kind,
)
from companion.games.dreadfleet.rules.decks import _damage_type
from companion.said import N_, _
from companion.schema import whole_argument

FLAGS = {"sail": N_("Sail"), "flying": N_("Flying")}


def validate_warship(stats: dict, *, auxiliary: bool = False) -> dict:
    """Check a Warship (or Auxiliary) card typed in by a player; returns it with lower-case keys."""
    if not isinstance(stats, dict):
        raise RuleError(_("A warship card is a set of characteristics."), "stats")
    given = {str(key).strip().casefold(): value for key, value in stats.items()}
    needed = AUXILIARY_STATS if auxiliary else WARSHIP_STATS
    known = set(WARSHIP_STATS) | {"name", "side", "sail", "flying"}
    for key in given:
        if key not in known:
            raise RuleError(_("Unknown characteristic %(key)r; a warship has %(stats)s and sail.", key=key,
                              stats=", ".join(WARSHIP_STATS)), key)
    card = {key: given[key] for key in ("name", "side") if key in given}
    for key in needed:
        if key not in given or given[key] is None or given[key] == "":
            raise RuleError(_("%(stat)s is missing: enter it from your card.", stat=_(key.capitalize())), key)
        card[key] = whole_argument(given[key], key, *STAT_INPUT_LIMITS[key], what=key.capitalize())
    for key in set(WARSHIP_STATS) - set(needed):
        if given.get(key) not in (None, ""):
            card[key] = whole_argument(given[key], key, *STAT_INPUT_LIMITS[key], what=key.capitalize())
    for flag in ("sail", "flying"):
        if flag not in given:
            if flag == "sail" and not auxiliary:
                raise RuleError(_("Sail is missing: say whether the card is sail class."), "sail")
            continue
        if given[flag] not in (True, False, 0, 1):
            raise RuleError(_("%(flag)s must be yes or no; got %(got)r.", flag=_(FLAGS[flag]), got=given[flag]), flag)
        card[flag] = bool(given[flag])
    if "side" in card and card["side"] not in SIDES:
        raise RuleError(_("Side must be %(a)s or %(b)s; got %(got)r.", a=SIDES[0], b=SIDES[1], got=card["side"]), "side")
    return card


def _card_text(card: dict, key: str, label: str) -> str:
    value = card.get(key)
    if not isinstance(value, str) or not value.strip():
        if key == "name":
            raise RuleError(_("%(label)s is missing: give the card a name.", label=_(label)), key)
        raise RuleError(_("%(label)s is missing: give the card a %(key)s.", label=_(label), key=key), key)
    return value.strip()


def _flag(card: dict, key: str, label: str) -> bool:
    value = card.get(key, False)
    if not isinstance(value, bool):
        raise RuleError(_("%(label)s must be true or false; got %(got)r.", label=_(label), got=value), key)
    return value


def validate_card(card: dict, deck: str) -> dict:
    """Check a player-defined Fate or Damage card; returns it normalised (canonical spellings, defaults)."""
    if not isinstance(card, dict):
        raise RuleError(_("A card is a set of fields (name, type ...)."), "card")
    deck = str(deck).strip().casefold()
    out = {**card, "name": _card_text(card, "name", N_("The card's name"))}
    if "count" in card:
        out["count"] = whole_argument(card["count"], "count", 1, 100, what=N_("Count"))
    if deck == "damage":
        if "type" not in card:
            raise RuleError(_("Type is missing: a Damage card is %(types)s.", types=", ".join(DAMAGE_TYPES)), "type")
        out["type"] = _damage_type(card["type"])
        # seed 002, Damage Cards: single, 'double' or 'triple'
        out["value"] = whole_argument(card.get("value", 1), "value", min(CARD_MULTIPLE), max(CARD_MULTIPLE),
                                      what=N_("Value (1 single, 2 double, 3 triple)"))
        out["irreparable"] = _flag(card, "irreparable", N_("Irreparable"))
        return out
    if deck != "fate":
        raise RuleError(_("The deck must be fate or damage; got %(got)r.", got=deck), "deck")
    if "wind" not in card:
        raise RuleError(_("Wind is missing: enter the wind strength (bottom left of the card)."), "wind")
    out["wind"] = whole_argument(card["wind"], "wind", *WIND_INPUT_LIMITS, what=N_("Wind strength"))
    markers = card.get("markers")
    if isinstance(markers, str) and markers.strip().upper() == "2D6":
        out["markers"] = "2D6"  # seed 002, Fate: "on a 2D6 symbol, to a new location"
        out.pop("direction", None)
    else:
        if markers is None:
            raise RuleError(_("Markers is missing: how many markers the wind gauge moves, or 2D6."), "markers")
        out["markers"] = whole_argument(markers, "markers", *MARKER_INPUT_LIMITS, what=N_("Markers"))
        direction = str(card.get("direction") or "").strip().casefold()
        if (out["markers"] or direction) and direction not in DIRECTIONS:
            raise RuleError(_("Direction must be clockwise or anticlockwise (the arrows on the card)."), "direction")
        if direction:
            out["direction"] = "clockwise" if DIRECTIONS[direction] > 0 else "anticlockwise"
    kind = _fate_kind(card)
    if kind is None:
        raise RuleError(_("Kind must be one of %(kinds)s; got %(got)r.", kinds=", ".join(FATE_KINDS), got=card.get("kind")),
                        "kind")
    out["kind"] = kind
    out["br"] = _flag(card, "br", N_("BR (brief respite)"))
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
