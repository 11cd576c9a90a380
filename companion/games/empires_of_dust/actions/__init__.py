"""Empires of Dust's action types (``eod-*``), one module per topic: ``fleets`` (designs, deploying),
``initiative``, ``attack``, ``equipment``, ``drones_and_docking``, ``end_phase`` and ``victory``.  What
they share is ``state``; the rules are ``rules``."""
