"""Astral Action's rules as pure functions (seed 004): equipment and ship design with points,
attacks with exact odds, the damage track and Conditions, activation by Size, victory, terrain.  Pure:
no web framework, no database: ``state`` keeps the books, ``actions`` changes them."""
