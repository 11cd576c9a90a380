"""Firing, missiles, damage, criticals and repairs.

Fire: a ready group (all red and yellow boxes filled; both reset after firing, FAN; BGG weapons thread),
one D6 per weapon (TALON.md 4), damage to the target's shield arc facing the attacker, the rest to hull
(seed 003 5.1, 5.3.2).  Criticals: 2D6 on the Critical Damage Table (PAC; FAN for 7-12).  Repairs: not in
the impulse the damage was taken, 6 on a D6 by default (PBF 3).  Dice are rolled in the decide step, or
entered from the table.
"""
from __future__ import annotations

from companion.actions import action, chance, entered_int, needed
from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.games.talon import state as books
from companion.games.talon.rules import counter, criticals, damage, weapons
from companion.said import N_, Said, _
from companion.schema import Dice, Int, Ref, Text

GAME = {"talon"}


def _reinforce(state: dict):
    return books.game(state)["rules"]["reinforce"]


@action("talon-fire", systems=GAME, chance=True, fields={
    "unit": Ref("unit"), "group": Int(1, 99, "the weapon group, counted from 1", plain=True),
    "target": Ref("target"), "range": Int(0, 30, "hexes", plain=True), "arc": Text(20),
    "dice": Dice(6, 60, "the group's real dice, or empty to roll"),
    "in_arc": Text(20, "which of the firer's Firing Arcs the target is in (seed 003 5.3.1); needed to fire",
                   choices=counter.ARCS)})
def fire(state: dict, p: dict) -> str:
    """Fire a ready weapon group at a ship in its Firing Arc: range, the target's arc facing you, one die per weapon."""
    unit, ship = books.live_ship(state, p.get("unit"))
    books.need_own_turn(state, unit, N_("Firing"))
    groups = ship["groups"]
    index = entered_int(p, "group", lo=1, hi=max(1, len(groups))) - 1
    if not groups:
        raise RuleError(_("%(unit)s has no weapons.", unit=unit["name"]), "group")
    group = groups[index]
    if group["destroyed"]:
        raise RuleError(_("Group %(n)s is destroyed.", n=index + 1), "group")
    if not counter.ready(group):
        raise RuleError(_("Group %(n)s is not charged: %(red_on)s/%(red)s red, %(yellow_on)s/%(yellow)s yellow.",
                          n=index + 1, red_on=group["red_on"], red=group["red"], yellow_on=group["yellow_on"],
                          yellow=group["yellow"]), "group")
    target_unit, target = books.live_ship(state, p.get("target"), "target")
    if target_unit["side"] == unit["side"]:
        raise RuleError(_("%(target)s is on your side.", target=target_unit["name"]), "target")
    if "in_arc" in p:  # an event logged before firing arcs were asked for (issue 24) has none
        in_firing_arc(unit, group, index, target_unit, p["in_arc"])
    distance = needed(p, "range")
    arc = p.get("arc")
    if arc not in counter.ARCS:
        raise RuleError(_("Say which of the target's arcs faces you: F, R, Rear or L."), "arc")
    tables = books.game(state)["weapons"]
    weapons.check_range(tables, group["weapon"], distance)
    name = tables[group["weapon"]]["name"]
    if group["weapon"] == "missile":
        g = books.game(state)
        for _missile in range(group["count"]):
            g["missiles"].append({"id": g["next_missile"], "by": unit["id"], "target": target_unit["id"],
                                  "arc": arc, "round": state["round"]})
            g["next_missile"] += 1
        weapons.discharge(group)
        if group["count"] > 1:
            return Said("%(unit)s launches %(count)s missiles at %(target)s (range %(range)s; Speed 6, 2 damage each on "
                        "arrival)", unit=unit["name"], count=group["count"], target=target_unit["name"], range=distance)
        return Said("%(unit)s launches %(count)s missile at %(target)s (range %(range)s; Speed 6, 2 damage each on "
                    "arrival)", unit=unit["name"], count=group["count"], target=target_unit["name"], range=distance)
    dice = p.get("dice")
    if not isinstance(dice, list) or len(dice) != group["count"]:
        raise RuleError(_("Group %(n)s rolls %(count)s dice.", n=index + 1, count=group["count"]), "dice")
    hits = [weapons.damage(tables, group["weapon"], distance, d) for d in dice]
    total = sum(hits)
    result = damage.apply(target, arc, total, _reinforce(state))
    weapons.discharge(group)
    return Said("%(unit)s fires %(weapon)s ×%(count)s at %(target)s (range %(range)s, %(arc)s arc): %(hits)s = %(total)s "
                "damage: %(result)s", unit=unit["name"], weapon=name, count=group["count"], target=target_unit["name"],
                range=distance, arc=counter.ARC_NAMES[arc], hits="+".join(map(str, hits)), total=total,
                result=damage.describe(result))


