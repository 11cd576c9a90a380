"""Astral Action's action types (``aa-*``), one module per topic in the seed's words: ships entering
play (ships), the Command and Activation phases (orders), attacks (combat), Conditions (conditions),
the AWS (aws), Missile and Patrol tokens (tokens), Formations and Escorts (formations), terrain
(terrain), the end of the game and victory (endgame).  The books they keep are ``state``; the
rulebook's procedures and numbers ``rules``."""
