"""Empires of Dust: ``eod-end-phase``, the end of each phase (seed 001, Combat Phase; Burning; EMP): what
ends with it (fires, EMP, destroyed ships removed and scored) is the phase hook's, phase.py.
"""
from __future__ import annotations

from companion.actions import action, core, phase_now
from companion.games.empires_of_dust.state import SYSTEMS, game
from companion.said import Said, joined, recalled
from companion.schema import Int
from companion.validate import MAX_INT


@action("eod-end-phase", systems=SYSTEMS, fields={
    "expect_round": Int(1, MAX_INT), "expect_phase": Int(0, 99)})
def end_phase(state: dict, p: dict) -> str:
    """End this phase (fires, EMP, destroyed ships removed and scored) and go to the next."""
    ended = phase_now(state)
    label = core.next_phase(state, p)
    notes = [recalled(n) for n in game(state).get("phase_notes") or []]  # kept: said again as messages
    if notes:
        return Said("End of %(phase)s phase: %(notes)s → %(next)s", phase=ended.lower(), notes=joined("; ", notes), next=label)
    return Said("End of %(phase)s phase → %(next)s", phase=ended.lower(), next=label)
