"""Talon's action types (``talon-*``), one module per part of the game: ``fleet`` (ships on the table,
corrections, ships lost), ``power`` (the Power Phase), ``impulse`` (AP and movement, with
``missile_and_fighter_ap``), ``combat`` (fire, missiles, damage, criticals, repairs) and ``round`` (the
table's own numbers).  Their books in the table state are ``state``; the rules are ``rules``."""
