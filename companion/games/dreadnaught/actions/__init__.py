"""Dreadnaught's action types (``dn-*``), one module per part of the battle: ``setup`` (the ships of a
battle, mulligan, Upgrade Cards), ``ship`` (Damage, Card Burn and each step's card counts), ``resolve``
(the initiative resolver, range and reduction checks, Combined Fire) and ``battle`` (Elimination credit,
the Fleet Arrival Timer, the end of a battle).  What they share is ``state``; the rules are ``rules``."""
