"""Auxiliaries, treasure and sea monsters (seed 002, Auxiliaries; Docking Auxiliaries; Flying
Auxiliaries; Treasure Tokens; Sea Monsters)."""
from __future__ import annotations

from companion.actions import action
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.damage import _bump, lift_damage
from companion.games.dreadfleet.actions.setup import _made, _new_unit
from companion.games.dreadfleet.state import (
    GAME,
    aground_since_before,
    books,
    current,
    is_auxiliary,
    is_monster,
    is_warship,
    reach_step,
    retold,
    set_status,
    sides,
    status_cards,
    turn,
    unit_at_sea,
)
from companion.said import N_, Said, _
from companion.schema import Dice, Flag, Int, Obj, Ref, Text
from companion.trackers import deck as decks

DEPLOYING, NOCTILUS = N_("Deploying an auxiliary"), "Count Noctilus"


def _deploy_check(state: dict, args: dict) -> tuple[dict, dict]:
    uid = args.get("unit")
    aux = state["units"].get(uid) if isinstance(uid, str) else None
    carrier_id = books(state)["docked"].get(uid)
    if aux is None or aux["removed"] or not carrier_id:
        raise RuleError(_("Choose an auxiliary docked with a warship."), "unit")
    carrier = current(state, carrier_id, DEPLOYING)
    now = turn(state)
    if carrier_id in now["moved"] or carrier_id in now["sail"]:
        raise RuleError(_("A warship deploys its auxiliary before it moves."), "unit")
    reach_step(state, carrier_id, 1, DEPLOYING)
    return aux, carrier


@action("df-deploy", systems=GAME, chance=True, fields={
    "unit": Ref("unit"), "treasure": Int(0, 99), "capsize_dice": Dice(6, 60)})
def deploy(state: dict, p: dict) -> str:
    """Deploy a docked auxiliary within 1" of its warship; a cog not at anchor or aground tests capsize."""
    aux, carrier = _deploy_check(state, p)
    del books(state)["docked"][aux["id"]]
    if p["result"]["capsized"]:
        aux["removed"] = True
    elif p.get("treasure"):
        tokens = carrier["trackers"].get("treasure", {}).get("value", 0)
        if p["treasure"] > tokens:
            raise RuleError(_("The %(unit)s carries only %(n)s treasure tokens.", unit=carrier["name"], n=tokens), "treasure")
        _bump(carrier, "treasure", -p["treasure"])
        _bump(aux, "treasure", p["treasure"])
    said = {"carrier": carrier["name"], "auxiliary": aux["name"], "test": _capsized(p["result"], aux["name"])}
    if p.get("treasure") and not p["result"]["capsized"]:
        return Said("The %(carrier)s deploys %(auxiliary)s: %(test)s; %(n)s treasure handed over", n=p["treasure"], **said)
    return Said("The %(carrier)s deploys %(auxiliary)s: %(test)s", **said)


FLIES = N_("it flies: no capsize test")


def _capsized(result: dict, name: str) -> str:
    """The capsize test's line, rebuilt from the stored result (df.capsize_test's words)."""
    stored = result["summary"]

    def build() -> str:
        if stored == FLIES:
            return Said(FLIES)
        spared = "at anchor" if stored.endswith("at anchor: no capsize test") else \
            "run aground" if stored.endswith("run aground: no capsize test") else ""
        if not result["needed"] and not spared:
            return Said("%(auxiliary)s flies: no capsize test", auxiliary=name)
        return df.capsize_summary(name, result["roll"], result["capsized"], spared)
    return retold(stored, build)


@deploy.decider
def decide_deploy(state: dict, args: dict, ctx) -> dict:
    aux, carrier = _deploy_check(state, args)
    if aux["stats"].get("flying"):
        # seed 002, Flying Auxiliaries: "They do not take capsize tests"
        result = {"needed": False, "roll": None, "capsized": False, "summary": Said(FLIES)}
    else:
        # seed 002, Auxiliaries: a warship deploys "before it moves in the Movement sub-phase"; it drops
        # or weighs anchor "at the end of its Movement sub-phase" (Dropping Anchor).  So a cog deployed in
        # the sub-phase its ship drops anchor was launched before the anchor went down (it tests), and
        # one deployed in the sub-phase its ship weighs anchor was launched at anchor (no test).
        done = turn(state)["anchor"].get(carrier["id"])
        anchored = (df.AT_ANCHOR in [c["name"] for c in status_cards(state, carrier["id"])] and done != "drop") \
            or done == "weigh"
        result = df.capsize_test(aux["name"], at_anchor=anchored, run_aground=aground_since_before(state, carrier),
                                 dice=args.get("capsize_dice"), rng=ctx.rng)
    treasure = args.get("treasure", 0)
    return {"unit": aux["id"], "result": result, "treasure": treasure,
            "dice": [result["roll"]] if result["roll"] else []}


