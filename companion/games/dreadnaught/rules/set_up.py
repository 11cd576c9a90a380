"""Setting up a battle (seed 000, Setup; Multiplayer Games): starting HP, decks, hands, Upgrades, the mulligan.
"""
from __future__ import annotations

from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import (
    BASE_HP,
    DECK_SIZES,
    HAND_SIZE,
    PLACEMENT_DISTANCE,
    PLACEMENT_DISTANCE_FIVE_PLUS,
    PLAYERS_BASE,
    PLAYERS_EXPANSIONS,
    PLAYERS_TEAMS,
    SLOTS,
    UPGRADES_MAX,
    sentence,
)
from companion.said import N_, Said, _, joined
from companion.schema import whole_argument

# --- set-up -----------------------------------------------------------------------------------

def _per_player(value, players: list[str], field: str) -> dict:
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(players))
        if unknown:
            raise RuleError(_("%(player)r is not one of the players.", player=unknown[0]), field)
        missing = [p for p in players if p not in value]
        if missing:
            raise RuleError(_("Give a value for %(player)s.", player=missing[0]), field)
        return dict(value)
    return {p: value for p in players}


def placement_distance(players: int) -> int:
    """Minimum hexes from every enemy ship when placing ships in a multiplayer game."""
    whole_argument(players, "players", 3, PLAYERS_TEAMS, what=N_("The number of players"))
    return PLACEMENT_DISTANCE.get(players, PLACEMENT_DISTANCE_FIVE_PLUS)


def setup(players, deck_size=36, system_bonus=0, *, teams=None, attacker=None, dice=None, rng=None) -> dict:
    """Starting numbers of every ship: HP 24 + System Card bonus, Draw Deck after a hand of 6.

    Two players are Attacker and Defender (chosen at random, or ``attacker`` names one); three or
    more play the multiplayer rules and a first player is chosen at random instead.  ``deck_size``
    and ``system_bonus`` are one value for all or a dict player -> value; ``teams`` maps player ->
    team name.  The random pick takes one die with as many sides as there are players.
    """
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RuleError(_("List the players by name."), "players")
    if len(set(players)) != len(players):
        raise RuleError(_("Each player needs a different name."), "players")
    count = len(players)
    if count < 2:
        raise RuleError(_("Dreadnaught needs at least 2 players."), "players")
    if count > PLAYERS_TEAMS:
        raise RuleError(_("At most %(n)s players, and only in teams (seed 000, Multiplayer Games).", n=PLAYERS_TEAMS),
                        "players")
    if teams is not None:
        if count == 2:
            raise RuleError(_("Teams are a multiplayer rule: a 2-player game is Attacker against Defender."), "teams")
        teams = _per_player(teams, players, "teams")
        if not all(isinstance(t, str) and t.strip() for t in teams.values()):
            raise RuleError(_("Each team needs a name."), "teams")
        if len(set(teams.values())) < 2:
            raise RuleError(_("A team game needs at least 2 teams."), "teams")
    if count > PLAYERS_EXPANSIONS and teams is None:
        raise RuleError(_("More than %(n)s players must play in teams (seed 000, Multiplayer Games: "
                          "'6 players; or 8 if playing in teams').", n=PLAYERS_EXPANSIONS), "teams")
    sizes = _per_player(deck_size, players, "deck_size")
    for name, size in sizes.items():
        if isinstance(size, bool) or size not in DECK_SIZES:
            raise RuleError(_("A Draw Deck starts with 26 or 36 cards (seed 000, Setup); got %(size)r for %(player)s.",
                              size=size, player=name), "deck_size")
    bonuses = _per_player(system_bonus, players, "system_bonus")
    for name, bonus in bonuses.items():
        if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
            whole_argument(bonus, "system_bonus", 0, what=_("%(player)s's System Card HP bonus", player=name))
    if attacker is not None:
        if attacker not in players:
            raise RuleError(_("%(player)r is not one of the players.", player=attacker), "attacker")
        chosen, rolled = attacker, None
    else:
        rolled = roll_or_take(1, count, dice, rng, "die")
        chosen = players[rolled[0] - 1]
    ships = []
    for name in players:
        start = BASE_HP + bonuses[name]
        ship = {"name": name, "start_hp": start, "hp": start, "deck": sizes[name] - HAND_SIZE,
                "hand": HAND_SIZE, "discard": 0, "tokens": 0, "mulligan_available": True,
                "slots": [[] for _ in range(SLOTS)]}
        if count == 2:
            ship["role"] = "Attacker" if name == chosen else "Defender"
        if teams is not None:
            ship["team"] = teams[name]
        ships.append(ship)
    result = {"mode": "duel" if count == 2 else "multiplayer", "ships": ships, "rolled": rolled}
    reminders = [Said("Choose up to 4 Upgrade Cards; their total Power Level may not exceed the System Cards'."),
                 Said("Each player may mulligan once: draw a new hand of 6, shuffle the old one back.")]
    if count == 2:
        result["attacker"] = chosen
    else:
        result["first_player"] = chosen
        result["teams"] = teams
        result["placement_distance"] = placement_distance(count)
        reminders.append(Said("Each player places 2 hexes of Debris, 2 pieces of Wreckage or 1 Drifting Hulk, "
                              "outside the outer 2 rings of the green zone."))
        if count > PLAYERS_BASE:
            reminders.append(Said("More than %(n)s players needs the expansions (seed 000, Multiplayer Games).",
                                  n=PLAYERS_BASE))
    result["reminders"] = reminders
    result["summary"] = setup_summary(chosen, [(s["name"], s["hp"], s["deck"]) for s in ships],
                                      result.get("placement_distance"))
    return result


