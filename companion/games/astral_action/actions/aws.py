"""Astral Action: the Area Weapons System's active use, seed 004 L186-L189:

    "Active: During this Ship's Activation, the controlling player may choose one missile, token or
    Fighter within (Ship Size x 2) distance of this Ship per AWS equipped. If a missile token is
    selected, remove it from play. If a Fighter is selected, it takes d6 damage."

The distance is measured on the table; typed, it is checked against Size x 2.  The passive use
(one more PWS against missiles and fighters, L188) is the attack form's "AWS PWS" field.
"""
from __future__ import annotations

from companion.actions import action, chance
from companion.errors import RuleError
from companion.games.astral_action.rules.damage import has_active, take_damage
from companion.games.astral_action.rules.equipment import AWS_REACH_PER_SIZE
from companion.games.astral_action.state import (
    SYSTEMS,
    destroy_if_done,
    game,
    in_own_activation,
    roll,
    setting,
    ship_of,
    turn,
    whose_activation,
)
from companion.said import Said, _, joined
from companion.schema import Dice, Num, Ref, Scalar


def _token(state: dict, aim) -> dict | None:
    return next((t for t in game(state)["missiles"] if t["id"] == aim), None)


@action("aa-aws", systems=SYSTEMS, chance=True, fields={"unit": Ref("unit", "the ship with the AWS"),
    "aim": Scalar(60, "a Fighter's unit id or a Missile token's id"),
    "distance": Num(0, 1000, "the measured distance to it (optional): at most Size x 2"),
    "dice": Dice(6, 1, "the Fighter's d6 damage, or empty to roll")})
def aa_aws(state: dict, p: dict) -> str:
    """AWS (active): remove one Missile token or deal d6 damage to one Fighter, per AWS (L189)."""
    unit, ship = ship_of(state, p.get("unit"))
    count = has_active(ship, ship["card"], "aws")
    if not count:
        raise RuleError(_("%(unit)s has no working Area Weapons System (L186-L189).", unit=unit["name"]), "unit")
    if not in_own_activation(state, unit["id"]):
        raise RuleError(_("%(unit)s's AWS acts during its own activation (L189); %(now)s.", unit=unit["name"],
                          now=whose_activation(state)), "unit")
    used = turn(state).setdefault("aws", {})
    if used.get(unit["id"], 0) >= count:
        raise RuleError(_("%(unit)s has used its AWS this turn: one Missile token or Fighter per AWS (L189).", unit=unit["name"]),
                        "aim")
    reach = AWS_REACH_PER_SIZE * ship["card"]["size"]
    distance = p.get("distance")
    if distance is not None and distance > reach:
        raise RuleError(_("%(distance)g is beyond %(unit)s's AWS: Size x 2 = %(reach)s (L189).", distance=distance,
                          unit=unit["name"], reach=reach), "distance")
    used[unit["id"]] = used.get(unit["id"], 0) + 1
    token = _token(state, p.get("aim"))
    if token:
        game(state)["missiles"].remove(token)
        return Said("%(unit)s's AWS removes Missile token %(token)s", unit=unit["name"], token=token["id"])
    f_unit, f_ship = ship_of(state, p.get("aim"), "aim")
    if f_unit["template"] != "fighter":
        raise RuleError(_("An AWS aims at a Missile token or a Fighter (L189)."), "aim")
    damage = p["dice"][0]
    out = take_damage(f_ship, damage, order=setting(state, "damage_order"))
    gone = destroy_if_done(state, f_unit["id"], f_ship)
    said = Said("%(unit)s's AWS: %(fighter)s takes d6 = %(damage)s: %(steps)s", unit=unit["name"], fighter=f_unit["name"],
                damage=damage, steps=joined(", ", out["steps"]) or Said("no effect"))
    return joined("; ", [said, gone]) if gone else said


@aa_aws.decider
def decide_aa_aws(state: dict, args: dict, ctx) -> dict:
    aim = args.get("aim")
    p = {"unit": args.get("unit"), "aim": aim}
    if args.get("distance") is not None:
        p["distance"] = args["distance"]
    if _token(state, aim):
        return {**p, "dice": []}
    return {**p, "dice": args.get("dice") or roll(ctx, 1)}


@aa_aws.dice_check
def aa_aws_dice(state: dict, p: dict) -> None:
    """An imported aa-aws: its die is a D6 (L189 "it takes d6 damage")."""
    chance.every_die(p, 6)
