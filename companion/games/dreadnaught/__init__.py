"""Dreadnaught (seed 000): card burn, initiative resolution, fleet arrival and battle points."""
from companion.games import Game

GAME = Game(slug="dreadnaught", name="Dreadnaught",
            styles=("games/dreadnaught.css",), hits=(("dn-damage", "ship", "amount"),))
