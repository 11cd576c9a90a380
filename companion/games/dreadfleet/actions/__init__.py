"""Dreadfleet's action types (``df-*``), one module per topic in the seed's words: ``setup``,
``game_turn`` (initiative, Fate, activation), ``orders``, ``sailing``, ``broadsides``, ``damage``,
``boarding``, ``auxiliaries``; ``entries`` reads what players type from their own cards, and
``imported_dice`` is what an import checks of the rolls that record no total of their own.  The books
they keep are ``state``; the procedures ``rules``."""
