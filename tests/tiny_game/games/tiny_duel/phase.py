"""Tiny Duel's phase hook: what to remember as each phase starts."""
from __future__ import annotations


def on_phase(state: dict) -> list[str]:
    """Run inside next-phase as each phase starts: the reminders to show."""
    if state["phases"][state["phase"]] == "End":
        return ["Tiny Duel: a ship at 0 hull leaves the table."]
    return []
