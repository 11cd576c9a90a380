"""Damage to a ship: the shield arc facing the attacker first, the rest to hull boxes in order.  Pure.

Seed 003 5.1 ("Each shield box represents 1 point of damage that Shield Arc can sustain"; "A ship is
destroyed when all Hull Boxes are marked off"; "Some Hull Boxes cause Critical Damage to a ship when
marked off"), 5.3.2 (fire from an arc hits that shield arc); FAN applyDamage (shields, then hull).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.talon.rules import counter
from companion.said import N_, Said, _, joined
from companion.schema import whole_argument


def mark_hull(ship: dict, amount: int) -> dict:
    """Mark ``amount`` hull boxes in order; each critical box marked adds a pending 2D6 roll."""
    whole_argument(amount, "amount", 0, what=N_("Damage"))
    marked = crits = 0
    for _box in range(amount):
        if ship["hull_hits"] >= len(ship["hull"]):
            break
        box = ship["hull"][ship["hull_hits"]]
        ship["hull_hits"] += 1
        marked += 1
        if box["crit"]:
            crits += 1
    ship["pending"] += crits
    if ship["hull_hits"] >= len(ship["hull"]) and not ship["destroyed"]:
        ship["destroyed"] = "all hull boxes marked"  # seed 003 5.1; stored English (state.LOST_REASONS)
    return {"hull": marked, "crits": crits}


def apply(ship: dict, arc: str, amount: int, reinforce_points: int | None) -> dict:
    """Damage from the given arc.  A Shield Reinforcement on that arc absorbs first (its points are
    the table's setting: the number is not in our sources, TALON.md 11.2), then shield boxes, then
    hull.  Under "Shields Down" (crit 3, PAC) shields and reinforcements are unusable: all to hull."""
    whole_argument(amount, "amount", 0, what=N_("Damage"))
    if arc not in counter.ARCS:
        raise RuleError(_("arc must be one of %(arcs)s.", arcs=", ".join(counter.ARCS)), "arc")
    if ship["destroyed"]:
        raise RuleError(_("That ship is already destroyed."), "target")
    left = amount
    out = {"arc": arc, "damage": amount, "reinforce": 0, "shield": 0, "hull": 0, "crits": 0}
    down = ship["crits"]["shields_down"] is not None
    marker = ship["reinforced"].get(arc)
    if marker and not down and left:
        if reinforce_points is None:
            raise RuleError(_("Set how many points a Shield Reinforcement absorbs (rulebook 6.2) in the "
                              "Talon panel before damage reaches a reinforced arc."), "arc")
        took = min(left, max(0, reinforce_points - marker["used"]))
        marker["used"] += took
        left -= took
        out["reinforce"] = took
    if not down:
        took = min(left, counter.shields_left(ship, arc))
        ship["shield_hits"][arc] += took
        left -= took
        out["shield"] = took
    if left:
        out.update(mark_hull(ship, left))
    out["destroyed"] = bool(ship["destroyed"])
    return out


def describe(result: dict) -> str:
    """What damage did, for the log (a Said: each reader's words)."""
    parts = []
    if result["reinforce"]:
        parts.append(Said("%(n)s on the reinforcement", n=result["reinforce"]))
    if result["shield"]:
        parts.append(Said("%(n)s on %(arc)s shields", n=result["shield"], arc=counter.ARC_NAMES[result["arc"]]))
    if result["hull"]:
        parts.append(Said("%(n)s hull", n=result["hull"]))
    said = [joined(", ", parts) if parts else Said("no damage")]
    if result["crits"]:
        said.append(Said("%(n)s critical boxes: roll 2D6", n=result["crits"]) if result["crits"] > 1
                    else Said("%(n)s critical box: roll 2D6", n=result["crits"]))
    if result["destroyed"]:
        said.append(Said("DESTROYED"))
    return joined("; ", said) if len(said) > 1 else said[0]
