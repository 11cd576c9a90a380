"""Captains' duels and boarding actions (seed 002, Boarding Actions; Duelling and Wound Cards): the
Boarding Actions sub-phase of an activated ship."""
from __future__ import annotations

from companion.actions import action, chance
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.damage import _told, damage_ready, owe, plan_damage, resolve_damage
from companion.games.dreadfleet.actions.entries import luck
from companion.games.dreadfleet.state import (
    GAME,
    is_warship,
    now_stat,
    reach_step,
    retold,
    sides,
    turn,
    unit_at_sea,
    wounds,
)
from companion.said import N_, _
from companion.schema import YES_NO, Dice, Either, List, Obj, Ref, Text


def _boarders(state: dict, args: dict, what: str) -> tuple[list[dict], list[dict], str]:
    picked = args.get("ships")
    if isinstance(picked, dict):
        picked = [uid for uid, on in picked.items() if YES_NO.parse(on, "ships")]  # ticked checkboxes
    elif isinstance(picked, str):
        picked = picked.replace(",", " ").split()
    if not isinstance(picked, list):
        picked = []
    ships = [unit_at_sea(state, uid, "ships") for uid in dict.fromkeys(picked)]
    first, second = sides(state)
    groups = [[u for u in ships if u["side"] == first], [u for u in ships if u["side"] == second]]
    if not groups[0] or not groups[1] or len(groups[0]) + len(groups[1]) != len(ships):
        raise RuleError(_("Tick the ships in base contact, at least one of each side."), "ships")
    now = turn(state)
    if now["current"] not in {u["id"] for u in ships}:
        raise RuleError(_("%(what)s is fought in an activated ship's Boarding Actions sub-phase: activate one of these "
                          "ships first.", what=_(what)), "ships")
    reach_step(state, now["current"], 3, what)
    key = f"{now['current']}:{','.join(sorted(u['id'] for u in ships))}"
    return groups[0], groups[1], key


def _captains(group: list[dict]) -> list[dict]:
    return [{"name": u["name"], "swashbuckling": u["stats"].get("swashbuckling", 0), "wounds": wounds(u)}
            for u in group if is_warship(u)]


def _duel_check(state: dict, args: dict) -> tuple[list, list, str]:
    a, b, key = _boarders(state, args, DUEL)
    if key in turn(state)["duels"]:
        raise RuleError(_("These captains have already duelled in this Boarding Actions sub-phase."), "ships")
    return a, b, key


DUEL, BOARDING = N_("The captains' duel"), N_("A boarding action")


@action("df-duel", phase="Action", doing=DUEL, systems=GAME, chance=True, fields={
    "ships": Either(List(Ref("unit"), 20), Obj(doc="the form's checkboxes: ships.u2 ..."), Text(300)),
    "dice": Dice(6, 60, "one group per ship: 5 6 / 2 1", groups=True)})
def duel(state: dict, p: dict) -> str:
    """The captains' duel that opens each Boarding Actions sub-phase: Swashbuckling dice, 5-6 a victory."""
    a, b, key = _duel_check(state, p)
    turn(state)["duels"].append(key)
    for unit, captain in zip([u for u in a + b if is_warship(u)], p["result"]["side_a"] + p["result"]["side_b"], strict=False):
        gauge = unit["trackers"].get("wounds")
        if gauge:
            gauge["index"] = gauge["positions"].index(min(captain["wounds"], gauge["positions"][-1]))
    return retold(p["result"]["summary"], lambda: df.duel_summary(p["result"], tuple(sides(state))))


@duel.decider
def decide_duel(state: dict, args: dict, ctx) -> dict:
    a, b, _key = _duel_check(state, args)
    result = df.captains_duel(_captains(a), _captains(b), args.get("dice"), ctx.rng, tuple(sides(state)))
    rolled = [die for c in result["side_a"] + result["side_b"] for die in c["dice"]]
    mine = result["side_a"] if any(u["id"] == turn(state)["current"] for u in a) else result["side_b"]
    return {"ships": [u["id"] for u in a + b], "result": result, "dice": rolled,
            "luck": luck(sum(len(c["dice"]) for c in mine) / 3, sum(c["victories"] for c in mine),
                         N_("duel victories"))}


