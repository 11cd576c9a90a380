"""Dreadnaught's end of a battle: Elimination credit, the Fleet Arrival Timer, results and running battles."""
from __future__ import annotations

from companion.actions import action, phase_now
from companion.actions.core import phase_reminders
from companion.errors import RuleError
from companion.games.dreadnaught import rules as dn
from companion.games.dreadnaught.rules.numbers import bare, sentence
from companion.games.dreadnaught.state import (
    RESOLVING,
    SYSTEMS,
    battle_on,
    clean,
    count,
    eliminate,
    elimination_of,
    fleet_of,
    move_tokens,
    players,
    remaining,
    set_count,
    ship,
    timer_rules,
    turn,
)
from companion.said import N_, Said, _, joined, kept
from companion.schema import Flag, Obj, Ref, Scalar, Text, whole


def _timer(g: dict) -> None:
    timer = g.get("timer")
    if not timer:
        raise RuleError(_("The Fleet Arrival Timer starts only when the first ship is Eliminated "
                          "(seed 000, Fleet Arrival Timer)."), "timer")
    if timer.get("arrived"):
        raise RuleError(_("The Fleets have arrived; the game is ending."), "timer")


def _multiplayer(g: dict, what: str) -> None:
    """Refuse a multiplayer rule in a duel; ``what``, the rule in the game's words, is a message marked N_."""
    if g["mode"] != "multiplayer":
        raise RuleError(_("%(what)s is a multiplayer rule (seed 000, Multiplayer Rules).", what=_(what)), "mode")


# --- Elimination credit -----------------------------------------------------------------------

@action("dn-credit", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "by": Scalar(60), "advance": Flag()})
def credit(state: dict, p: dict) -> str:
    """Say who Eliminated a ship (multiplayer); they may move their Fleet Token 2 spaces."""
    g = battle_on(state)
    _multiplayer(g, N_("Crediting an Elimination"))
    uid, data, _unit = ship(state, p.get("ship"), alive=False)
    record = elimination_of(state, uid)
    if not record:
        raise RuleError(_("%(player)s is not Eliminated.", player=data["player"]), "ship")
    if record["by"] is not None:
        raise RuleError(_("%(player)s's Elimination is already credited to %(by)s.", player=data["player"],
                          by=record["by"]) if record["by"] else
                        _("%(player)s's Elimination is already credited to nobody.", player=data["player"]), "by")
    by = p.get("by") or ""
    if by and by not in players(state):
        raise RuleError(_("Credit one of %(players)s, or nobody.", players=", ".join(players(state))), "by")
    if by == data["player"]:
        raise RuleError(_("A ship does not Eliminate itself; credit nobody instead."), "by")
    if by and g["ships"][g["ship_of"][by]]["eliminated"] and p.get("advance", False):
        raise RuleError(_("%(player)s's ship is Eliminated: its Fleet Token does not move.", player=by), "advance")
    record["by"] = fleet_of(state, by) if by else ""
    text = (Said("%(player)s's Elimination credited to %(by)s", player=data["player"], by=record["by"]) if record["by"]
            else Said("%(player)s's Elimination credited to nobody", player=data["player"]))
    if by and p.get("advance", False):
        _timer(g)
        # seed 000, Fleet Arrival Timer: "When you Eliminate any other player's ship, you may move your
        # Fleet Token forwards 2 spaces"
        text = joined(". ", (text, move_tokens(state, "elimination", Said("%(by)s Eliminated %(player)s", by=by,
                                                                            player=data["player"]),
                                               fleet=fleet_of(state, by))))
    return text


@credit.decider
def decide_credit(state: dict, args: dict, ctx) -> dict:
    return clean(args, "ship", "by", "advance")


# --- the Fleet Arrival Timer ------------------------------------------------------------------

FLEET_TRIGGERS = {"pushed_to_edge": N_("a ship Pushed to the map edge"), "event_card": N_("an Event Card"),
                  "deck_empty": N_("a Draw Deck reduced to 0")}


