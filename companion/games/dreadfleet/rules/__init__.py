"""Dreadfleet (Games Workshop, 2011): the game's procedures as pure functions.

Source: seed 002 (Universal Head rules summary v1.1, OCR text; "Renai" there is the Repair order,
"Blake Kraken" the Black Kraken).  Comments cite its headings.  What the seed does not give - a
warship's characteristics, the Fate and Damage cards, the wound results after Flesh Wound - the
players enter from their own cards; nothing here invents it.

Conventions
- Dice: a procedure takes ``dice`` (what the player rolled on the table) or ``rng`` (anything with
  ``randint(a, b)``), see ``companion.dice.roll_or_take``.  A roll that depends on the first one
  (armour saves after hits, the D3 after a passed escape) has its own argument; if it is neither
  given nor rollable, the result names it under ``awaiting`` and the caller asks again with both.
- Cards are dicts.  Damage: ``{"name", "type", "value", "irreparable"}``; Fate: ``{"name", "wind",
  "markers", "direction", "kind", "br"}``; status: ``{"name": "At Anchor"}``.  A deck is a list with
  its top card first, a discard pile a list with its top card last.
- Results are JSON-ready dicts with a one-line ``summary`` for the log.

Modules, by the seed's topics (this package re-exports every name, so ``from
companion.games.dreadfleet import rules as df`` gives them all, as the single module did):
- ``basics``: the seed's numbers and names, input limits, the D6 test, card helpers, initiative;
- ``wind``: the wind gauge, wind strength and how far a ship sails;
- ``command``: Command checks, Order Cards, Full Speed Ahead, escaping jeopardy;
- ``broadsides``: range, to hit, armour saves, the odds;
- ``boarding``: boarding actions, captains' duels, wounds;
- ``status``: cards on a warship (Status, Shot, Upgrade) and the anchor;
- ``auxiliaries``: flying auxiliaries, capsize tests, sea monsters;
- ``decks``: shuffling and drawing Fate and Damage cards;
- ``damage``: damage totals, destruction, repairs;
- ``cards``: Warship, Fate and Damage cards typed in by the players.
"""
from companion.dice import roll_or_take  # noqa: F401
from companion.errors import RuleError  # noqa: F401
from companion.games.dreadfleet.rules.auxiliaries import (  # noqa: F401
    capsize_summary,
    capsize_test,
    is_flying,
    sea_monster_controller,
)
from companion.games.dreadfleet.rules.basics import (  # noqa: F401
    ACTION_STEPS,
    ALWAYS_FAILS,
    ALWAYS_SUCCEEDS,
    ANCHOR_REACH,
    AT_ANCHOR,
    AUXILIARY_STATS,
    CALM_WIND,
    CAPSIZE_ON_OR_UNDER,
    CARD_MULTIPLE,
    DAMAGE_TYPES,
    DIRECTIONS,
    ESCAPE_EXTRA_INCHES,
    ESCAPE_PENALTY_PER_ENEMY,
    FATE_KINDS,
    FIRST_BROADSIDE_BONUS,
    FIRST_MATE_COMMAND,
    FLYING_AUXILIARIES,
    FULL_SPEED_AHEAD_DICE,
    HAND_OF_ORDERS,
    LOWEST_SCORE,
    MARKER_INPUT_LIMITS,
    MAX_RANGE,
    MORTAL_WOUNDS,
    NO_SHOT_WARSHIPS,
    OCR_NAMES,
    ORDERS,
    PHASES,
    PLURALS,
    RAKING_BONUS,
    RANGE_BANDS,
    RUN_AGROUND,
    SEA_MONSTERS,
    SET_ABLAZE,
    SIDES,
    STAT_INPUT_LIMITS,
    VICTORY_ON,
    WARSHIP_STATS,
    WARSHIPS,
    WIND_INPUT_LIMITS,
    WIND_RELATIONS,
    WIND_RING,
    WOUND_RESULTS,
    _and,
    _card_name,
    _card_type,
    _card_value,
    _fate_kind,
    _inches,
    _is_named,
    _passes,
    _plural,
    _roll_each,
    _said,
    _signed,
    _victories,
    canonical_name,
    initiative_roll_off,
    initiative_summary,
    lowest_success,
    retold,
    spoken,
)
from companion.games.dreadfleet.rules.boarding import (  # noqa: F401
    _captains,
    _crews,
    boarding_action,
    boarding_summary,
    captains_duel,
    contest_odds,
    duel_summary,
    wound_result,
)
from companion.games.dreadfleet.rules.broadsides import (  # noqa: F401
    _at,
    _shot,
    broadside,
    broadside_dice,
    broadside_odds,
    range_band,
    to_hit_modifier,
)
from companion.games.dreadfleet.rules.cards import (  # noqa: F401
    _card_text,
    _flag,
    check_warship_roster,
    validate_card,
    validate_warship,
)
from companion.games.dreadfleet.rules.command import (  # noqa: F401
    _check_full_speed_ahead,
    _order_name,
    check_summary,
    command_check,
    command_odds,
    escape_jeopardy,
    escape_summary,
    full_speed_ahead,
    full_speed_summary,
    issue_order,
    order_summary,
)
from companion.games.dreadfleet.rules.damage import (  # noqa: F401
    current_stats,
    damage_totals,
    is_repairable,
    repair,
    warship_destroyed,
)
from companion.games.dreadfleet.rules.decks import (  # noqa: F401
    _damage_type,
    _draw_one,
    draw_cards,
    draw_damage,
    draw_of_type,
    draw_until_hull,
    shuffle,
)
from companion.games.dreadfleet.rules.status import (  # noqa: F401
    attach,
    attach_problem,
    can_attach,
    drop_anchor,
    weigh_anchor,
)
from companion.games.dreadfleet.rules.wind import (  # noqa: F401
    _relation,
    _ring_position,
    apply_fate_wind,
    move_wind,
    place_wind,
    placed_summary,
    sail_move_allowance,
    sail_summary,
    wind_strength,
)
