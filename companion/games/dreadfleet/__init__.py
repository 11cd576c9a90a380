"""Dreadfleet (Games Workshop, 2011; seed 002): wind, broadsides, Fate and Damage decks."""
from companion.games import Game

GAME = Game(slug="dreadfleet", name="Dreadfleet",
            styles=("games/dreadfleet.css",), scripts=("games/dreadfleet.js",))