def in_firing_arc(unit: dict, group: dict, index: int, target_unit: dict, in_arc) -> None:
    """Seed 003 5.3.1: "Weapons may only fire at targets within their Firing Arc" (the group's arrows,
    stored as its ``arcs``); ``in_arc`` is the firer's arc the target is in, as the players see it."""
    if in_arc not in counter.ARCS:
        raise RuleError(_("Say which of %(unit)s's arcs %(target)s is in: Fwd, Right, Rear or Left (seed 003 5.3.1).",
                          unit=unit["name"], target=target_unit["name"]), "in_arc")
    if in_arc not in group["arcs"]:
        names = [counter.ARC_NAMES[a] for a in group["arcs"]]
        if len(names) > 1:
            arcs = _("%(arcs)s or %(last)s", arcs=", ".join(names[:-1]), last=names[-1])
            raise RuleError(_("Group %(n)s fires only into %(unit)s's %(arcs)s arcs; %(target)s is in its %(arc)s arc "
                              "(seed 003 5.3.1).", n=index + 1, unit=unit["name"], arcs=arcs, target=target_unit["name"],
                              arc=counter.ARC_NAMES[in_arc]), "in_arc")
        raise RuleError(_("Group %(n)s fires only into %(unit)s's %(arcs)s arc; %(target)s is in its %(arc)s arc "
                          "(seed 003 5.3.1).", n=index + 1, unit=unit["name"], arcs=names[0], target=target_unit["name"],
                          arc=counter.ARC_NAMES[in_arc]), "in_arc")


@fire.decider
def decide_fire(state: dict, args: dict, ctx) -> dict:
    unit, ship = books.live_ship(state, args.get("unit"))
    if not ship["groups"]:
        raise RuleError(_("%(unit)s has no weapons.", unit=unit["name"]), "group")
    group = ship["groups"][entered_int(args, "group", lo=1, hi=len(ship["groups"])) - 1]
    if args.get("in_arc") in (None, ""):
        raise RuleError(_("Say which of your arcs the target is in: Fwd, Right, Rear or Left (seed 003 5.3.1)."),
                        "in_arc")
    payload = {k: args[k] for k in ("unit", "group", "target", "range", "arc", "in_arc") if k in args}
    if group["weapon"] != "missile":
        payload["dice"] = roll_or_take(group["count"], 6, args.get("dice"), ctx.rng, "dice", field="dice")
    return payload


@action("talon-missile", systems=GAME, fields={
    "missile": Ref("missile token"), "op": Text(20), "arc": Text(20)})
def missile(state: dict, p: dict) -> str:
    """A missile token reaches its target (2 damage to the arc it enters) or is lost."""
    g = books.game(state)
    token = next((m for m in g["missiles"] if m["id"] == p.get("missile")), None)
    if token is None:
        raise RuleError(_("Choose a missile token on the map."), "missile")
    op = p.get("op")
    if op not in ("hit", "lost"):
        raise RuleError(_("op must be hit or lost."), "op")
    g["missiles"].remove(token)
    target_unit = state["units"].get(token["target"])
    if op == "lost":
        return Said("Missile %(id)s at %(target)s lost", id=token["id"], target=target_unit["name"])
    target_unit, target = books.live_ship(state, token["target"], "missile")
    arc = p.get("arc") or token["arc"]
    amount = g["weapons"]["missile"]["arrival_damage"]  # TALON.md 4: 2 damage on arrival
    result = damage.apply(target, arc, amount, _reinforce(state))
    return Said("Missile %(id)s hits %(target)s: %(result)s", id=token["id"], target=target_unit["name"],
                result=damage.describe(result))


@action("talon-damage", systems=GAME, fields={"unit": Ref("unit"), "arc": Text(20), "amount": Int(1, 99, plain=True)})
def take_damage(state: dict, p: dict) -> str:
    """Damage from elsewhere (explosion, terrain, a correction): to an arc's shields first, or straight to hull."""
    unit, ship = books.live_ship(state, p.get("unit"))
    amount = needed(p, "amount")
    arc = p.get("arc")
    if arc == "hull":
        hit = damage.mark_hull(ship, amount)
        result = {"arc": "F", "damage": amount, "reinforce": 0, "shield": 0, **hit,
                  "destroyed": bool(ship["destroyed"])}
    else:
        result = damage.apply(ship, arc, amount, _reinforce(state))
    return Said("%(unit)s takes %(amount)s: %(result)s", unit=unit["name"], amount=amount, result=damage.describe(result))