@action("dn-fleet", systems=SYSTEMS, fields={"trigger": Text(40), "player": Ref("player")})
def fleet(state: dict, p: dict) -> str:
    """Move Fleet Tokens: a ship Pushed to the map edge (all 1), an Event Card played for it (own 1)."""
    g = battle_on(state)
    _multiplayer(g, N_("The Fleet Arrival Timer"))
    _timer(g)
    trigger = p.get("trigger")
    if trigger not in FLEET_TRIGGERS:
        raise RuleError(_("A Fleet Token moves for %(triggers)s.", triggers=", ".join(_(w) for w in FLEET_TRIGGERS.values())),
                        "trigger")
    if trigger != "event_card":
        return move_tokens(state, trigger, Said(FLEET_TRIGGERS[trigger]))
    player = p.get("player")
    if player not in remaining(state):
        raise RuleError(_("Say who plays the Event Card: one of %(players)s.", players=", ".join(remaining(state))),
                        "player")
    if g["timer"]["turn"] != state["round"]:
        # seed 000, Event Cards: "only one player per team may advance that team's Fleet Token each turn"
        fresh = dn.fleet_arrival_new_turn(timer_rules(g))
        fresh.pop("summary")
        g["timer"] = {**fresh, "turn": state["round"], "arrived": False}
    return move_tokens(state, trigger, Said("%(player)s plays an Event Card for it", player=player), state["round"],
                       fleet=fleet_of(state, player), player=player)


@fleet.decider
def decide_fleet(state: dict, args: dict, ctx) -> dict:
    return clean(args, "trigger", "player")


@action("dn-fleet-arrival", systems=SYSTEMS, fields={
    "distances": Obj(doc="hexes from each arriving Fleet's Dreadnaught to each enemy ship: {fleet: {ship: hexes}}")})
def fleet_arrival(state: dict, p: dict) -> str:
    """End of the turn a token reached 0: enemies within 4 hexes of the Fleet's Dreadnaught take 6 Damage, 4 Burn."""
    g = battle_on(state)
    _multiplayer(g, N_("Fleet Arrival"))
    _timer(g)
    timer = timer_rules(g)
    arriving = [f for f, pos in timer["tokens"].items() if pos == 0]
    if not arriving:
        raise RuleError(_("No Fleet Token is on the 0 space yet."), "timer")
    t = turn(state)
    if state["phase"] < state["phases"].index(RESOLVING[0]) or (phase_now(state) in RESOLVING and t["current"]):
        raise RuleError(_("The Fleet arrives at the end of the turn, after initiative 0: resolve the revealed "
                          "cards first (seed 000, Fleet Arrival Effects)."), "timer")
    raw = p.get("distances") or {}
    distances = {}
    for fleet_name in arriving:
        if fleet_name in timer["lost"]:
            continue
        enemies = [pl for pl in remaining(state) if fleet_of(state, pl) != fleet_name]
        given = raw.get(fleet_name) or {}
        distances[fleet_name] = {}
        for enemy in enemies:
            hexes = given.get(enemy)
            if whole(hexes) is not None:  # typed digits, read as every typed whole number is (schema.whole)
                hexes = whole(hexes)
            if hexes is None or hexes == "":
                raise RuleError(_("Enter the hexes from %(fleet)s's Dreadnaught to %(player)s.", fleet=fleet_name,
                                  player=enemy), "distances")
            distances[fleet_name][enemy] = hexes
    result = dn.fleet_arrival_effects(timer, distances)
    g["timer"]["arrived"] = True
    parts = [bare(result["summary"], ". The game ends: most Eliminations wins.")]
    for hit in result["hits"]:
        uid, data, unit = ship(state, hit["ship"], alive=False)
        if data["eliminated"]:
            continue  # an earlier Fleet in this arrival finished it
        hurt = dn.damage(count(unit, "hp"), hit["damage"], t["damage"].get(uid, 0))
        set_count(unit, "hp", hurt["hp"])
        t["damage"][uid] = hurt["damage_this_turn"]
        if hurt["eliminated"]:
            parts.append(eliminate(state, uid, ["destroyed"], "damage"))
            # seed 000, Fleet Arrival Effects: "Damage and Card Burn inflicted by a Fleet Arrival count"
            elimination_of(state, uid)["by"] = hit["fleet"]
        else:
            data["pending_burn"].append({"amount": hit["card_burn"], "fleet": hit["fleet"]})
    if any(g["ships"][u]["pending_burn"] for u in g["ships"]):
        parts.append(Said("Resolve each Fleet's 4 Card Burn with the Card Burn tool, then end the battle"))
    else:
        parts.append(Said("End the battle: most Eliminations wins"))
    g["arrival"] = {"hits": result["hits"], "arriving": arriving}
    return sentence(joined(". ", [bare(x) for x in parts if x]))


