"""Power Management (seed 000, Power Management; Turn Sequence): the cards played and the choices they leave.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import (
    PM_MAX_CARDS,
    PM_MAX_OFFENSE,
    PM_MAX_TERRAIN,
    POWER_MANAGEMENT,
    READY_PLAYS,
    _plural,
)
from companion.said import N_, Said, _, joined
from companion.schema import whole_argument

# --- Power Management -------------------------------------------------------------------------

# each choice as the summary names it, without its full stop (POWER_MANAGEMENT holds the sentences the board lists)
OPTION_WORDS = {
    "smaller_move": Said("Move using the smaller move value on your Offense System Card"),
    "flip_one_upgrade": Said("Flip one Upgrade Card face-up"),
    "larger_move": Said("Move using the larger move value on your Offense System Card"),
    "flip_two_upgrades": Said("Flip 2 Upgrade Cards face-up"),
    "flip_one_upgrade_and_smaller_move": Said("Flip one Upgrade Card face-up and move using the smaller move value"),
}

def power_management_options(cards_played: int, offense_count: int, *, ready_played: int = 0,
                             terrain_played: int = 0, event_played: int = 0, hand: int | None = None) -> dict:
    """Check the cards played for Power Management and list the choices they leave."""
    whole_argument(cards_played, "cards_played", 0, what=N_("Offense & Defense cards played"))
    if cards_played > PM_MAX_CARDS:
        raise RuleError(_("Play at most %(n)s Offense & Defense cards, a Ready card included "
                          "(seed 000, Power Management).", n=PM_MAX_CARDS), "cards_played")
    whole_argument(offense_count, "offense_count", 0, what=N_("Offense Cards played"))
    whole_argument(ready_played, "ready_played", 0, what=N_("Ready cards played"))
    whole_argument(terrain_played, "terrain_played", 0, what=N_("Terrain Cards played"))
    whole_argument(event_played, "event_played", 0, what=N_("Event Cards played"))
    if offense_count > PM_MAX_OFFENSE:
        raise RuleError(_("At most %(n)s of the cards may be Offense Cards, a Ready card included "
                          "(seed 000, Power Management).", n=PM_MAX_OFFENSE), "offense_count")
    if offense_count > cards_played:
        raise RuleError(_("More Offense Cards than cards played."), "offense_count")
    if ready_played > READY_PLAYS:
        raise RuleError(_("Only a single Ready card may be played (seed 000, Power Management)."), "ready_played")
    if ready_played > cards_played:
        raise RuleError(_("A Ready card counts among the cards played."), "ready_played")
    if terrain_played > PM_MAX_TERRAIN:
        raise RuleError(_("Only one Terrain Card may be played (seed 000, Turn Sequence)."), "terrain_played")
    out = {"cards_played": cards_played, "offense_count": offense_count,
           "options": [{"id": i, "text": t} for i, t in POWER_MANAGEMENT.get(cards_played, ())]}
    if cards_played == 3:
        out["summary"] = Said("3 cards played: no special choices.")
    elif cards_played == 0:
        out["summary"] = Said("No Offense or Defense card played: the seed lists choices only for 1, 2 or 3 cards.")
    else:
        names = joined(" / ", [OPTION_WORDS[o["id"]] for o in out["options"]])
        out["summary"] = Said("%(cards)s played: choose one - %(choices)s.", cards=_plural(cards_played, "card"),
                              choices=names)
    if hand is not None:
        whole_argument(hand, "hand", 0, what=N_("Cards in hand"))
        from_hand = cards_played - ready_played + terrain_played + event_played
        if from_hand > hand:
            raise RuleError(_("Only %(hand)s cards in hand; %(n)s would come from it.", hand=hand, n=from_hand), "hand")
        out["hand"] = hand - from_hand
    return out
