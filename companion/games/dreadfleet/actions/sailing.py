"""The Movement sub-phase (seed 002, Movement; Wind Strength; Full Speed Ahead; Dropping Anchor;
Escaping Jeopardy): how far the wind lets a ship sail, anchors, and escaping jeopardy."""
from __future__ import annotations

from companion.actions import action, needed
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.entries import luck
from companion.games.dreadfleet.state import (
    GAME,
    aground_since_before,
    at_anchor,
    books,
    current,
    first_mate,
    is_auxiliary,
    need_captain,
    now_stat,
    order_held,
    reach_step,
    resolve_order,
    retold,
    set_status,
    status_cards,
    turn,
    wind_strength,
)
from companion.said import N_, Said, _
from companion.schema import Dice, Int, Num, Ref, Text

CHECKING_WIND, FULL_SPEED, ANCHORING, ESCAPING = (N_("Checking the wind"), N_("Full Speed Ahead"),
                                                  N_("Dropping or weighing anchor"), N_("Escaping jeopardy"))


def _moving(state: dict, args: dict, what: str) -> dict:
    unit = current(state, args.get("unit"), what)
    reach_step(state, unit["id"], 1, what)
    return unit


def _free_to_move(state: dict, unit: dict) -> None:
    """Refuse a move that the ship's escape or its weighing anchor has ruled out this turn."""
    now = turn(state)
    escaped = now.get("escaped", {}).get(unit["id"])
    if escaped is False:
        # seed 002, Escaping Jeopardy: "If the check is failed, it may not move at all that turn."
        raise RuleError(_("The %(unit)s failed to escape jeopardy: it may not move at all this turn.", unit=unit["name"]),
                        "unit")
    if escaped:
        # seed 002, Escaping Jeopardy: "instead of taking its normal Movement sub-phase, and replacing it
        # (and therefore certain orders cannot take effect)" - so no wind move and no Full Speed Ahead
        raise RuleError(_("The %(unit)s escaped jeopardy instead of its normal movement this turn.", unit=unit["name"]),
                        "unit")
    if now["anchor"].get(unit["id"]) == "weigh":
        # seed 002, Dropping Anchor: "A warship may weigh anchor at the end of any subsequent Movement
        # sub-phase ... It then reverts to the normal rules for movement": its sub-phase is over.
        raise RuleError(_("The %(unit)s weighed anchor at the end of its Movement sub-phase: it moves again from its "
                          "next Movement sub-phase.", unit=unit["name"]), "unit")


def moves_off(state: dict, unit: dict) -> bool:
    """The ship moves: a Run Aground from an earlier turn ends (True: the log says so, ``afloat``).

    Decision - seed 002 does not say when "Run Aground" ends.  It says a warship "runs aground if any
    part of it, or its base, contacts an island or wreck" and "may not move any further" (Running
    Aground and Colliding), and a cog deployed from a warship "run aground" takes no capsize test
    (Auxiliaries).  So the ship stays aground while it stays where it grounded - through later turns
    - and stops being aground when it next moves: its wind move (with any distance allowed), Full
    Speed Ahead, or a passed escape.  A grounding in this turn stays: it happened during this move.
    """
    if aground_since_before(state, unit):
        set_status(unit, df.RUN_AGROUND, False)
        books(state)["aground"].pop(unit["id"], None)
        return True
    return False


def afloat(unit: dict, summary: str, off: bool) -> str:
    """A move's label: the ship, what it did and, if it moved off, that it is no longer aground."""
    if off:
        return Said("%(unit)s: %(summary)s; it moves off: no longer run aground", unit=unit["name"], summary=summary)
    return Said("%(unit)s: %(summary)s", unit=unit["name"], summary=summary)


@action("df-sail", systems=GAME, chance=True, fields={
    "unit": Ref("unit"), "relation": Text(20), "sail_dice": Dice(6, 60)})
def sail(state: dict, p: dict) -> str:
    """How far the activated ship may and must move with the wind (in irons: a Command check)."""
    unit = _moving(state, p, CHECKING_WIND)
    _free_to_move(state, unit)
    now = turn(state)
    if unit["id"] in now["sail"]:
        raise RuleError(_("The wind for the %(unit)s was already judged this Movement sub-phase.", unit=unit["name"]),
                        "relation")
    now["sail"][unit["id"]] = {"relation": p["relation"], "min": p["min_inches"], "max": p["max_inches"]}
    off = moves_off(state, unit) if p["max_inches"] else False
    anchored = str(p["summary"]).startswith("At anchor")
    return afloat(unit, retold(p["summary"], lambda: df.sail_summary(p, anchored)), off)


@sail.decider
def decide_sail(state: dict, args: dict, ctx) -> dict:
    unit = _moving(state, args, CHECKING_WIND)
    _free_to_move(state, unit)
    if unit["id"] in turn(state)["sail"]:
        raise RuleError(_("The wind for the %(unit)s was already judged this Movement sub-phase.", unit=unit["name"]),
                        "relation")
    sail_class = bool(unit["stats"].get("sail"))
    result = df.sail_move_allowance(
        now_stat(unit, "speed"), wind_strength(state), args.get("relation") or "side", sail=sail_class,
        at_anchor=at_anchor(state, unit["id"]), command=unit["stats"].get("command"),
        first_mate=first_mate(unit), dice=args.get("sail_dice"), rng=ctx.rng)
    check = result.get("command_check")
    return {**result, "unit": unit["id"], "dice": check["rolls"] if check else []}


