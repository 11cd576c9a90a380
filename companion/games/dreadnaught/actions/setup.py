"""Dreadnaught set-up: the ships of a battle (or the next battle of a running one), mulligan, Upgrade Cards."""
from __future__ import annotations

import copy

from companion import trackers
from companion.actions import action, chance, needed, phase_now
from companion.actions.core import phase_reminders
from companion.errors import RuleError, Stale
from companion.games.dreadnaught import rules as dn
from companion.games.dreadnaught.rules.numbers import bare
from companion.games.dreadnaught.rules.set_up import MULLIGAN
from companion.games.dreadnaught.state import (
    SYSTEMS,
    battle_on,
    called,
    clean,
    count,
    retold,
    said,
    ship,
    signed,
    turn,
)
from companion.roster import MAX_SEAT_NAME
from companion.said import Said, _, kept, spoken
from companion.schema import Either, Int, Obj, Ref, Scalar, Text, whole

TEMPLATE = "ship"
BATTLE_SIZES = (1, 3, 5, 7, 9)   # seed 000, Victory & Defeat, Running Battles: "best of 3, 5, etc"


# --- set-up -----------------------------------------------------------------------------------

@action("dn-setup", systems=SYSTEMS, chance=True, fields={
    "names": Obj(doc="who plays each side, by side"), "teams": Either(Obj(doc="each player's team"), Text(400)),
    "team": Either(Obj(doc="each player's team"), Text(400)), "attacker": Ref("side"), "best_of": Scalar(10)})
def setup(state: dict, p: dict) -> str:
    """Set up a battle: a Dreadnaught per player, HP 24 + System bonus, Draw Deck 26/36, hand of 6."""
    p = copy.deepcopy(p)  # the state must not share objects with the logged payload
    g = state["game"]
    if g.get("ships") and not g.get("result"):
        raise RuleError(_("A battle is already set up; end it (or undo) before setting up another."), "setup")
    if (g.get("running") or {}).get("complete") or (g.get("running") or {}).get("winner"):
        raise RuleError(_("The running battle is decided: %(summary)s", summary=spoken(g["running"]["summary"])), "setup")
    if [s["player"] for s in p["ships"]] != state["sides"]:
        raise Stale(_("The table changed while the battle was being set up; try again."), "setup")
    next_unit = state["next_unit"]
    for s in p["ships"]:
        if s["uid"] not in state["units"]:
            if s["uid"] != f"u{next_unit}":
                raise Stale(_("The table changed while the battle was being set up; try again."), "setup")
            next_unit += 1
    state["next_unit"] = next_unit
    keep = {k: g[k] for k in ("battles", "running", "best_of", "battle") if k in g}
    g.clear()
    g.update(mode=p["mode"], attacker=p.get("attacker"), first_player=p.get("first_player"),
             teams=p.get("teams"), placement_distance=p.get("placement_distance"), rolled=p.get("rolled"),
             names=p.get("names") or {},
             ships={}, ship_of={}, eliminations=[], timer=None, result=None, helper=None, last_standing=False,
             battles=keep.get("battles", []), running=keep.get("running"),
             best_of=keep.get("best_of", p["best_of"]), battle=keep.get("battle", 0) + 1)
    for s in p["ships"]:
        unit = {"id": s["uid"], "name": s["name"], "side": s["player"], "template": TEMPLATE,
                "stats": s["stats"], "trackers": s["trackers"], "activated": False, "removed": False}
        if s["uid"] not in state["units"]:
            state["unit_order"].append(s["uid"])
        state["units"][s["uid"]] = unit
        g["ships"][s["uid"]] = {"player": s["player"], "role": s.get("role"), "team": s.get("team"),
                                "slots": [[] for _ in range(dn.SLOTS)], "mulligan_available": True,
                                "eliminated": False, "pending_burn": []}
        g["ship_of"][s["player"]] = s["uid"]
    # a new battle starts at Turn 1, Draw (seed 000, Turn Sequence)
    state["round"], state["phase"] = 1, 0
    turn(state)
    state["reminders"] = phase_reminders(state)
    summary = retold(p["summary"], lambda: dn.setup_summary(
        p["attacker"] if p["mode"] == "duel" else p["first_player"],
        [(s["player"], s["stats"]["start_hp"], s["trackers"]["deck"]["value"]) for s in p["ships"]],
        None if p["mode"] == "duel" else p["placement_distance"]))
    if g["best_of"] > 1:
        return Said("Battle %(n)s of %(best_of)s set up: %(summary)s", n=g["battle"], best_of=g["best_of"],
                    summary=summary)
    return Said("Battle %(n)s set up: %(summary)s", n=g["battle"], summary=summary)


