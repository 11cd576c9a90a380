"""What players type at the table that is not one declared field: a card drawn
from the real deck (its yes/no marks read by the declared Flags); and the luck line a roll leaves
in the log.  An action's own flags, numbers, inches and dice arrive already read by its declared
fields (companion.schema.parse_args); a card's, nested in an Obj, are read here."""
from __future__ import annotations

from companion.actions import declared
from companion.schema import Flag, whole


def luck(expected: float, actual: float, what: str) -> dict:
    return {"expected": round(float(expected), 4), "actual": float(actual), "what": what}


def physical_card(args: dict) -> dict:
    """A card typed from the real deck: form fields card.name, card.wind ... with yes/no flags (read
    by the Flag fields the action declared in its ``card``)."""
    raw = dict(args.get("card") or {})
    for key, field in declared(args["type"], "card").fields.items():
        if key in raw and isinstance(field, Flag):
            raw[key] = field.parse(raw[key], f"card.{key}")
    for key in ("wind", "value", "markers"):  # digits as numbers (markers may also be "2D6"); the rules check the rest
        if isinstance(raw.get(key), str) and whole(raw[key]) is not None:
            raw[key] = whole(raw[key])
    return {k: v for k, v in raw.items() if v not in (None, "")}
