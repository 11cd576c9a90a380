"""The round: the table's own numbers (initiative, reinforcement points, repair roll, points); the
phase hook (whose turn, expiring reinforcements, initiative changes, the Power Phase's red boxes) is
phase.py.
"""
from __future__ import annotations

from companion.actions import action, entered_int, needed
from companion.errors import RuleError
from companion.games.talon import state as books
from companion.games.talon.rules import weapons
from companion.said import Said, _
from companion.schema import Either, Int, Ref, Text

GAME = {"talon"}


@action("talon-initiative", systems=GAME, fields={"side": Ref("side")})
def set_initiative(state: dict, p: dict) -> str:
    """Say which side has the initiative (scenario start; Talon by default)."""
    side = p.get("side")
    if side not in state["sides"][:2]:
        raise RuleError(_("side must be one of %(sides)s.", sides=", ".join(state["sides"][:2])), "side")
    g = books.game(state)
    if g["initiative"] == side:
        raise RuleError(_("%(side)s already has the initiative.", side=side), "side")
    g["initiative"] = side
    if books.now(state)[0]:
        state["active_side"] = books.turn_side(state)
    return Said("%(side)s has the initiative", side=side)


@action("talon-rules", systems=GAME, fields={
    "what": Text(40), "value": Either(Int(0, 20, plain=True), Text(60), doc="a number, or a weapon's hit row: 0 0 0 1 1 1"),
    "weapon": Text(40), "range": Int(1, 9, plain=True)})
def set_rules(state: dict, p: dict) -> str:
    """Enter a number from your rulebook: reinforcement points, repair roll, or a weapon table row."""
    g = books.game(state)
    what = p.get("what")
    if what == "reinforce":
        g["rules"]["reinforce"] = entered_int(p, "value")
        return Said("Shield Reinforcement absorbs %(n)s (rulebook 6.2)", n=g["rules"]["reinforce"])
    if what == "repair_on":
        g["rules"]["repair_on"] = entered_int(p, "value", lo=1, hi=6)
        return Said("Repairs succeed on %(n)s+", n=g["rules"]["repair_on"])
    if what == "weapon":
        tables = g.get("weapons")
        if not tables:
            raise RuleError(_("Put a ship on the table first: the weapon tables come with it."), "weapon")
        weapon = p.get("weapon")
        if weapon not in tables or "damage" not in tables[weapon]:
            raise RuleError(_("Choose a weapon with a damage table."), "weapon")
        distance = needed(p, "range")
        raw = str(p.get("value", "")).replace(",", " ").split()
        if len(raw) != 6 or not all(v.isdigit() and int(v) <= 30 for v in raw):
            raise RuleError(_("Enter six damages, for rolls 1 to 6 (like 0 0 0 0 2 2)."), "value")
        tables[weapon]["damage"][str(distance)] = [int(v) for v in raw]
        return Said("%(weapon)s at range %(range)s: %(hits)s", weapon=tables[weapon]["name"], range=distance,
                    hits=weapons.hit_numbers(tables, weapon, distance, say=Said))
    raise RuleError(_("what must be reinforce, repair_on or weapon."), "what")


@action("talon-points", systems=GAME, fields={
    "side": Ref("side"), "points": Int(-999, 999, plain=True), "why": Text(200)})
def add_points(state: dict, p: dict) -> str:
    """Add scenario points to a side (victory levels are not public: enter your scenario's)."""
    side = p.get("side")
    if side not in state["sides"][:2]:
        raise RuleError(_("side must be one of %(sides)s.", sides=", ".join(state["sides"][:2])), "side")
    points = needed(p, "points")
    if not points:
        raise RuleError(_("points must not be 0."), "points")
    why = " ".join(str(p.get("why") or "").split())[:60]
    books.game(state)["points"].append({"side": side, "points": points, "why": why})
    signed = f"{points:+d}"
    if why:
        return Said("%(side)s %(points)s points (%(why)s)", side=side, points=signed, why=why)
    return Said("%(side)s %(points)s points", side=side, points=signed)


set_initiative.decider(books.keep("side"))
set_rules.decider(books.keep("what", "value", "weapon", "range"))
add_points.decider(books.keep("side", "points", "why"))
