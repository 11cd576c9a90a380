"""The fleet editor's Warship cards (library kind "warship"): a card typed by a player, checked by the
rules module, and an exported card read back as form fields.  Pure: the pages are ``views``' own (its
``__init__``)."""
from __future__ import annotations

import re

from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.said import _
from companion.schema import YES_NO, whole

EXPORT_FORMAT = "dreadfleet-warship-cards"


def _number(raw, key: str, label: str):
    """A typed number; "4+" is read as 4 (Armour and Command are D6 targets)."""
    if raw in (None, ""):
        return None
    number = whole(str(raw).strip().rstrip("+"))  # the rules module checks its range
    if number is None:
        raise RuleError(_("%(label)s must be a whole number; got %(got)r.", label=_(label), got=raw), key)
    return number


QUICK_SPLIT = re.compile(r"[|/;]")
QUICK_TOKEN = re.compile(r"[A-Za-z]+|-?\d+\+?|\S")


def quick_entry(text: str) -> dict:
    """A card's numbers typed (or pasted) on one line instead of field by field (issue 40 §10): the
    editor's field names with what the line gives them.  Numbers go in the card's order (Speed,
    Handling, Broadside, Armour, Hull, Crew, Command, Swashbuckling, then the auxiliary's Speed,
    Broadside, Armour, Hull, Crew); a word before a number names its field instead ("Hull 10", "hu 10",
    "Cmd 4+"); "/", "|", ";" or "aux" starts the auxiliary's card.  Nothing is made up: a field the line
    does not give is not in the answer.  The fleet editor's one parser, for its Fill button and its
    Save (``warship_card``)."""
    fields = {"stats": list(df.WARSHIP_STATS), "aux": list(df.AUXILIARY_STATS)}
    out: dict[str, str] = {}
    part, label = "stats", None
    for token in QUICK_TOKEN.findall(text or ""):
        if QUICK_SPLIT.fullmatch(token) or token.lower() in ("aux", "auxiliary"):
            part, label = "aux", None
            continue
        if token.isalpha():
            word = token.lower()
            found = [k for k in fields[part] if k.startswith(word[:2]) and (len(word) <= 3 or k.startswith(word))]
            found = found or [k for k in fields[part] if (word, k) in (("cmd", "command"), ("move", "speed"), ("mv", "speed"),
                                                                          ("swash", "swashbuckling"), ("bs", "broadside"))]
            if len(found) != 1:
                if part == "aux":
                    raise RuleError(_("Quick entry: %(token)r names no characteristic of the auxiliary card.", token=token),
                                    "quick")
                raise RuleError(_("Quick entry: %(token)r names no characteristic of the warship card.", token=token), "quick")
            label = found[0]
            continue
        if not re.fullmatch(r"-?\d+\+?", token):
            raise RuleError(_("Quick entry: %(token)r is neither a number nor a characteristic.", token=token), "quick")
        key = label
        if key is None:  # the next field in the card's order the line has not given yet
            left = [k for k in fields[part] if f"{part}.{k}" not in out]
            if not left and part == "stats":
                part = "aux"
                left = [k for k in fields[part] if f"{part}.{k}" not in out]
            if not left:
                raise RuleError(_("Quick entry: more numbers than the two cards have (8 and 5)."), "quick")
            key = left[0]
        out[f"{part}.{key}"] = token
        label = None
    return out


def with_quick(form) -> dict:
    """The editor's fields with what its quick-entry line gives put over them."""
    fields = {k: form.get(k) for k in form.keys()} if hasattr(form, "keys") else dict(form)
    return {**fields, **quick_entry(fields.get("quick") or "")}


def warship_card(form) -> dict:
    """A Warship card (and its auxiliaries' card) typed by a player, checked by the rules module."""
    form = with_quick(form)
    name = df.canonical_name(form.get("name") or "")
    if name not in df.WARSHIPS:
        raise RuleError(_("Choose one of the ten warships (%(ships)s).", ships=", ".join(df.WARSHIPS)), "name")
    stats = {k: _number(form.get(f"stats.{k}"), k, k.capitalize()) for k in df.WARSHIP_STATS}
    sail = YES_NO.parse(form.get("sail"), "sail")
    card = df.validate_warship({**stats, "sail": sail})
    side, auxiliaries = df.WARSHIPS[name]
    data = {"name": name, "side": side, **card}
    aux = {k: _number(form.get(f"aux.{k}"), f"aux.{k}", f"{(auxiliaries or ('Auxiliary',))[0]} {k}")
           for k in df.AUXILIARY_STATS}
    if any(v is not None for v in aux.values()):
        if not auxiliaries:
            raise RuleError(_("The %(ship)s carries no auxiliary: leave its auxiliary card empty.", ship=name), "aux")
        try:
            data["aux"] = df.validate_warship(aux, auxiliary=True)
        except RuleError as exc:
            raise RuleError(_("%(auxiliary)s card: %(error)s", auxiliary=auxiliaries[0], error=exc.message), exc.field) from None
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
        raise RuleError(_("Each card in the file must be a set of characteristics."), "file")
    out = {"name": card.get("name"), "sail": "1" if card.get("sail") else ""}
    out.update({f"stats.{k}": card.get(k) for k in df.WARSHIP_STATS})
    aux = card.get("aux") or {}
    out.update({f"aux.{k}": aux.get(k) for k in df.AUXILIARY_STATS})
    return out
