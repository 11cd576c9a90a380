"""Talon beside the board: template helpers (the ship cards and impulse panel are computed by the rules
in summary.py, not re-derived in Jinja) and ship classes saved in the library (kind "class"): a ship's
numbers as corrected from the players' own counter, put on the table again next game.  Table changes
still go through ``store.act``."""
from __future__ import annotations

from flask import Blueprint, request

from companion.game_pages import RuleError, board_page, ctx_for, game_table, get_db, library, refusal, store
from companion.games.talon.actions.fleet import classes, spec_fields
from companion.games.talon.views import summary
from companion.said import _

bp = Blueprint("talon", __name__, url_prefix="/t/<code>/talon")
SLUG = "talon"


# The templates' helpers, as Jinja globals (looked up only where a template uses them).
for _name, _helper in {"talon_ship": summary.ship_view, "talon_row": summary.row_view,
                       "talon_round": summary.round_view, "talon_classes": classes}.items():
    bp.add_app_template_global(_helper, _name)


@bp.app_template_global("talon_saved")
def talon_saved() -> list[dict]:
    """The ship classes saved in the library (kind "class")."""
    return store.library_items(get_db(), SLUG, "class")


def _table(code: str):
    return game_table(code, SLUG, write=True)


_failed = refusal


@bp.post("/classes")
def save_class(code: str):
    """Save a ship's numbers (as corrected from your counter) as a class for the next game."""
    seat, row = _table(code)
    unit = row["state"]["units"].get(request.form.get("unit") or "")
    if not unit or "talon" not in unit:
        return _failed(RuleError(_("Choose a ship at this table."), "unit"), "tl-fleet")
    name = " ".join((request.form.get("class_name") or unit["talon"]["class_name"]).split())[:40]
    data = spec_fields(unit["talon"], unit["side"])
    data["class_name"] = name
    try:
        library.save(SLUG, "class", name, data, code)
    except RuleError as exc:
        return _failed(exc, "tl-fleet")
    return board_page(code, seat, flash=_("%(name)s saved for the next game.", name=name))


@bp.post("/classes/add")
def add_from_class(code: str):
    """Put a ship of a saved class on the table (the talon-ship action with its numbers)."""
    seat, row = _table(code)
    item = request.form.get("item") or ""
    try:
        saved = store.library_item(get_db(), int(item) if item.isdigit() else 0)
        if saved["system"] != SLUG or saved["kind"] != "class":
            raise store.NotFound("class")
    except store.NotFound:
        return _failed(RuleError(_("That saved class is gone."), "cls"), "tl-fleet")
    try:
        store.act(get_db(), code, {"type": "talon-ship", "cls": "custom", **saved["data"],
                                   "name": request.form.get("name") or ""}, ctx_for(row, seat))
    except RuleError as exc:
        return _failed(exc, "tl-fleet")
    return board_page(code, seat)