@action("talon-critical", systems=GAME, chance=True, fields={
    "unit": Ref("unit"), "crit_dice": Dice(6, 2, "the real 2D6, or empty to roll"),
    "group_dice": Dice(6, 60, "the weapon groups' dice, one per group still tied, rounds split by '/'", groups=True)})
def critical(state: dict, p: dict) -> str:
    """Roll 2D6 on the Critical Damage Table for a marked critical hull box."""
    unit, ship = books.live_ship(state, p.get("unit"))
    dice = p.get("dice")
    if not isinstance(dice, list) or len(dice) != 2:
        raise RuleError(_("The Critical Damage Table takes 2D6."), "dice")
    when = books.now(state)[2] or f"{state['round']}P"
    text = criticals.resolve(ship, sum(dice), when, p.get("group_dice"))
    return Said("%(unit)s critical %(a)s+%(b)s = %(total)s: %(result)s", unit=unit["name"], a=dice[0], b=dice[1],
                total=sum(dice), result=text)


@critical.decider
def decide_critical(state: dict, args: dict, ctx) -> dict:
    unit, ship = books.live_ship(state, args.get("unit"))
    if ship["pending"] < 1:
        raise RuleError(_("%(unit)s has no critical hull box waiting for its roll.", unit=unit["name"]), "unit")
    dice = roll_or_take(2, 6, args.get("crit_dice"), ctx.rng, N_("2D6"), field="crit_dice")
    payload = {"unit": args["unit"], "dice": dice}
    alive = [i for i, g in enumerate(ship["groups"]) if not g["destroyed"]]
    if sum(dice) in criticals.GROUP_LOSS and len(alive) > 1:
        rounds = args.get("group_dice")  # entered: rounds split by '/', one die per group still in it
        if rounds and not isinstance(rounds[0], list):
            rounds = [rounds]  # one round, entered without a '/'
        if not rounds:
            rounds, left = [], alive
            while left:
                rounds.append([ctx.rng.randint(1, 6) for _group in left])
                left = criticals.group_rounds_needed(alive, rounds)
        payload["group_dice"] = rounds
    return payload


@action("talon-repair", systems=GAME, chance=True, fields={
    "unit": Ref("unit"), "what": Text(40), "repair_dice": Dice(6, 1)})
def repair(state: dict, p: dict) -> str:
    """Try to repair an 'until Repaired' critical (one D6, not in the impulse it was taken)."""
    unit, ship = books.live_ship(state, p.get("unit"))
    _letter, key = books.need_own_turn(state, unit, N_("Repairs"))
    what = p.get("what")
    tried = ship.setdefault("repair_tried", {})
    if what in tried and tried[what] == key:
        raise RuleError(_("One repair attempt per damage per impulse."), "what")
    dice = p.get("dice")
    if not isinstance(dice, list) or len(dice) != 1:
        raise RuleError(_("A repair takes one die."), "dice")
    need = books.game(state)["rules"]["repair_on"]
    ok = criticals.repair(ship, what, dice[0], key, need)
    tried[what] = key
    name = criticals.REPAIRABLE[what]
    if ok:
        return Said("%(unit)s repair %(what)s: %(roll)s (needs %(need)s+): repaired", unit=unit["name"], what=name,
                    roll=dice[0], need=need)
    return Said("%(unit)s repair %(what)s: %(roll)s (needs %(need)s+): not yet", unit=unit["name"], what=name,
                roll=dice[0], need=need)


@repair.decider
def decide_repair(state: dict, args: dict, ctx) -> dict:
    return {"unit": args.get("unit"), "what": args.get("what"),
            "dice": roll_or_take(1, 6, args.get("repair_dice"), ctx.rng, N_("die"), field="repair_dice")}


missile.decider(books.keep("missile", "op", "arc"))
take_damage.decider(books.keep("unit", "arc", "amount"))


@fire.dice_check
def fire_dice(state: dict, p: dict) -> None:
    """An imported talon-fire (issue 15): every die it records is a D6, the weapon group's dice and
    the 2D6 of the Critical Damage Table alike (how many is checked as the event replays: apply)."""
    chance.every_die(p, 6)


@critical.dice_check
def critical_dice(state: dict, p: dict) -> None:
    """An imported talon-critical (issue 15): every die it records is a D6, the weapon group's dice and
    the 2D6 of the Critical Damage Table alike (how many is checked as the event replays: apply)."""
    chance.every_die(p, 6)


@repair.dice_check
def repair_dice(state: dict, p: dict) -> None:
    """An imported talon-repair (issue 15): every die it records is a D6, the weapon group's dice and
    the 2D6 of the Critical Damage Table alike (how many is checked as the event replays: apply)."""
    chance.every_die(p, 6)
