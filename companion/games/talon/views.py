"""Talon's template helpers: the board's ship cards and impulse panel are computed by the rules
(summary.py) rather than re-derived in Jinja.  Registered with the blueprint; no pages of its own."""
from __future__ import annotations

from flask import Blueprint

from companion.games.talon import summary
from companion.games.talon.fleet_actions import classes

bp = Blueprint("talon", __name__)


@bp.app_context_processor
def _helpers() -> dict:
    return {"talon_ship": summary.ship_view, "talon_round": summary.round_view, "talon_classes": classes}
