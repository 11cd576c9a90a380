"""Cards on a warship and its anchor (seed 002, Status Cards; Dropping Anchor)."""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadfleet.rules.auxiliaries import is_flying
from companion.games.dreadfleet.rules.basics import (
    ANCHOR_REACH,
    AT_ANCHOR,
    NO_SHOT_WARSHIPS,
    SEA_MONSTERS,
    SET_ABLAZE,
    _card_name,
    _fate_kind,
    _is_named,
    canonical_name,
)
from companion.said import Said, _


def attach_problem(card, attached: list, warship_name: str = "") -> str | None:
    """Why this card may not go on this warship now (one sentence, in the asking phone's words), or None if it may."""
    ship = canonical_name(warship_name) if warship_name else None
    named = ship or _("this warship")
    if _is_named(card, AT_ANCHOR):
        if any(_is_named(c, AT_ANCHOR) for c in attached):
            return _("%(ship)s already has an At Anchor card: only one is allowed.", ship=named)
        if any(_is_named(c, SET_ABLAZE) for c in attached):
            return _("A warship set ablaze may not drop anchor.")
    kind = _fate_kind(card)
    if kind == "Shot":
        if ship in NO_SHOT_WARSHIPS:
            return _("Shot cards may be placed on any warship except the %(ships)s or %(last)s.",
                     ships=", ".join(NO_SHOT_WARSHIPS[:-1]), last=NO_SHOT_WARSHIPS[-1])
        if any(_fate_kind(c) == "Shot" for c in attached):
            return _("%(ship)s already has a Shot card: a warship may only have one at a time.", ship=named)
    if kind == "Upgrade" and ship and (ship in SEA_MONSTERS or is_flying(ship)):
        return _("Upgrade cards go on a Warship or a Cog Auxiliary card.")
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
    said = {"card": _card_name(card), "ship": warship_name or Said("the warship")}
    return {"attached": [*attached, card], "removed": removed,
            "summary": Said("%(card)s placed on %(ship)s (no longer at anchor)", **said) if removed
            else Said("%(card)s placed on %(ship)s", **said)}


# --- the anchor (seed 002, Dropping Anchor) ----------------------------------------------------

def drop_anchor(attached: list, distance_to_terrain, *, weighed_this_turn: bool = False) -> dict:
    """Seed 002, Dropping Anchor: within 2" of an island or wreck at the end of the Movement sub-phase."""
    if isinstance(distance_to_terrain, bool) or not isinstance(distance_to_terrain, (int, float)) \
            or not 0 <= distance_to_terrain:
        raise RuleError(_("The distance to the island or wreck must be inches, 0 or more."), "distance")
    if distance_to_terrain > ANCHOR_REACH:
        raise RuleError(_("A warship drops anchor only within %(reach)s of an island or shipwreck.",
                          reach=f'{ANCHOR_REACH}"'), "distance")
    if weighed_this_turn:
        raise RuleError(_("You cannot drop and weigh anchor in the same turn."), "anchor")
    problem = attach_problem({"name": AT_ANCHOR}, attached)
    if problem:
        raise RuleError(problem, "anchor")
    return {"attached": [*attached, {"name": AT_ANCHOR}],
            "summary": Said("Drops anchor: it may not move for any reason; Repair checks may be re-rolled")}


def weigh_anchor(attached: list, *, dropped_this_turn: bool = False) -> dict:
    """Seed 002, Dropping Anchor: remove At Anchor at the end of a later Movement sub-phase."""
    if dropped_this_turn:
        raise RuleError(_("You cannot drop and weigh anchor in the same turn."), "anchor")
    if not any(_is_named(card, AT_ANCHOR) for card in attached):
        raise RuleError(_("This warship is not at anchor."), "anchor")
    return {"attached": [card for card in attached if not _is_named(card, AT_ANCHOR)],
            "summary": Said("Weighs anchor: normal movement rules again")}

