"""What an import checks of the Dreadfleet rolls that record no total of their own (issue 15).

Seed 002 rolls only D6s (a D3 is a D6 halved), so for these action types every die the event records
must show 1 to 6; the cards they draw are checked as deck steps (companion.import_check).  A
broadside and the boarding dice re-derive their totals too, beside their own actions.
"""
from __future__ import annotations

from companion.actions import chance

# their action types must be registered before their import check is
from companion.games.dreadfleet.actions import auxiliaries, damage, game_turn, orders, sailing, setup  # noqa: F401

D6_ONLY = ("df-wind-place", "df-deploy", "df-sail", "df-full-speed", "df-escape", "df-damage", "df-initiative",
           "df-fate", "df-order")

chance.every_die_checked(D6_ONLY, 6)