@setup.decider
def decide_setup(state: dict, args: dict, ctx) -> dict:
    sides = list(state["sides"])
    template = ctx.system.templates[TEMPLATE]
    teams = args.get("teams") or args.get("team")
    if isinstance(teams, dict):
        teams = {k: str(v).strip() for k, v in teams.items() if str(v).strip()} or None
    attacker = args.get("attacker") or None
    if attacker is None and sides == list(ctx.system.sides):
        attacker = ctx.system.sides[0]   # the sides already name the roles: Attacker, Defender
    if len(sides) > 2:
        attacker = None
    best_of = (state.get("game") or {}).get("best_of") or args.get("best_of") or state["settings"].get("best_of", 1)
    if whole(best_of) is not None:  # typed digits (schema.whole)
        best_of = whole(best_of)
    if best_of not in BATTLE_SIZES:
        raise RuleError(_("A running battle is a single battle or best of 3, 5, 7 or 9; got %(value)r.", value=best_of),
                        "best_of")
    g = state.get("game") or {}
    # the next battle of a running battle keeps each ship's deck and bonus unless told otherwise
    before = {pl: state["units"][uid]["stats"] for pl, uid in (g.get("ship_of") or {}).items()}
    decks = {pl: before[pl]["deck_size"] for pl in sides} if len(before) == len(sides) else 36
    bonus = {pl: before[pl]["start_hp"] - dn.BASE_HP for pl in sides} if len(before) == len(sides) else 0
    if teams is None and g.get("teams") and "teams" not in args:
        teams = dict(g["teams"])
    names = player_names(args, sides, ctx.system.sides, g.get("names") or {})
    roles = sides == list(ctx.system.sides)
    result = dn.setup(sides, _per_player(args, "deck_size", decks), _per_player(args, "system_bonus", bonus),
                      teams=teams, attacker=attacker, rng=ctx.rng)
    next_unit = state["next_unit"]
    ships = []
    for made in result["ships"]:
        uid = (g.get("ship_of") or {}).get(made["name"])
        if uid is None:
            uid, next_unit = f"u{next_unit}", next_unit + 1
        deck_size = made["deck"] + made["hand"]
        stats = {"start_hp": made["start_hp"], "deck_size": deck_size,
                 "Attacker": made.get("role") == "Attacker", "Defender": made.get("role") == "Defender"}
        built = {spec["id"]: trackers.create(spec, stats) for spec in template.get("trackers", [])}
        # the template holds the ship before the starting draw; set-up draws the hand of 6 (seed 000, Setup)
        drawn = dn.draw(built["hand"]["value"], built["deck"]["value"])
        assert (drawn["hand"], drawn["deck"]) == (made["hand"], made["deck"])
        built["hand"]["value"], built["deck"]["value"] = drawn["hand"], drawn["deck"]
        ships.append({"uid": uid, "player": made["name"], "name": ship_name(made["name"], names, roles),
                      "role": made.get("role"), "team": made.get("team"), "stats": stats, "trackers": built})
    return {"mode": result["mode"], "attacker": result.get("attacker"),
            "first_player": result.get("first_player"), "teams": result.get("teams"),
            "placement_distance": result.get("placement_distance"), "rolled": result["rolled"],
            "best_of": best_of, "ships": ships, "summary": result["summary"],
            "reminders": [kept(r) for r in result["reminders"]],
            "names": names}


def ship_name(side: str, names: dict, roles: bool) -> str:
    """A ship is its player's Dreadnaught ("Anna's Dreadnaught"); a role side nobody named is called by
    its role alone ("Defender", not "Defender's Dreadnaught", as if Defender were somebody's name).
    A name: stored in the state and shown as it is, in English, on every phone."""
    if side in names or not roles:
        return f"{names.get(side, side)}'s Dreadnaught"
    return side


# who plays a side: the names of the seats joined on it, joined with " & " (companion/roster.py), so two
# seats of the longest name fit; an input limit of the board, not a rule of the game
PLAYER_NAMES = 2 * MAX_SEAT_NAME + len(" & ")


