"""[Teams] rules (seed 000, Multiplayer, Targeting): Combined Fire and Shared Defense.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import COMBINED_FIRE, RANGE_BANDS
from companion.games.dreadnaught.rules.range_bands import range_band
from companion.said import Said, _


def combined_fire(attackers, teams: dict, effect: str, applied_this_step: bool = False) -> dict:
    """[Teams] Combined Fire: teammates hitting one target at one step add 2 Damage, 1 Push or 2 Burn."""
    if not isinstance(attackers, list) or len(set(attackers)) < 2:
        raise RuleError(_("Combined Fire needs you and at least one teammate attacking the same target."), "attackers")
    if not isinstance(teams, dict) or any(a not in teams for a in attackers):
        raise RuleError(_("Give each attacker's team."), "teams")
    if len({teams[a] for a in attackers}) != 1:
        raise RuleError(_("Combined Fire is for teammates only."), "attackers")
    if effect not in COMBINED_FIRE:
        raise RuleError(_("Choose the extra effect: damage, push or card_burn."), "effect")
    if applied_this_step:
        raise RuleError(_("Combined Fire applies only once per initiative step (seed 000, Targeting)."), "effect")
    bonus = COMBINED_FIRE[effect]
    words = {"damage": "Damage", "push": "Push", "card_burn": "Card Burn"}[effect]
    return {"effect": effect, "bonus": bonus,
            "summary": Said("Combined Fire: +%(n)s %(effect)s on the target.", n=bonus, effect=words)}


def shared_defense(hexes: int) -> dict:
    """[Teams] Shared Defense: a teammate within Close range may receive your Defense Cards."""
    band = range_band(hexes)
    ok = band["band"] == RANGE_BANDS[0][0]
    text = ("Within Close range: you may assign Defense Cards to your teammate's ship; it counts as having a "
            "copy of your Defense System Card for those cards' tokens and effects" if ok
            else "Not within Close range (0-3): no Shared Defense")
    return {"allowed": ok, "summary": text + "."}
