"""Astral Action (seed 004): Ship Information Cards, damage tracks, attacks with odds, Conditions,
sealed Orders (the core's hidden information), activation by Size."""
from companion.games import Game

GAME = Game(slug="astral-action", name="Astral Action",
            styles=("games/astral-action.css",), scripts=("games/astral-action.js",),
            applied_by=(("aa-attack", "aa-apply-attack"),), pending_words=" (not yet applied)",
            hits=(("aa-damage", "unit", "amount"),))
