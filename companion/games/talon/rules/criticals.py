"""The Critical Damage Table (8.5) and repairs.  Pure.

Results 2-6: Player Aid Card text (PAC, TALON.md section 5).  Results 7-12: the fan implementation only
(FAN; 8 and 11 partly corroborated by the markers "Power -1" and "Power Loss", rulebook 2.9).  Repair of
"until Repaired" results: every impulse except the one the damage was taken in, success on a 6 (PBF 3,
players' reading; the table's setting changes it).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.talon.rules import damage
from companion.said import N_, Said, _

TABLE = {
    2: N_("Secondary Explosion: 3 additional hull damage; may cause another Critical"),
    3: N_("Shields Down until Repaired"),
    4: N_("Helm Down until Repaired: no turns, no sideslips"),
    5: N_("Random Weapon Group Destroyed"),
    6: N_("Maneuvering Thruster Damage: Turn Radius +1"),
    7: N_("No Critical Damage"),
    8: N_("Power Relay Damage: Power -1"),
    9: N_("Random Weapon Group Destroyed"),
    10: N_("1 Hull Damage and FTL Offline"),
    11: N_("Power Loss until Repaired"),
    12: N_("FTL Core Breach: ship destroyed"),
}
REPAIRABLE = {"shields_down": "Shields Down", "helm_down": "Helm Down", "power_loss": "Power Loss"}
GROUP_LOSS = (5, 9)
REPAIR_ON = 6  # PBF 3 (players' reading); the table's "repair on" setting overrides it


def pick_group(candidates: list[int], rounds: list[list[int]]) -> int:
    """PAC 5: "roll a die per undestroyed group, highest destroyed, ties re-roll" (the tied groups)."""
    left = list(candidates)
    for dice in rounds:
        if len(dice) != len(left):
            raise RuleError(_("Roll one die for each of weapon groups %(groups)s.",
                              groups=", ".join(str(g + 1) for g in left)), "group_dice")
        top = max(dice)
        left = [g for g, d in zip(left, dice, strict=False) if d == top]
        if len(left) == 1:
            return left[0]
    raise RuleError(_("A tie: roll again for weapon groups %(groups)s.", groups=", ".join(str(g + 1) for g in left)),
                    "group_dice")


def group_rounds_needed(candidates: list[int], rounds: list[list[int]]) -> list[int] | None:
    """The groups still tied after these rounds (None when a group is picked): for the decide step."""
    left = list(candidates)
    for dice in rounds:
        top = max(dice)
        left = [g for g, d in zip(left, dice, strict=False) if d == top]
        if len(left) == 1:
            return None
    return left


def resolve(ship: dict, total: int, when: str, group_rounds: list[list[int]] | None = None) -> str:
    """Apply one 2D6 result to the ship; ``when`` is the impulse it happened in (repairs wait a turn).
    Returns what the log says of it (a Said)."""
    if not 2 <= total <= 12:
        raise RuleError(_("2D6 totals 2 to 12."), "dice")
    if ship["pending"] < 1:
        raise RuleError(_("No critical hull box is waiting for its roll."), "unit")
    ship["pending"] -= 1
    crits = ship["crits"]
    text = Said(TABLE[total])
    if total == 2:
        hit = damage.mark_hull(ship, 3)
        text = (Said("%(result)s (%(hull)s hull marked, %(crits)s more critical)", result=text, hull=hit["hull"],
                     crits=hit["crits"]) if hit["crits"]
                else Said("%(result)s (%(hull)s hull marked)", result=text, hull=hit["hull"]))
    elif total == 3:
        crits["shields_down"] = when
    elif total == 4:
        crits["helm_down"] = when
    elif total in GROUP_LOSS:
        alive = [i for i, g in enumerate(ship["groups"]) if not g["destroyed"]]
        if not alive:
            text = Said("%(result)s: no weapon group left, no effect", result=text)
        else:
            chosen = alive[0] if len(alive) == 1 else pick_group(alive, group_rounds or [])
            group = ship["groups"][chosen]
            group.update(destroyed=True, red_on=0, yellow_on=0)
            text = Said("%(result)s: group %(n)s (%(weapon)s)", result=text, n=chosen + 1, weapon=group["weapon"])
    elif total == 6:
        crits["thrusters"] += 1
    elif total == 8:
        crits["relay"] += 1
    elif total == 10:
        hit = damage.mark_hull(ship, 1)
        crits["ftl_offline"] = True
        if hit["crits"]:
            text = Said("%(result)s (a critical box: roll again)", result=text)
    elif total == 11:
        crits["power_loss"] = when
    elif total == 12:
        ship["destroyed"] = "FTL core breach"  # stored English (state.LOST_REASONS)
    ship["crit_log"].append({"roll": total, "when": when})
    return text


def repair(ship: dict, what: str, roll: int, now: str, need: int = REPAIR_ON) -> bool:
    """One repair attempt; True when it succeeds (shields come back exactly as before, PAC 3)."""
    if what not in REPAIRABLE:
        raise RuleError(_("Only %(names)s can be repaired.", names=", ".join(REPAIRABLE.values())), "what")
    taken = ship["crits"][what]
    if taken is None:
        raise RuleError(_("This ship has no %(name)s to repair.", name=REPAIRABLE[what]), "what")
    if taken == now:
        raise RuleError(_("Repairs start the impulse after the damage was taken (rulebook 8.7)."), "what")
    if roll >= need:
        ship["crits"][what] = None
        return True
    return False
