"""Tiny Duel's reading of a table's state, shared by its actions and its pages."""
from __future__ import annotations

from companion.errors import RuleError


def ship(state: dict, uid) -> dict:
    """The ship ``uid`` still on the table, or a refusal naming the target control."""
    unit = state["units"].get(uid) if isinstance(uid, str) else None
    if unit is None or unit["removed"]:
        raise RuleError("Choose a ship at this table.", "target")
    return unit