@action("df-dock", phase="Action", doing=N_("Docking"), systems=GAME, fields={"unit": Ref("unit"), "to": Ref("warship")})
def dock(state: dict, p: dict) -> str:
    """Dock an auxiliary with a warship of its fleet in base contact: it is repaired, hands over treasure."""
    aux = unit_at_sea(state, p.get("unit"))
    if is_monster(aux):
        raise RuleError(_("Sea monsters cannot dock."), "unit")
    if not is_auxiliary(aux):
        raise RuleError(_("The %(unit)s is a warship: only auxiliaries dock.", unit=aux["name"]), "unit")
    ship = unit_at_sea(state, p.get("to"), "to")
    if not is_warship(ship) or ship["side"] != aux["side"]:
        raise RuleError(_("%(unit)s docks only with a warship of its own fleet.", unit=aux["name"]), "to")
    game = books(state)
    if aux["stats"].get("flying") and game["parent"].get(aux["id"]) != ship["id"]:
        raise RuleError(_("Dwarf Dirigibles and Dragons may only dock with their parent warships."), "to")
    if turn(state)["current"] not in (aux["id"], ship["id"]):
        raise RuleError(_("An auxiliary docks as it comes into base contact: activate it or the warship first."), "unit")
    repaired = []
    deck = state["decks"]["damage"]
    for cid in list(deck["attached"].get(aux["id"], [])):
        card = deck["cards"][cid]
        if not card.get("irreparable"):  # seed 002, Repair: Irreparable cards "cannot be ... removed by any means"
            lift_damage(aux, card)
            decks.apply_steps(deck, [{"step": "move", "card": cid, "to": "discard"}])
            repaired.append(card["name"])
    tokens = aux["trackers"].get("treasure", {}).get("value", 0)
    if tokens:
        _bump(aux, "treasure", -tokens)
        _bump(ship, "treasure", tokens)
    game["docked"][aux["id"]] = ship["id"]
    said = {"auxiliary": aux["name"], "ship": ship["name"], "cards": ", ".join(repaired), "n": tokens}
    if repaired and tokens:
        return Said("%(auxiliary)s docks with the %(ship)s, repaired (%(cards)s discarded), hands over %(n)s treasure",
                    **said)
    if repaired:
        return Said("%(auxiliary)s docks with the %(ship)s, repaired (%(cards)s discarded)", **said)
    if tokens:
        return Said("%(auxiliary)s docks with the %(ship)s, hands over %(n)s treasure", **said)
    return Said("%(auxiliary)s docks with the %(ship)s", **said)


@action("df-treasure", phase="Action", doing=N_("Collecting or handing over treasure"), systems=GAME, fields={
    "unit": Ref("unit"), "op": Text(20), "count": Int(1, 99), "to": Ref("unit")})
def treasure(state: dict, p: dict) -> str:
    """Treasure tokens: an auxiliary collects one a turn, or hands tokens to another auxiliary."""
    unit = unit_at_sea(state, p.get("unit"))
    if is_warship(unit):
        raise RuleError(_("Unlike auxiliaries, warships cannot collect treasure tokens."), "unit")
    if "treasure" not in unit["trackers"]:
        raise RuleError(_("The %(unit)s has no treasure tracker.", unit=unit["name"]), "unit")
    if p.get("op") == "collect":
        now = turn(state)
        if unit["id"] in now["collected"]:
            raise RuleError(_("The %(unit)s has already collected a treasure token this turn.", unit=unit["name"]), "unit")
        now["collected"].append(unit["id"])
        _bump(unit, "treasure", 1)
        return Said("%(unit)s collects a treasure token (%(n)s carried)", unit=unit["name"],
                    n=unit["trackers"]["treasure"]["value"])
    if p.get("op") == "hand":
        if is_monster(unit):
            raise RuleError(_("Sea monsters may claim treasure tokens but not hand them over."), "unit")
        other = unit_at_sea(state, p.get("to"), "to")
        if not is_auxiliary(other) or is_monster(other) or other is unit:
            raise RuleError(_("Tokens are handed between auxiliaries in base contact."), "to")
        count = p.get("count", 1)
        if count > unit["trackers"]["treasure"]["value"]:
            raise RuleError(_("The %(unit)s carries only %(n)s tokens.", unit=unit["name"],
                              n=unit["trackers"]["treasure"]["value"]), "count")
        _bump(unit, "treasure", -count)
        _bump(other, "treasure", count)
        return Said("%(unit)s hands %(n)s treasure to %(other)s", unit=unit["name"], n=count, other=other["name"])
    raise RuleError(_("op must be collect or hand."), "op")