@fleet_arrival.decider
def decide_fleet_arrival(state: dict, args: dict, ctx) -> dict:
    raw = args.get("distances") or {}
    if not isinstance(raw, dict):
        raise RuleError(_("Give the hexes from each arriving Fleet's Dreadnaught to each enemy ship."), "distances")
    return {"distances": {str(f): {str(s): h for s, h in (v or {}).items()} for f, v in raw.items()
                          if isinstance(v, dict)}}


# --- the end of a battle ----------------------------------------------------------------------

@action("dn-end-battle", systems=SYSTEMS, fields={"results": Obj(doc="each player's result, by name")})
def end_battle(state: dict, p: dict) -> str:
    """End the battle: duel points from who was Eliminated; multiplayer by most Eliminations."""
    g = battle_on(state)
    names = players(state)
    if g["mode"] == "duel":
        if not g["eliminations"]:
            raise RuleError(_("The battle ends only when a ship is Eliminated (seed 000, Victory & Defeat)."), "battle")
        outcome = dn.duel_result({n: bool(g["ships"][g["ship_of"][n]]["eliminated"]) for n in names})
        results, winner = outcome["results"], None
    else:
        timer = g.get("timer") or {}
        fleets_left = {fleet_of(state, n) for n in remaining(state)}
        if not timer.get("arrived") and len(fleets_left) > 1:
            raise RuleError(_("A multiplayer game ends when a Fleet arrives (or one side is left) "
                              "(seed 000, Fleet Arrival Effects)."), "battle")
        waiting = [f"{g['ships'][u]['player']} ({b['amount']})" for u in g["ships"]
                   for b in g["ships"][u]["pending_burn"]]
        if waiting:
            raise RuleError(_("Resolve the Fleet Arrival's Card Burn first: %(ships)s.", ships=", ".join(waiting)),
                            "battle")
        results = p.get("results") or {}
        missing = [n for n in names if not results.get(n)]
        if missing:
            raise RuleError(_("Choose a result for %(player)s (Major, Minor, Pyrrhic or Defeat).", player=missing[0]),
                            "results")
        results = {n: dn.victory_points(results[n])["result"] for n in names}
        tally = {fleet_of(state, n): 0 for n in names}
        for record in g["eliminations"]:
            if record.get("by"):
                tally[record["by"]] = tally.get(record["by"], 0) + 1
        winner = dn.most_eliminations(tally)
    points = {n: dn.VICTORY_POINTS[r] for n, r in results.items()}
    g["battles"].append(results)
    running = dn.running_battle(g["battles"], g["best_of"])
    g["running"] = {**running, "summary": kept(running["summary"])}  # drawn in each reader's words (say)
    text = joined(", ", [Said("%(player)s %(result)s (%(points)s pt)", player=n, result=Said(dn.VICTORY_NAMES[r]),
                              points=points[n]) if points[n] == 1 else
                         Said("%(player)s %(result)s (%(points)s pts)", player=n, result=Said(dn.VICTORY_NAMES[r]),
                              points=points[n]) for n, r in results.items()])
    if winner:
        text = joined(" ", (winner["summary"], text))
        winner = {**winner, "summary": kept(winner["summary"])}
    g["result"] = {"results": results, "points": points, "winner": winner, "summary": kept(text)}
    for uid, data in g["ships"].items():
        if data["eliminated"]:
            state["units"][uid]["removed"] = True   # the battle report lists it as lost
    state["reminders"] = phase_reminders(state)
    if g["best_of"] > 1:
        text = Said("%(results)s. Running battle: %(summary)s", results=text, summary=running["summary"])
    return Said("Battle %(n)s ends: %(results)s", n=g["battle"], results=text)


@end_battle.decider
def decide_end_battle(state: dict, args: dict, ctx) -> dict:
    out = {}
    if isinstance(args.get("results"), dict):
        out["results"] = {str(k): str(v) for k, v in args["results"].items()}
    return out
