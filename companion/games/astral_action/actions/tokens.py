"""Astral Action actions: Missile tokens (L182, L189) and Patrol objective tokens (L352)."""
from __future__ import annotations

from companion.actions import action
from companion.errors import RuleError
from companion.games.astral_action.actions.combat import MARKED, faction_weapon, shot_of
from companion.games.astral_action.rules.equipment import MISSILE_DIRECT, band_at, needs_missile_token
from companion.games.astral_action.state import SYSTEMS, check_may_attack, game, ship_of, turn
from companion.said import Said, _
from companion.schema import Flag, Int, Num, Ref, Scalar, Text


@action("aa-missile-token", systems=SYSTEMS, fields={
    "remove": Scalar(60, "a Missile token's id"), "attacker": Ref("attacker"), "target": Ref("target"),
    "weapon": Int(0, 99), "shot": Text(60),
    "distance": Num(0, 1000, "the measured distance to the target: farther than 10 (L182)"),
    "marked_range": Flag(MARKED["marked_range"])})
def aa_missile_token(state: dict, p: dict) -> str:
    """Place a Missile token for a missile attack beyond 10, or remove one (an AWS, L189)."""
    g = game(state)
    if p.get("remove"):
        token = next((t for t in g["missiles"] if t["id"] == p["remove"]), None)
        if token is None:
            raise RuleError(_("No such Missile token on the table."), "remove")
        g["missiles"].remove(token)
        return Said("Missile token %(token)s removed", token=token["id"])
    a_unit, a_ship = ship_of(state, p.get("attacker"), "attacker")
    t_unit, _t_ship = ship_of(state, p.get("target"), "target")
    weapon = p.get("weapon")
    equipment = a_ship["card"]["equipment"]
    if not isinstance(weapon, int) or not 0 <= weapon < len(equipment) or equipment[weapon]["item"] != "missiles":
        raise RuleError(_("Only Missiles place a Missile token (L182)."), "weapon")
    if weapon in a_ship["inactive"]:
        raise RuleError(_("%(weapon)s is deactivated (a Condition).", weapon=equipment[weapon]["label"]), "weapon")
    faction_weapon(state, a_unit, equipment[weapon])
    fired = turn(state)["fired"].setdefault(a_unit["id"], [])
    if weapon in fired:
        raise RuleError(_("%(weapon)s has already attacked this turn (L77).", weapon=equipment[weapon]["label"]), "weapon")
    check_may_attack(state, a_unit["id"])  # a missile attack beyond 10 is an attack (L182)
    distance = p.get("distance")
    if distance is not None:
        band_at(equipment[weapon], distance, p.get("marked_range", False))  # within the Missiles' 24 (L179), 28 marked (L278)
        if not needs_missile_token(equipment[weapon], distance):
            raise RuleError(_("Within %(direct)s, Missiles attack now (L182): tap Attack.", direct=MISSILE_DIRECT), "distance")
    fired.append(weapon)
    g.setdefault("next_token", 1)
    token = {"id": f"m{g['next_token']}", "attacker": a_unit["id"], "weapon": weapon, "target": t_unit["id"]}
    if distance is not None:
        token["distance"] = distance
    g["next_token"] += 1
    g["missiles"].append(token)
    return Said("%(attacker)s launches Missiles at %(target)s (farther than %(direct)s): token %(token)s within %(direct)s, "
                "resolved at the start of the Resolution phase (L182)", attacker=a_unit["name"], target=t_unit["name"],
                direct=MISSILE_DIRECT, token=token["id"])


@aa_missile_token.decider
def decide_aa_missile_token(state: dict, args: dict, ctx) -> dict:
    if args.get("remove"):
        return {"remove": args["remove"]}
    attacker, weapon = shot_of(args)
    return {"attacker": args.get("attacker") or attacker, "target": args.get("target"),
            "weapon": args["weapon"] if isinstance(args.get("weapon"), int) else weapon,
            **({"distance": args["distance"]} if args.get("distance") is not None else {}),
            **({"marked_range": True} if args.get("marked_range") else {})}


@action("aa-patrol", systems=SYSTEMS, phase="Resolution", doing="Taking a Patrol objective token", fields={"unit": Ref("unit")})
def aa_patrol(state: dict, p: dict) -> str:
    """Patrol scenario: a ship in the opponent's half uses a [Scanning] Order to take an objective token (L352)."""
    from companion.games.astral_action.rules.turn import ORDERS
    from companion.games.astral_action.state import in_effect
    unit, ship = ship_of(state, p.get("unit"))
    if ship.get("patrol"):
        raise RuleError(_("%(unit)s already has its objective token: a Ship may only have one (L352).", unit=unit["name"]),
                        "unit")
    scanning = [o for o, kind in ORDERS.items() if kind == "Scanning" and in_effect(state, unit["id"], o)]
    if not scanning:
        raise RuleError(_("%(unit)s needs a [Scanning] Order in effect (revealed, if it was sealed) (L352).", unit=unit["name"]),
                        "unit")
    ship["patrol"] = True
    return Said("%(unit)s takes a Patrol objective token (%(order)s)", unit=unit["name"], order=scanning[0])
