"""What players type at the table, checked: real dice, inches, yes/no flags, modifiers, a card drawn
from the real deck; and the luck line a roll leaves in the log."""
from __future__ import annotations

from companion.actions import declared, entered_dice
from companion.actions.schema import Flag
from companion.rules import RuleError


def dice_arg(args: dict, key: str, *, type_: str | None = None) -> list | None:
    """Real dice typed by a player ("5 3 6", "5,3", one number, or "5 6 / 2 1" for a field declared
    with groups), read by the Dice field the action declared for ``key``; None when left empty."""
    return entered_dice(args, key, type_=type_)


def inches(args: dict, key: str, label: str) -> float | int:
    raw = args.get(key)
    if isinstance(raw, str):
        try:
            raw = float(raw.strip().rstrip('"'))
        except ValueError:
            raise RuleError(f"{label} must be a distance in inches, e.g. 7 or 7.5.", key) from None
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw != raw:
        raise RuleError(f"{label} must be a distance in inches, e.g. 7 or 7.5.", key)
    if raw < 0 or raw > 1000:
        raise RuleError(f"{label} must be from 0 to 1000 inches.", key)
    return int(raw) if float(raw).is_integer() else raw


def luck(expected: float, actual: float, what: str) -> dict:
    return {"expected": round(float(expected), 4), "actual": float(actual), "what": what}


def physical_card(args: dict) -> dict:
    """A card typed from the real deck: form fields card.name, card.wind ... with yes/no flags (read
    by the Flag fields the action declared in its ``card``)."""
    raw = dict(args.get("card") or {})
    for key, field in declared(args["type"], "card").fields.items():
        if key in raw and isinstance(field, Flag):
            raw[key] = field.parse(raw[key], f"card.{key}")
    for key in ("wind", "value"):
        if isinstance(raw.get(key), str) and raw[key].strip().isdigit():
            raw[key] = int(raw[key])
    if isinstance(raw.get("markers"), str) and raw["markers"].strip().isdigit():
        raw["markers"] = int(raw["markers"])
    return {k: v for k, v in raw.items() if v not in (None, "")}
