"""Battle points (seed 000, Victory & Defeat; Multiplayer): Major 5, Minor 3, Pyrrhic 1, running battles,
and the multiplayer winner by most Eliminations.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import VICTORY_NAMES, VICTORY_POINTS, _plural
from companion.said import N_, Said, _
from companion.schema import whole_argument

# --- Victory ---------------------------------------------------------------------------------

def victory_points(result: str) -> dict:
    """Points of one battle: Major Victory 5, Minor 3, Pyrrhic 1 (multiplayer only), Defeat 0."""
    key = str(result).strip().lower().replace(" victory", "")
    if key not in VICTORY_POINTS:
        raise RuleError(_("A result is major, minor, pyrrhic or defeat; got %(result)r.", result=result), "result")
    points = VICTORY_POINTS[key]
    return {"result": key, "points": points, "summary": f"{VICTORY_NAMES[key]}: {points} pts."}


def duel_result(eliminated_ships: dict) -> dict:
    """Result of a 2-player battle from who was Eliminated: one -> Major for the other; both -> Minor each."""
    if not isinstance(eliminated_ships, dict) or len(eliminated_ships) != 2:
        raise RuleError(_("Give both players and whether each was Eliminated."), "eliminated")
    out = [name for name, gone in eliminated_ships.items() if gone]
    if not out:
        raise RuleError(_("The battle ends only when a ship is Eliminated."), "eliminated")
    results = {}
    for name in eliminated_ships:
        if len(out) == 2:
            results[name] = "minor"
        else:
            results[name] = "defeat" if name in out else "major"
    points = {name: VICTORY_POINTS[r] for name, r in results.items()}
    text = ", ".join(f"{n} {VICTORY_NAMES[r]} ({points[n]} pts)" for n, r in results.items())
    return {"results": results, "points": points, "summary": text + "."}


def running_battle(results, best_of: int) -> dict:
    """Totals over a set of linked games (best of 3, 5 ...): most points at the end wins."""
    whole_argument(best_of, "best_of", 1, what=N_("Best of"))
    if best_of % 2 == 0:
        raise RuleError(_("A running battle is best of an odd number of games (3, 5 ...)."), "best_of")
    if not isinstance(results, list) or len(results) > best_of:
        raise RuleError(_("A best of %(n)s has at most %(n)s games.", n=best_of), "results")
    totals: dict[str, int] = {}
    games = []
    for number, game in enumerate(results, 1):
        if not isinstance(game, dict) or not game:
            raise RuleError(_("Game %(n)s: give each player's result.", n=number), "results")
        scored = {}
        for name, result in game.items():
            try:
                scored[name] = victory_points(result)["points"]
            except RuleError as exc:
                raise RuleError(_("Game %(n)s: %(refusal)s", n=number, refusal=exc.message), "results") from None
            totals[name] = totals.get(name, 0) + scored[name]
        games.append(scored)
    for game in games:
        for name in totals:
            game.setdefault(name, 0)
    left = best_of - len(results)
    ranking = sorted(totals.items(), key=lambda kv: -kv[1])
    leaders = [n for n, p in ranking if ranking and p == ranking[0][1]]
    lead = ranking[0][1] - ranking[1][1] if len(ranking) > 1 else 0
    # Nobody can gain more than a Major Victory (5) in each game still to play.
    decided = len(leaders) == 1 and lead > VICTORY_POINTS["major"] * left
    complete = left == 0
    winner = leaders[0] if (complete or decided) and len(leaders) == 1 else None
    scores = ", ".join(f"{n} {p}" for n, p in ranking)
    if winner and complete:
        text = Said("%(player)s wins the running battle (%(scores)s).", player=winner, scores=scores)
    elif winner:
        text = Said("%(player)s cannot be caught (%(scores)s); %(games)s still to play.", player=winner,
                    scores=scores, games=_plural(left, "game"))
    elif complete:
        text = Said("Tied on points (%(scores)s): the seed names no tie-break.", scores=scores)
    elif scores:
        text = Said("After %(games)s: %(scores)s; %(left)s to play.", games=_plural(len(results), "game"),
                    scores=scores, left=left)
    else:
        text = Said("After %(games)s: no points yet; %(left)s to play.", games=_plural(len(results), "game"),
                    left=left)
    return {"totals": totals, "games": games, "games_played": len(results), "games_left": left,
            "complete": complete, "decided": decided, "leaders": leaders, "winner": winner, "summary": text}


def most_eliminations(eliminations: dict) -> dict:
    """Winner of a multiplayer game: the player (or team) that Eliminated the most other ships."""
    if not isinstance(eliminations, dict) or not eliminations:
        raise RuleError(_("Give each player's (or team's) Eliminations."), "eliminations")
    for name, count in eliminations.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            whole_argument(count, "eliminations", 0, what=_("%(player)s's Eliminations", player=name))
    best = max(eliminations.values())
    leaders = [n for n, c in eliminations.items() if c == best]
    winner = leaders[0] if len(leaders) == 1 else None
    text = (Said("%(player)s wins with %(eliminations)s.", player=winner, eliminations=_plural(best, "Elimination"))
            if winner else Said("Tied on %(eliminations)s: %(leaders)s (the seed names no tie-break).",
                                eliminations=_plural(best, "Elimination"), leaders=", ".join(leaders)))
    return {"winner": winner, "leaders": leaders, "summary": text}