def player_names(args: dict, sides: list, default_sides, before: dict) -> dict:
    """Who plays each side, when the sides are only the roles (Attacker, Defender): shown instead of
    "Attacker · Attacker" and "Attacker's Dreadnaught".  Blank means unknown; the next battle of a running
    battle keeps the names unless new ones are given."""
    raw = args.get("names")
    if list(sides) != list(default_sides):
        return {}   # the sides already are the players' names
    if not isinstance(raw, dict):
        return {s: n for s, n in before.items() if s in sides}
    names = {}
    for side in sides:
        name = " ".join(str(raw.get(side) or "").split())
        if len(name) > PLAYER_NAMES:
            raise RuleError(_("A player's name is at most %(n)s characters; %(side)s has %(length)s.", n=PLAYER_NAMES,
                              side=side, length=len(name)), "names")
        if name:
            names[side] = name
    if len(set(names.values())) != len(names):
        raise RuleError(_("Each player needs a different name."), "names")
    return names


def _per_player(args: dict, key: str, default):
    value = args.get(key, default)
    if isinstance(value, dict):
        value = {k: whole(v) if whole(v) is not None else v for k, v in value.items()}  # typed digits (schema.whole)
    return value


@action("dn-mulligan", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name")})
def mulligan(state: dict, p: dict) -> str:
    """Take the one mulligan right after the starting draw: a new hand of 6 (counts unchanged)."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    if state["round"] != 1 or phase_now(state) != "Draw" or turn(state)["power"]:
        raise RuleError(_("The mulligan comes right after the starting draw, in Turn 1's Draw step "
                          "(seed 000, Setup)."), "mulligan")
    name = called(state, data["player"])
    dn.mulligan({"name": name, "hand": count(unit, "hand"), "mulligan_available": data["mulligan_available"]})
    data["mulligan_available"] = False
    return said(state, p, data["player"], MULLIGAN, sep=" ")


@mulligan.decider
def decide_mulligan(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship"), ctx)


@action("dn-upgrades", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"),
    "system_power": Int(0, 99, what="the System Cards' total Power Level"),
    "upgrades": Text(400, "card names, comma separated"),
    "levels": Either(Text(100), Int(0, 99), doc="Power Levels, e.g. 2, 1, 3")})
def upgrades(state: dict, p: dict) -> str:
    """Place the chosen Upgrade Cards (up to 4) face-up in the slots, checking their Power Levels."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    if state["round"] != 1 or phase_now(state) != "Draw":
        raise RuleError(_("Upgrade Cards are chosen at set-up, before Turn 1's Power Management "
                          "(seed 000, Setup)."), "upgrades")
    if any(data["slots"]):
        raise RuleError(_("%(player)s's Upgrade Cards are already placed; undo to change them.", player=data["player"]),
                        "upgrades")
    names = p.get("upgrades") or []
    if not names:
        raise RuleError(_("Name the Upgrade Cards, separated by commas."), "upgrades")
    check = None
    if p.get("levels") is not None:
        if len(p["levels"]) != len(names):
            raise RuleError(_("Give one Power Level per Upgrade Card (%(n)s).", n=len(names)), "levels")
        check = dn.upgrade_power_check(p["levels"], needed(p, "system_power"))
    placed = dn.upgrade_slots(names)
    data["slots"] = placed["slots"]
    if check is None:
        return said(state, p, data["player"], Said("%(cards)s in the slots, face-up.", cards=", ".join(names)))
    return said(state, p, data["player"], Said("%(cards)s in the slots, face-up (%(check)s).", cards=", ".join(names),
                                               check=bare(check["summary"])))


@upgrades.decider
def decide_upgrades(state: dict, args: dict, ctx) -> dict:
    out = signed(clean(args, "ship", "system_power"), ctx)
    out["upgrades"] = split_names(args.get("upgrades"))
    levels = args.get("levels")
    if levels not in (None, ""):
        numbers = [whole(part) for part in str(levels).replace(",", " ").split()]
        if any(n is None or n < 0 for n in numbers):
            raise RuleError(_("Power Levels are whole numbers, e.g. 2, 1, 3."), "levels")
        out["levels"] = numbers
    return out


def split_names(raw) -> list[str]:
    if raw in (None, ""):
        return []
    names = [" ".join(n.split()) for n in str(raw).split(",") if n.strip()]
    if any(len(n) > 40 for n in names):
        raise RuleError(_("A card name is at most 40 characters."), "upgrades")
    return names


@setup.dice_check
def setup_dice(state: dict, p: dict) -> None:
    """An imported set-up (issue 15): the one die that chose who goes first has as many sides as
    there are players, and the player it chose is the one the set-up names (seed 000, Setup)."""
    if p.get("rolled") is None:
        return
    players = [s["player"] for s in p["ships"]]
    rolled = chance.dice(p["rolled"], len(players), "first-player die", count=1)
    chosen = p.get("attacker") if p.get("mode") == "duel" else p.get("first_player")
    chance.same(chosen, players[rolled[0] - 1], "player the die chose")