def _boarding_check(state: dict, args: dict) -> tuple[list, list, str]:
    a, b, key = _boarders(state, args, BOARDING)
    now = turn(state)
    if key in now["boardings"]:
        raise RuleError(_("This boarding action has already been fought in this Boarding Actions sub-phase."), "ships")
    able = [any(c["wounds"] < df.MORTAL_WOUNDS for c in _captains(group)) for group in (a, b)]
    if all(able) and key not in now["duels"]:
        raise RuleError(_("Fight the captains' duel first: it opens each Boarding Actions sub-phase."), "ships")
    return a, b, key


@action("df-boarding", phase="Action", doing=BOARDING, systems=GAME, chance=True, fields={
    "ships": Either(List(Ref("unit"), 20), Obj(doc="the form's checkboxes: ships.u2 ..."), Text(300)),
    "dice": Dice(6, 60, "one group per ship: 5 6 / 2 1", groups=True)})
def boarding(state: dict, p: dict) -> str:
    """A (multiple) boarding action: Crew dice, 5-6 a victory; the side with fewer draws the difference."""
    key = _boarding_check(state, p)[2]
    turn(state)["boardings"].append(key)
    notes = resolve_damage(state, p["steps"])
    for uid, count in p["owed"]:
        owe(state, uid, count)
    owed = sum(count for _uid, count in p["owed"])
    label = retold(p["result"]["summary"], lambda: df.boarding_summary(p["result"], tuple(sides(state))))
    return _told(label, notes, owed, None)


@boarding.decider
def decide_boarding(state: dict, args: dict, ctx) -> dict:
    a, b, _key = _boarding_check(state, args)

    def crews(group):
        return [{"name": u["name"], "crew": now_stat(u, "crew")} for u in group]
    damage_ready(state)
    result = df.boarding_action(crews(a), crews(b), args.get("dice"), ctx.rng, tuple(sides(state)))
    draws = [(u["id"], ship["damage_cards"]) for u, ship in zip(a + b, result["side_a"] + result["side_b"], strict=False)
             if ship["damage_cards"]]
    physical = state["decks"]["damage"]["mode"] != "virtual"
    mine = "side_a" if any(u["id"] == turn(state)["current"] for u in a) else "side_b"
    return {"ships": [u["id"] for u in a + b], "result": result,
            "dice": [die for ship in result["side_a"] + result["side_b"] for die in ship["dice"]],
            "steps": [] if physical else plan_damage(state, ctx.rng, draws), "owed": draws if physical else [],
            "luck": luck(sum(len(s["dice"]) for s in result[mine]) / 3, result["victories"][mine],
                         N_("boarding victories"))}


def _fight_dice(state: dict, p: dict, roller: str) -> None:
    """An imported duel or boarding action (issue 15): each ship's D6s as many as its Crew (or its
    captain's dice), its victories the 5s and 6s among them, the totals and the result from those
    (seed 002, Boarding Actions, Duelling)."""
    result = chance.part(p, "result")
    if result.get("fought") is False:
        return
    totals = {}
    for key in ("side_a", "side_b"):
        total = 0
        for ship in result[key]:
            dice = chance.dice(ship["dice"], 6, "dice", count=ship[roller] if ship["dice"] and roller in ship else None)
            chance.same(ship["victories"], df._victories(dice), f"{ship['name']}'s victories")
            total += ship["victories"]
        totals[key] = total
    chance.same(result["victories"], totals, "victories")
    if "result" in result:
        chance.same(result["result"], abs(totals["side_a"] - totals["side_b"]), "result")


@duel.dice_check
def duel_dice(state: dict, p: dict) -> None:
    _fight_dice(state, p, "swashbuckling")


@boarding.dice_check
def boarding_dice(state: dict, p: dict) -> None:
    _fight_dice(state, p, "crew")
