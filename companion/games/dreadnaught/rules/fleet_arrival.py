"""The Fleet Arrival Timer (seed 000, Multiplayer, Fleet Arrival Timer / Fleet Arrival Effects).
"""
from __future__ import annotations

import copy

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import (
    ARRIVAL_BURN,
    ARRIVAL_DAMAGE,
    ARRIVAL_RANGE,
    FLEET_START,
    FLEET_TRIGGERS,
    _plural,
    sentence,
)
from companion.said import Said, _, joined
from companion.schema import whole_argument

# --- Multiplayer ------------------------------------------------------------------------------

def fleet_arrival_start(fleets, *, teams: bool = False) -> dict:
    """The first Elimination starts the timer: one Fleet Token per remaining ship (or team) on 8."""
    if not isinstance(fleets, list) or not fleets or not all(isinstance(f, str) and f.strip() for f in fleets):
        raise RuleError(_("Name each remaining ship (or team) that gets a Fleet Token."), "fleets")
    if len(set(fleets)) != len(fleets):
        raise RuleError(_("Each Fleet Token needs a different name."), "fleets")
    return {"started": True, "teams": bool(teams), "tokens": {f: FLEET_START for f in fleets},
            "lost": [], "event_advancer": {}, "ends_this_turn": False,
            "summary": sentence(Said("Fleet Arrival Timer started: %(tokens)s on %(start)s",
                                     tokens=_plural(len(fleets), "Fleet Token"), start=FLEET_START))}


def _timer(timer) -> dict:
    if not isinstance(timer, dict) or not timer.get("started"):
        raise RuleError(_("The Fleet Arrival Timer starts only when the first ship is Eliminated "
                          "(seed 000, Fleet Arrival Timer)."), "timer")
    return copy.deepcopy(timer)


def fleet_arrival_advance(timer, trigger: str, *, fleet: str | None = None, player: str | None = None,
                          fleet_lost: str | None = None) -> dict:
    """Move Fleet Tokens towards 0 for one of the seed's triggers.

    ``deck_empty`` and ``pushed_to_edge`` move every token 1; ``elimination`` moves the eliminating
    ``fleet`` 2 (the player may decline: then do not call) and ``fleet_lost`` names a fleet whose
    Dreadnaught is gone (it arrives harmlessly); ``event_card`` moves ``fleet`` 1 instead of the
    Event's effect (in teams, one ``player`` per team each turn).
    """
    timer = _timer(timer)
    if trigger not in FLEET_TRIGGERS:
        raise RuleError(_("A Fleet Token moves for %(triggers)s; got %(trigger)r.", triggers=", ".join(FLEET_TRIGGERS),
                                  trigger=trigger), "trigger")
    spaces, whose = FLEET_TRIGGERS[trigger]
    if whose == "own":
        if fleet not in timer["tokens"]:
            raise RuleError(_("Name the Fleet Token to move; %(fleet)r is not on the timer.", fleet=fleet), "fleet")
        if trigger == "event_card" and timer["teams"]:
            if not player:
                raise RuleError(_("Name the player who plays the Event Card."), "player")
            already = timer["event_advancer"].get(fleet)
            if already and already != player:
                raise RuleError(_("Only one player per team advances the Fleet Token each turn; %(player)s "
                                  "already did (seed 000, Event Cards).", player=already), "player")
            timer["event_advancer"][fleet] = player
        moved = [fleet]
    else:
        moved = list(timer["tokens"])
    for name in moved:
        timer["tokens"][name] = max(0, timer["tokens"][name] - spaces)
    if fleet_lost is not None:
        if fleet_lost not in timer["tokens"]:
            raise RuleError(_("%(fleet)r is not on the timer.", fleet=fleet_lost), "fleet_lost")
        if fleet_lost not in timer["lost"]:
            timer["lost"].append(fleet_lost)
    arrived = [n for n, pos in timer["tokens"].items() if pos == 0]
    if arrived:
        timer["ends_this_turn"] = True
    where = ", ".join(f"{n} {timer['tokens'][n]}" for n in moved)
    text = f"{trigger.replace('_', ' ')}: {_plural(spaces, 'space')} for {where}"
    if arrived:
        text += f". {', '.join(arrived)} at 0: the game ends at the end of this turn (after initiative 0)"
    timer["summary"] = text + "."
    return timer


def fleet_arrival_new_turn(timer) -> dict:
    """A new turn: each team may again have one player advance its token with an Event Card."""
    timer = _timer(timer)
    timer["event_advancer"] = {}
    timer["summary"] = "New turn: Event Card advances reset."
    return timer


def fleet_arrival_effects(timer, distances) -> dict:
    """End of the turn a token reached 0: each arriving Fleet hits enemy ships within 4 hexes.

    ``distances`` maps each fleet to ``{enemy ship: hexes from that Fleet's Dreadnaught}``.  A fleet
    whose Dreadnaught was Eliminated (``lost``) arrives but inflicts nothing.
    """
    timer = _timer(timer)
    if not isinstance(distances, dict):
        raise RuleError(_("Give, for each arriving fleet, the hexes to each enemy ship."), "distances")
    arriving = [n for n, pos in timer["tokens"].items() if pos == 0]
    if not arriving:
        raise RuleError(_("No Fleet Token is on the 0 space."), "timer")
    hits = []
    for fleet in arriving:
        if fleet in timer["lost"]:
            continue
        for ship, hexes in (distances.get(fleet) or {}).items():
            if isinstance(hexes, bool) or not isinstance(hexes, int) or hexes < 0:
                whole_argument(hexes, "distances", 0, what=_("Hexes from %(fleet)s to %(ship)s", fleet=fleet, ship=ship))
            if hexes <= ARRIVAL_RANGE:
                hits.append({"fleet": fleet, "ship": ship, "hexes": hexes,
                             "damage": ARRIVAL_DAMAGE, "card_burn": ARRIVAL_BURN})
    text = joined(", ", [Said("%(ship)s takes %(damage)s Damage and %(burn)s Card Burn from %(fleet)s", ship=h["ship"],
                              damage=h["damage"], burn=h["card_burn"], fleet=h["fleet"]) for h in hits]
                  ) or Said("no enemy ship within 4 hexes")
    harmless = [f for f in arriving if f in timer["lost"]]
    if harmless:
        fleets = ", ".join(harmless)
        text = (Said("%(text)s; %(fleets)s arrives without a Dreadnaught: no effect", text=text, fleets=fleets)
                if len(harmless) == 1 else
                Said("%(text)s; %(fleets)s arrive without a Dreadnaught: no effect", text=text, fleets=fleets))
    arrive = Said("Fleets arrive: %(text)s", text=text)
    return {"arriving": arriving, "hits": hits, "game_ends": True,
            "summary": Said("%(text)s. The game ends: most Eliminations wins.", text=arrive)}
