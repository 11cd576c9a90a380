"""The fleet editor's Warship cards (library kind "warship"): a card typed by a player, checked by the
rules module, and an exported card read back as form fields.  Pure: the pages are in ``views``."""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.schema import YES_NO, whole

EXPORT_FORMAT = "dreadfleet-warship-cards"


def _number(raw, key: str, label: str):
    """A typed number; "4+" is read as 4 (Armour and Command are D6 targets)."""
    if raw in (None, ""):
        return None
    number = whole(str(raw).strip().rstrip("+"))  # the rules module checks its range
    if number is None:
        raise RuleError(f"{label} must be a whole number; got {raw!r}.", key)
    return number


def warship_card(form) -> dict:
    """A Warship card (and its auxiliaries' card) typed by a player, checked by the rules module."""
    name = df.canonical_name(form.get("name") or "")
    if name not in df.WARSHIPS:
        raise RuleError(f"Choose one of the ten warships ({', '.join(df.WARSHIPS)}).", "name")
    stats = {k: _number(form.get(f"stats.{k}"), k, k.capitalize()) for k in df.WARSHIP_STATS}
    sail = YES_NO.parse(form.get("sail"), "sail")
    card = df.validate_warship({**stats, "sail": sail})
    side, auxiliaries = df.WARSHIPS[name]
    data = {"name": name, "side": side, **card}
    aux = {k: _number(form.get(f"aux.{k}"), f"aux.{k}", f"{(auxiliaries or ('Auxiliary',))[0]} {k}")
           for k in df.AUXILIARY_STATS}
    if any(v is not None for v in aux.values()):
        if not auxiliaries:
            raise RuleError(f"The {name} carries no auxiliary: leave its auxiliary card empty.", "aux")
        try:
            data["aux"] = df.validate_warship(aux, auxiliary=True)
        except RuleError as exc:
            raise RuleError(f"{auxiliaries[0]} card: {exc.message}", exc.field) from None
        data["aux"]["name"] = auxiliaries[0]
        data["aux"]["count"] = len(auxiliaries)
    return data


def next_card(last: dict | None, saved: set[str]) -> dict:
    """The fleet editor's start (issue 28 §6): the numbers of the card this table saved last, for the
    next warship in the roster without a saved card (the seed gives no characteristics to offer, so the
    player changes only what differs).  A warship that carries no auxiliary starts with none."""
    if not last or last.get("name") not in df.WARSHIPS:
        return {}
    names = list(df.WARSHIPS)
    at = names.index(last["name"])
    later = names[at + 1:] + names[:at + 1]
    # a warship that carries none (the Shadewraith) comes after those that need the auxiliary's numbers
    # kept from the last card: choosing it first dropped them (issue 40 §10)
    name = next((n for n in later if n not in saved and (df.WARSHIPS[n][1] or not last.get("aux"))), None) \
        or next((n for n in later if n not in saved), later[0])
    card = {**last, "name": name, "side": df.WARSHIPS[name][0], "started_from": last["name"]}
    if not df.WARSHIPS[name][1]:
        card.pop("aux", None)
    return card


def _flat(card: dict) -> dict:
    """An exported card as the editor's form fields."""
    if not isinstance(card, dict):
        raise RuleError("Each card in the file must be a set of characteristics.", "file")
    out = {"name": card.get("name"), "sail": "1" if card.get("sail") else ""}
    out.update({f"stats.{k}": card.get(k) for k in df.WARSHIP_STATS})
    aux = card.get("aux") or {}
    out.update({f"aux.{k}": aux.get(k) for k in df.AUXILIARY_STATS})
    return out
