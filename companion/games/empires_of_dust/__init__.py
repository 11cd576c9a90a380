"""Empires of Dust (seed 001): fleet design, penetration rolls, burn and EMP, cooldowns, victory."""
from companion.games import Game

GAME = Game(slug="empires-of-dust", name="Empires of Dust",
            styles=("games/empires-of-dust.css",), scripts=("games/empires-of-dust.js",))