@action("df-full-speed", systems=GAME, chance=True, fields={"unit": Ref("unit"), "fsa_dice": Dice(6, 60)})
def full_speed(state: dict, p: dict) -> str:
    """Full Speed Ahead: after its other moves the warship must move 2D6" straight forwards."""
    unit = _fsa_check(state, p)
    resolve_order(state, unit["id"], "Full Speed Ahead")
    turn(state)["moved"].append(unit["id"])
    return afloat(unit, retold(p["summary"], lambda: df.full_speed_summary(p)), moves_off(state, unit))


def _fsa_check(state: dict, args: dict) -> dict:
    unit = _moving(state, args, FULL_SPEED)
    _free_to_move(state, unit)
    if not order_held(state, unit["id"], "Full Speed Ahead"):
        raise RuleError(_("The %(unit)s has no Full Speed Ahead order this activation.", unit=unit["name"]), "order")
    return unit


@full_speed.decider
def decide_full_speed(state: dict, args: dict, ctx) -> dict:
    unit = _fsa_check(state, args)
    in_irons = turn(state)["sail"].get(unit["id"], {}).get("relation") == "in irons"
    result = df.full_speed_ahead(now_stat(unit, "speed"), in_irons=in_irons,
                                 at_anchor=at_anchor(state, unit["id"]), dice=args.get("fsa_dice"),
                                 rng=ctx.rng)
    return {**result, "unit": unit["id"], "luck": luck(7.0, result["inches"], N_("inches at Full Speed"))}


@action("df-anchor", systems=GAME, fields={
    "unit": Ref("unit"), "op": Text(20),
    "distance": Num(0, 1000, what=N_("the distance to the island or wreck"), unit=N_("inches"))})
def anchor(state: dict, p: dict) -> str:
    """Drop anchor within 2" of an island or wreck, or weigh anchor (not both in one turn)."""
    unit = _moving(state, p, ANCHORING)
    need_captain(unit, "drop anchor")
    uid = unit["id"]
    done = turn(state)["anchor"].get(uid)
    attached = status_cards(state, uid)
    if p.get("op") == "drop":
        df.drop_anchor(attached, needed(p, "distance"),
                       weighed_this_turn=done == "weigh")
        set_status(unit, df.AT_ANCHOR, True)
        turn(state)["anchor"][uid] = "drop"
        return Said("%(unit)s drops anchor %(distance)s from the island or wreck", unit=unit["name"],
                    distance=f'{p["distance"]}"')
    if p.get("op") == "weigh":
        df.weigh_anchor(attached, dropped_this_turn=done == "drop")
        set_status(unit, df.AT_ANCHOR, False)
        turn(state)["anchor"][uid] = "weigh"
        return Said("%(unit)s weighs anchor", unit=unit["name"])
    raise RuleError(_("op must be drop or weigh."), "op")


@action("df-escape", systems=GAME, chance=True, fields={"unit": Ref("unit"), "escape_dice": Dice(6, 60), "move_dice": Dice(3, 60),
    "enemies": Int(0, 20)})
def escape(state: dict, p: dict) -> str:
    """Escape jeopardy instead of moving: Command check -1 per enemy in contact, then up to D3+1"."""
    unit = _escape_check(state, p)
    now = turn(state)
    now["moved"].append(unit["id"])
    now.setdefault("escaped", {})[unit["id"]] = bool(p["escaped"])  # passed or failed: no other move
    off = moves_off(state, unit) if p["escaped"] else False
    return afloat(unit, retold(p["summary"], lambda: df.escape_summary(p)), off)


def _escape_check(state: dict, args: dict) -> dict:
    unit = _moving(state, args, ESCAPING)
    now = turn(state)
    if unit["id"] in now["moved"] or unit["id"] in now["sail"]:
        raise RuleError(_("Escaping jeopardy replaces the Movement sub-phase: this ship has already moved."), "unit")
    _free_to_move(state, unit)
    return unit


@escape.decider
def decide_escape(state: dict, args: dict, ctx) -> dict:
    unit = _escape_check(state, args)
    dice = args.get("escape_dice")
    move = args.get("move_dice")
    result = df.escape_jeopardy(unit["stats"].get("command", df.FIRST_MATE_COMMAND),
                                args.get("enemies", 0), at_anchor=at_anchor(state, unit["id"]),
                                auxiliary=is_auxiliary(unit), first_mate=first_mate(unit), dice=dice,
                                move_dice=move, rng=None if dice is not None else ctx.rng)
    if result.get("awaiting"):
        raise RuleError(_("Passed: now enter the D3 rolled for the escape move."), "move_dice")
    return {**result, "unit": unit["id"], "dice": result["check"]["rolls"] + ([result["d3"]] if result["d3"] else [])}
