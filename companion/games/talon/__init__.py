"""Talon (GMT Games, 2015; seed 003 + TALON.md): impulse chart, power curves, charge bars, shields, hull, criticals."""
from companion.games import Game

GAME = Game(slug="talon", name="Talon",
            styles=("games/talon.css",), hits=(("talon-damage", "unit", "amount"),))
