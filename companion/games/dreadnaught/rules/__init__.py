"""Dreadnaught (seed 000): the numbers the players juggle while the cards stay on the table.

The cards are physical; these procedures keep the counts (HP, Draw Deck, hand, discard, tokens,
Upgrade/Ready slots, the Fleet Arrival Timer) and answer the questions the rulebook makes players
work out by hand (initiative order, range band, Card Burn counting, elimination, victory points).
Every number comes from seed 000 (``/work/shared/seeds/000_010efc3beb902eee.txt``) and names its
section.  Inputs and outputs are plain dicts, lists, strings and integers; each result carries a
``summary`` sentence.  A move the rules forbid raises ``RuleError(sentence, field)``.

One module per topic of the rulebook, each re-exported here so ``rules.<name>`` reaches every rule:

- ``numbers``: the seed's numbers in one sheet, and the whole-number check every rule uses
- ``set_up``: starting HP, decks and hands, Upgrade Power Levels, the mulligan
- ``damage_and_draw``: Damage, healing, drawing, Always Dangerous, the Return step
- ``burn``: Card Burn counting (Primary cards 2, tokens 1, Remains in Play, Indestructible-X)
- ``ready_slots``: the 4 Upgrade/Ready slots
- ``power_management``: the cards played and the choices they leave
- ``initiative``: initiative steps and the resolution order with the Priority tie-break
- ``range_bands``: range bands, reductions, Unstoppable and Unbreakable
- ``elimination``: the three ways out, the 1.0-step window, wreck terrain
- ``battle_points``: victory points, duel results, running battles, most Eliminations
- ``fleet_arrival``: the Fleet Arrival Timer and what an arriving Fleet does
- ``teams``: Combined Fire and Shared Defense
"""
from __future__ import annotations

from companion.errors import RuleError  # noqa: F401  (importable from here, as before the split)
from companion.games.dreadnaught.rules.battle_points import (  # noqa: F401
    duel_result,
    most_eliminations,
    running_battle,
    victory_points,
)
from companion.games.dreadnaught.rules.burn import BURN_SOURCES, card_burn  # noqa: F401
from companion.games.dreadnaught.rules.damage_and_draw import (  # noqa: F401
    always_dangerous,
    always_dangerous_reminder,
    damage,
    draw,
    heal,
    recover_cards,
    return_to_deck,
)
from companion.games.dreadnaught.rules.elimination import eliminated, grace_window, wreck_terrain  # noqa: F401
from companion.games.dreadnaught.rules.fleet_arrival import (  # noqa: F401
    fleet_arrival_advance,
    fleet_arrival_effects,
    fleet_arrival_new_turn,
    fleet_arrival_start,
)
from companion.games.dreadnaught.rules.initiative import initiative_label, initiative_order  # noqa: F401
from companion.games.dreadnaught.rules.numbers import (  # noqa: F401  (re-exported)
    ALWAYS_DANGEROUS_MAX,
    ARRIVAL_BURN,
    ARRIVAL_DAMAGE,
    ARRIVAL_RANGE,
    BASE_HP,
    COMBINED_FIRE,
    DECK_SIZES,
    FLEET_START,
    FLEET_TRIGGERS,
    GRACE_TENTHS,
    HAND_SIZE,
    NARROW_WIDENS,
    PLACEMENT_DISTANCE,
    PLACEMENT_DISTANCE_FIVE_PLUS,
    PLAYERS_BASE,
    PLAYERS_EXPANSIONS,
    PLAYERS_TEAMS,
    PM_MAX_CARDS,
    PM_MAX_OFFENSE,
    PM_MAX_TERRAIN,
    POWER_MANAGEMENT,
    PRIMARY_BURN,
    PRIORITY,
    PRIORITY_TIEBREAK,
    RANGE_BANDS,
    READY_PER_TURN,
    READY_PLAYS,
    RETURN_MAX,
    SLOTS,
    TOKEN_BURN,
    TOP_TENTHS,
    UPGRADES_MAX,
    VICTORY_NAMES,
    VICTORY_POINTS,
    WRECK_DEBRIS_DAMAGE,
    WRECK_DERELICT_BURN,
    X_TENTHS,
)
from companion.games.dreadnaught.rules.power_management import power_management_options  # noqa: F401
from companion.games.dreadnaught.rules.range_bands import range_band, reduction, unstoppable  # noqa: F401
from companion.games.dreadnaught.rules.ready_slots import (  # noqa: F401
    flip_upgrade,
    play_ready,
    ready_cards,
    upgrade_slots,
)
from companion.games.dreadnaught.rules.set_up import (  # noqa: F401
    mulligan,
    placement_distance,
    setup,
    setup_summary,
    upgrade_power_check,
)
from companion.games.dreadnaught.rules.teams import combined_fire, shared_defense  # noqa: F401