# --- sea monsters (seed 002, Sea Monsters) -----------------------------------------------------------

def _controller(state: dict, args: dict) -> tuple[str, bool]:
    if args.get("noctilus"):
        if df.SIDES[1] not in state["sides"]:
            raise RuleError(_("Count Noctilus commands the Dreadfleet, which is not a side at this table."), "noctilus")
        return df.SIDES[1], True
    nearest = args.get("nearest")
    if nearest not in sides(state):
        a, b = sides(state)
        raise RuleError(_("Say whose warship is nearest: %(a)s or %(b)s.", a=a, b=b), "nearest")
    first, second = sides(state)
    return second if nearest == first else first, False


@action("df-sea-monster", systems=GAME, fields={"name": Text(60), "stats": Obj(doc="the monster's characteristics"),
    "noctilus": Flag(), "nearest": Ref("side")})
def sea_monster(state: dict, p: dict) -> str:
    """A sea monster enters play (from a Fate card); the nearest warship's opponent controls it."""
    if any(u["name"] == p["name"] and not u["removed"] for u in state["units"].values()):
        raise RuleError(_("The %(unit)s is already in play.", unit=p["name"]), "name")
    if p["unit"] != f"u{state['next_unit']}":
        raise RuleError(_("The table changed while the sea monster was being added; try again."), "unit")
    _new_unit(state, p["unit"], p["name"], p["side"], "sea-monster", p["stats"], p["trackers"])
    unit = state["units"][p["unit"]]
    set_status(unit, "Controlled by Count Noctilus", p["noctilus"])
    return Said("The %(unit)s enters play, controlled by %(side)s", unit=p["name"],
                side=NOCTILUS if p["noctilus"] else p["side"])


@sea_monster.decider
def decide_sea_monster(state: dict, args: dict, ctx) -> dict:
    name = df.canonical_name(args.get("name") or "")
    if name not in df.SEA_MONSTERS:
        raise RuleError(_("Choose one of the sea monsters: %(monsters)s.", monsters=", ".join(df.SEA_MONSTERS)), "name")
    card = df.validate_warship(args.get("stats") or {}, auxiliary=True)
    side, noctilus = _controller(state, args)
    stats = {**{k: card[k] for k in df.AUXILIARY_STATS}, "auxiliary": True, "sea_monster": True}
    return {"unit": f"u{state['next_unit']}", "name": name, "side": side, "noctilus": noctilus,
            "stats": stats, "trackers": _made(ctx.system, "sea-monster", stats)}


@action("df-monster-control", phase="Action", doing=N_("Deciding who controls a sea monster"), systems=GAME, fields={
    "unit": Ref("unit"), "noctilus": Flag(), "nearest": Ref("side")})
def monster_control(state: dict, p: dict) -> str:
    """At the start of a sea monster's Action phase: the nearest warship's opponent controls it."""
    unit = unit_at_sea(state, p.get("unit"))
    if not is_monster(unit):
        raise RuleError(_("The %(unit)s is not a sea monster.", unit=unit["name"]), "unit")
    if unit["activated"]:
        raise RuleError(_("The %(unit)s has already acted this turn.", unit=unit["name"]), "unit")
    side, noctilus = _controller(state, p)
    unit["side"] = side
    set_status(unit, "Controlled by Count Noctilus", noctilus)
    now = turn(state)
    if unit["id"] not in now["control"]:
        now["control"].append(unit["id"])
    return Said("The %(unit)s is controlled by %(side)s this turn", unit=unit["name"], side=NOCTILUS if noctilus else side)
