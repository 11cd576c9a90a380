"""Tiny Duel: a made-up game that shows what adding a game takes (docs/adding-a-game.md)."""
from companion.games import Game

GAME = Game(slug="tiny-duel", name="Tiny Duel")
