"""Astral Action (seed 004): Ship Information Cards, damage tracks, attacks with odds, Conditions,
sealed Orders (the core's hidden information), activation by Size."""
from companion.games import Game

GAME = Game(slug="astral-action", name="Astral Action", blueprint="views:bp", phase_hook="endgame:reminders",
            styles=("games/astral-action.css",), scripts=("games/astral-action.js",),
            card_reads=("state.game", "state.phases", "state.phase", "state.sides", "state.unit_order", "state.units",
                        "state.settings",  # the lucky ship's reroll reading (_unit.html)
                        "state.sealed",  # whether a hidden card (Stealth) was revealed (_unit.html)
                        "aa_activation", "aa_formation", "aa_formation_move", "aa_orders", "aa_commands", "aa_ship_row"),
            # a unit's order and attack buttons show on its own side's phones only (_unit.html, _row.html)
            reads_side=True)
