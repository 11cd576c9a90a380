"""Empires of Dust (seed 001, Win Condition): points, checkmate, capture the ship, gladiator and
interdiction.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _
from companion.schema import whole_argument

from .damage import _max_hp
from .seed_numbers import _key, spoken
from .tables import victory_points


def _class_of(ship) -> str:
    return _key(ship.get("class", "") if isinstance(ship, dict) else ship)


def fleet_points(ships: list) -> int:
    """Points for the destroyed ships (dicts with a class, or class names): drone 0, frigate 2,
    destroyer 3, cruiser 5, battleship 8 (seed 001, Turns and Points)."""
    total = 0
    for ship in ships:
        cls = _class_of(ship)
        if cls not in victory_points():
            raise RuleError(_("The seed gives no points for a destroyed %(cls)s.", cls=cls) if cls
                            else _("The seed gives no points for a destroyed ship without class."), "class")
        total += victory_points()[cls]
    return total


def points_tally(destroyed_by: dict) -> dict:
    """{fleet: [ships it destroyed]} -> points per fleet and the leader(s) (seed 001, Turns and Points)."""
    points = {fleet: fleet_points(ships) for fleet, ships in destroyed_by.items()}
    best = max(points.values(), default=0)
    leaders = [f for f, p in points.items() if p == best]
    return {"points": points, "leaders": leaders,
            "summary": ", ".join(f"{f} {p}" for f, p in points.items())
                       + (f"; leading: {', '.join(leaders)}" if points else "")}


def _alive(ship: dict) -> bool:
    return whole_argument(ship.get("hp", 1), "hp", 0) > 0 and not ship.get("destroyed")


def checkmate(fleets: dict, in_play: list[str] | None = None) -> dict:
    """At the end of a turn: a fleet without a surviving battleship is removed; the last fleet with
    one wins; if all remaining battleships fell in the same turn, a draw between those fleets
    (seed 001, Checkmate).  ``in_play``: the fleets still in the game at the start of the turn."""
    in_play = list(fleets) if in_play is None else list(in_play)
    problem = checkmate_problem(fleets, in_play)
    if problem:
        raise RuleError(spoken(problem), "fleets")
    still = [f for f in in_play if any(_class_of(s) == "battleship" and _alive(s) for s in fleets[f])]
    out = [f for f in in_play if f not in still]
    winner = still[0] if len(still) == 1 else None
    draw = out if not still else None
    if winner:
        text = Said("%(fleet)s wins: the last fleet with a surviving battleship", fleet=winner)
    elif draw:
        text = Said("draw between %(fleets)s: all remaining battleships destroyed this turn", fleets=", ".join(draw))
    elif out:
        text = Said("in play: %(fleets)s; eliminated: %(out)s", fleets=", ".join(still), out=", ".join(out))
    else:
        text = Said("in play: %(fleets)s", fleets=", ".join(still))
    return {"in_play": still, "eliminated": out, "winner": winner, "draw": draw, "summary": text}


def checkmate_problem(fleets: dict, in_play: list[str]) -> Said | None:
    """Why checkmate cannot be judged (a fleet in play without a battleship), else None."""
    for fleet in in_play:
        if not any(_class_of(s) == "battleship" for s in fleets.get(fleet, [])):
            return Said("%(fleet)s has no battleship; checkmate needs one in every fleet.", fleet=fleet)
    return None


def gladiator_problem(fleets: dict) -> Said | None:
    """Why gladiator cannot be judged (a fleet with other than one ship), else None."""
    for fleet, ships in fleets.items():
        if len(ships) != 1:
            return Said("In gladiator each player has only one ship; %(fleet)s has %(n)s.", fleet=fleet, n=len(ships))
    return None


def capture_ship(ship: dict, captor: str) -> dict:
    """Capture the Ship: destroying the spawned ship captures it with full hit points (seed 001)."""
    max_hp = _max_hp(ship)
    if max_hp is None:
        raise RuleError(_("Give the ship's class or max_hp to restore it on capture."), "max_hp")
    return {**ship, "hp": max_hp, "owner": captor,
            "summary": Said("%(fleet)s captures %(ship)s with full %(hp)s HP", fleet=captor, ship=ship["name"], hp=max_hp)
            if "name" in ship
            else Said("%(fleet)s captures the ship with full %(hp)s HP", fleet=captor, hp=max_hp)}


def capture_tally(captured: dict) -> dict:
    """{fleet: number of captured ships} -> the leader(s) at the end of play."""
    best = max(captured.values(), default=0)
    leaders = [f for f, n in captured.items() if n == best]
    return {"captured": captured, "leaders": leaders,
            "summary": Said("%(tally)s; most captured: %(leaders)s", tally=", ".join(f"{f} {n}" for f, n in captured.items()),
                            leaders=", ".join(leaders))}


def gladiator(fleets: dict) -> dict:
    """Gladiator: one ship per player; the last player surviving wins (seed 001, Gladiator)."""
    problem = gladiator_problem(fleets)
    if problem:
        raise RuleError(spoken(problem), "fleets")
    alive = [f for f, ships in fleets.items() if _alive(ships[0])]
    winner = alive[0] if len(alive) == 1 else None
    text = (Said("%(fleet)s wins", fleet=winner) if winner else
            (Said("no survivor") if not alive else Said("still fighting: %(fleets)s", fleets=", ".join(alive))))
    return {"alive": alive, "winner": winner, "summary": text}


def interdiction(games: list[dict]) -> dict:
    """Interdiction: each game one player attacks the convoy and one defends; then the roles switch.
    A player's score is convoy ships destroyed as attacker plus convoy ships surviving as defender;
    the highest wins (seed 001, Interdiction).  games: [{attacker, defender, destroyed, survived}]."""
    score: dict[str, int] = {}
    for i, game in enumerate(games):
        att, dfd = game.get("attacker"), game.get("defender")
        destroyed = whole_argument(game.get("destroyed", 0), f"games[{i}].destroyed", 0)
        survived = whole_argument(game.get("survived", 0), f"games[{i}].survived", 0)
        score[att] = score.get(att, 0) + destroyed
        score[dfd] = score.get(dfd, 0) + survived
    best = max(score.values(), default=0)
    leaders = [p for p, s in score.items() if s == best]
    return {"scores": score, "winners": leaders,
            "summary": Said("%(scores)s; victor: %(leaders)s", scores=", ".join(f"{p} {s}" for p, s in score.items()),
                            leaders=", ".join(leaders))}
