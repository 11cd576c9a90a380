"""Tiny Duel's one page of its own: a salvo's odds (the example of a game's views, docs/adding-a-game.md).

A game's pages reach the core only through ``companion.game_pages``; the core loads this module (it
needs Flask) and registers ``bp``, found by name."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from companion import game_pages
from companion.actions import declared

from .rules import expected_hits

bp = Blueprint("tiny_duel", __name__)


@bp.app_template_global("tiny_expected")
def tiny_expected(dice: int) -> str:
    """The hits a salvo scores on average, for the board's salvo tool ("1.0")."""
    return f"{expected_hits(dice):.1f}"


@bp.get("/t/<code>/tiny/odds")
def odds(code: str):
    """What a salvo of ``?dice=`` D6 scores on average, read by the salvo's own declared field."""
    game_pages.game_table(code, "tiny-duel")
    try:
        dice = declared("tiny-salvo", "dice").parse(request.args.get("dice") or "1", "dice")
    except game_pages.RuleError as exc:
        return game_pages.error_fragment(exc, "tiny-odds", 400)
    return render_template("games/tiny-duel/_odds.html", dice=dice, expected=tiny_expected(dice))