def setup_summary(chosen: str, ships, distance=None) -> str:
    """The set-up's sentence: who is the Attacker (or places first, and how far apart), each ship's HP and deck;
    ``ships`` is (name, HP, cards in the deck) per player, ``distance`` the multiplayer placement distance."""
    text = (Said("%(player)s is the Attacker", player=chosen) if distance is None else
            Said("%(player)s places first; ships start at least %(n)s hexes from every enemy ship", player=chosen,
                 n=distance))
    hp = joined(", ", [Said("%(player)s %(hp)s HP / %(deck)s in deck", player=name, hp=hp, deck=deck)
                       for name, hp, deck in ships])
    return Said("%(start)s. %(ships)s; everyone holds 6 cards.", start=text, ships=hp)


def upgrade_power_check(power_levels, system_power: int) -> dict:
    """Up to 4 Upgrade Cards whose Power Levels total no more than the System Cards' total."""
    if not isinstance(power_levels, list):
        raise RuleError(_("List the Power Level of each chosen Upgrade Card."), "upgrades")
    if len(power_levels) > UPGRADES_MAX:
        raise RuleError(_("Choose at most %(n)s Upgrade Cards (seed 000, Setup).", n=UPGRADES_MAX), "upgrades")
    for level in power_levels:
        whole_argument(level, "upgrades", 0, what=N_("A Power Level"))
    whole_argument(system_power, "system_power", 0, what=N_("The System Cards' total Power Level"))
    total = sum(power_levels)
    if total > system_power:
        raise RuleError(_("The Upgrade Cards total Power Level %(total)s, more than the System Cards' "
                          "%(limit)s (seed 000, Card Anatomy).", total=total, limit=system_power), "upgrades")
    return {"total": total, "limit": system_power, "spare": system_power - total,
            "summary": sentence(Said("Upgrades total Power Level %(total)s of %(limit)s", total=total, limit=system_power))}


def mulligan(ship: dict) -> dict:
    """The one mulligan after the starting draw: a new hand of 6, the old hand shuffled back in."""
    if not ship.get("mulligan_available", False):
        raise RuleError(_("The mulligan is taken once, right after the starting draw (seed 000, Setup)."), "mulligan")
    if ship.get("hand") != HAND_SIZE:
        raise RuleError(_("A mulligan replaces the starting hand of 6 cards."), "mulligan")
    return {**ship, "mulligan_available": False,
            "summary": Said("%(ship)s draws a new hand of 6 and shuffles the old one back; counts unchanged.",
                            ship=ship.get("name", "Ship"))}


# the mulligan said after the ship's name (the log names the seat that took it)
MULLIGAN = Said("draws a new hand of 6 and shuffles the old one back; counts unchanged.")
