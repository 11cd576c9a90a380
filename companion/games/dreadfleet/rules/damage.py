"""Damage, repairs and destruction (seed 002, Characteristics; Damage Cards; Repair order)."""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadfleet.rules.basics import (
    DAMAGE_TYPES,
    SET_ABLAZE,
    STAT_INPUT_LIMITS,
    _card_name,
    _card_type,
    _card_value,
    _is_named,
)
from companion.said import N_, Said, _, joined
from companion.schema import whole_argument


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
    hull = whole_argument(hull, "hull", *STAT_INPUT_LIMITS["hull"], what=N_("Hull"))
    crew = whole_argument(crew, "crew", *STAT_INPUT_LIMITS["crew"], what=N_("Crew"))
    totals = damage_totals(damage_cards)
    reasons = [Said("%(kind)s damage %(damage)s >= %(value)s", kind=kind, damage=totals[kind], value=value)
               for kind, value in (("Hull", hull), ("Crew", crew)) if totals[kind] >= value]
    destroyed = bool(reasons)
    return {"destroyed": destroyed, "hull_damage": totals["Hull"], "crew_damage": totals["Crew"],
            "summary": Said("Destroyed (%(reasons)s): remove it and discard its cards", reasons=joined("; ", reasons))
            if destroyed else Said("Afloat: Hull damage %(hull_damage)s/%(hull)s, Crew damage %(crew_damage)s/%(crew)s",
                                   hull_damage=totals["Hull"], hull=hull, crew_damage=totals["Crew"], crew=crew)}


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
            raise RuleError(_("Choose one of the cards on this warship to repair."), "card")
        index = card
    else:
        index = next((i for i, c in enumerate(attached) if _is_named(c, str(card))), None)
        if index is None:
            raise RuleError(_("This warship has no card named %(card)r.", card=card), "card")
    chosen = attached[index]
    if isinstance(chosen, dict) and chosen.get("irreparable"):
        raise RuleError(_("%(card)s is Irreparable: it cannot be repaired or removed by any means.",
                          card=_card_name(chosen)), "card")
    if not is_repairable(chosen):
        raise RuleError(_("Repair discards a Hull, Speed, Special, Crew or Set Ablaze card; %(card)s is none of these.",
                          card=_card_name(chosen)), "card")
    del attached[index]
    return {"repaired": chosen, "attached": attached,
            "summary": Said("Repair: %(card)s discarded", card=_card_name(chosen))}
