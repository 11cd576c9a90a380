"""Astral Action pages beside the board: the ship designer (Ship Information Cards kept in the
library, kind "sic", reusable and exportable), the live design check with points, and the attack
odds before rolling.  Table changes still go through ``store.act`` (the ``aa-*`` action types).
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from flask import Blueprint, abort, render_template, request

from companion.game_pages import (
    RuleError,
    board_page,
    ctx_for,
    game_table,
    get_db,
    json_file,
    library,
    listed,
    read_as,
    refusal,
    share,
    store,
    uploaded_json,
)
from companion.games.astral_action.actions.combat import PLANNED, plan_attack, shot_of
from companion.games.astral_action.rules import attack as atk
from companion.games.astral_action.rules import design
from companion.games.astral_action.rules import turn as tn
from companion.games.astral_action.rules.equipment import ARCS, COMPONENTS, VARIANTS, WEAPONS
from companion.games.astral_action.rules.terrain import EXAMPLES
from companion.games.astral_action.state import formation_of, movement_of, ships_for_activation
from companion.games.astral_action.views.ship_row import ship_row
from companion.i18n import in_words
from companion.said import N_, _, told

bp = Blueprint("astral_action", __name__, url_prefix="/t/<code>/astral-action")
SLUG = "astral-action"
KIND = "sic"
EXPORT_FORMAT = "astral-action-ship-cards"
MAX_ROWS = 10  # equipment rows offered by the designer form
MOVEMENT_ROWS = 6  # the designer's Movement Table grid: one row per Velocity on the card (L61)


@bp.record_once
def _flag(setup) -> None:
    setup.app.config["ASTRAL_ACTION_VIEWS"] = True


class said_names(Mapping):  # noqa: N801 (read as a dict by the templates)
    """A table of names the app gave (the firing arcs: the seed names none, equipment.ARCS), its names said
    in the reader's words each time a template reads them; its keys as they are."""

    def __init__(self, names: dict):
        self._names = names

    def __getitem__(self, key):
        return _(self._names[key])

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)


# The templates' helpers, as Jinja globals: looked up only where a template uses them (a context
# processor ran for every template of every game).  The page helpers below register themselves.
bp.add_app_template_global(lambda: store.library_items(get_db(), SLUG, KIND), "astral_cards")
for _name, _helper in {
        "aa_rows": MAX_ROWS, "aa_orders": tn.ORDERS, "aa_terrain": EXAMPLES, "aa_formation": formation_of,
        "aa_formation_move": movement_of, "aa_movement_rows": MOVEMENT_ROWS, "aa_commands": tn.COMMANDS,
        "aa_ship_row": ship_row,
        "aa_limits": {"chart": design.CHART_LIMITS, "weapon_size": design.FIGHTER_WEAPON_SIZES},
        "aa_equipment": {"weapons": WEAPONS, "components": COMPONENTS, "variants": VARIANTS, "arcs": said_names(ARCS)}}.items():
    bp.add_app_template_global(_helper, _name)


@bp.app_template_global("aa_readings")
def readings(label: str) -> tuple[str, list[str]]:
    """A setting's label, "What: 0 = one reading, 1 = the other" (any number of values, content/astral-action/
    system.toml), as (what, the readings in the order of their values): the players read words, never the
    numbers."""
    what, _sep, rest = label.partition(": 0 = ")
    return what, [re.sub(r"^\d+ = ", "", part).strip() for part in re.split(r"[;,] (?=\d+ = )", rest)]


@bp.app_template_global("aa_start")
def start_card(code: str) -> dict:
    """The designer as a page first shows it (issue 28 §6): the card this table saved last, without its
    name (a card is saved by name: the next ship is a new card, not that one replaced)."""
    last = library.last_saved(SLUG, KIND, code)
    return {**last, "name": "", "started_from": last["name"]} if last else {}


@bp.app_template_global("aa_activation")
def activation_view(state: dict) -> dict | None:
    """Whose activation it is, read without touching the state (the board's copy)."""
    g = state.get("game") or {}
    if state.get("system") != SLUG or not (g.get("ships") or g.get("contacts")):  # a hidden ship: its Size only
        return None
    now = g.get("turn") if (g.get("turn") or {}).get("round") == state["round"] else {}
    return tn.activation(ships_for_activation(state), state["sides"], (now or {}).get("passed", {}),
                         (now or {}).get("last"))


def _table(code: str, write: bool = False) -> tuple[dict, dict]:
    return game_table(code, SLUG, write)


_failed = refusal


def movement_from_grid(form) -> str:
    """The designer's Movement Table grid (a row per Velocity: Velocity, Maneuver, Heading; issue 28 §5) as
    the entries design.parse_movement reads ("2:3/2 3:2/1"); a row left blank is skipped, a row half
    filled is refused by name."""
    entries = []
    for n in range(MOVEMENT_ROWS):
        v, m, h = (str(form.get(f"mv.{n}.{k}") or "").strip() for k in ("velocity", "maneuver", "heading"))
        if not (v or m or h):
            continue
        if not (v and m and h):
            raise RuleError(_("Movement Table row %(n)s: enter its Velocity, Maneuver and Heading (all three).", n=n + 1),
                            "movement")
        entries.append(f"{v}:{m}/{h}")
    return " ".join(entries)


def card_from_form(form) -> dict:
    """The designer's fields as a card to validate (design.validate says what is wrong)."""
    equipment = []
    for n in range(MAX_ROWS):
        item = form.get(f"eq.{n}.item")
        if not item:
            continue
        equipment.append({"item": item, "slot": form.get(f"eq.{n}.slot") or "primary",
                          "variant": form.get(f"eq.{n}.variant") or None, "linked": form.get(f"eq.{n}.linked") or 1,
                          "arcs": form.getlist(f"eq.{n}.arcs")})
    return {"name": form.get("name"), "size": form.get("size"), "rows": form.get("rows") or None,
            "chart": {"miss": form.get("chart.miss"), "glance": form.get("chart.glance")},
            "movement": form.get("movement") or movement_from_grid(form), "weapon_size": form.get("weapon_size"),
            "arc_points": {a: form.get(f"arc.{a}") for a in "FAPS"}, "equipment": equipment}


def _cards(code: str, status: int = 200):
    seat, row = _table(code)
    return render_template("games/astral-action/_cards.html", code=code, row=row, state=row["state"], seat=seat,
                           cards=store.library_items(get_db(), SLUG, KIND)), status


@bp.get("/cards")
def cards(code: str):
    """The saved Ship Information Cards, each ready to put on the table."""
    return _cards(code)


@bp.post("/check")
def check(code: str):
    """Live design check: the first rule the card breaks, or its points line by line."""
    _table(code)
    try:
        card = design.validate(card_from_form(request.form))
        # the points lines in the reader's words (the card keeps them in English)
        lines = [in_words(line, told(line)) for line in design.points(card, said=True)["lines"]]
        return render_template("games/astral-action/_check.html", card={**card, "points": {**card["points"], "lines": lines}},
                               problem=None)
    except RuleError as exc:
        return render_template("games/astral-action/_check.html", card=None, problem=exc.message)


@bp.post("/cards")
def save_card(code: str):
    """Save (or replace, by name) a Ship Information Card in the library."""
    _table(code, write=True)
    try:
        card = design.validate(card_from_form(request.form))
    except RuleError as exc:
        return _failed(exc, "aa-designer")
    try:
        library.save(SLUG, KIND, card["name"], card, code)
    except RuleError as exc:
        return _failed(exc, "aa-designer")
    return _cards(code)


@bp.get("/cards/<int:item>/edit")
def edit_card(code: str, item: int):
    """The designer filled with a saved card."""
    _table(code)
    try:
        saved = store.library_item(get_db(), item)
    except store.NotFound:
        abort(404)
    return render_template("games/astral-action/_designer.html", code=code, card=saved["data"])


@bp.post("/cards/<int:item>/delete")
def delete_card(code: str, item: int):
    _table(code, write=True)
    try:
        saved = store.library_item(get_db(), item)
        if saved["system"] == SLUG and saved["kind"] == KIND:
            library.delete(item, code)
    except store.NotFound:
        pass
    except RuleError as exc:
        return _failed(exc, f"aa-card-{item}")
    return _cards(code)


@bp.post("/cards/<int:item>/launch")
def launch(code: str, item: int):
    """Put a saved card on the table for the seat's side (aa-ship); a fighter names its carrier."""
    seat, row = _table(code, write=True)
    control = f"aa-card-{item}"
    try:
        saved = store.library_item(get_db(), item)
        if saved["system"] != SLUG or saved["kind"] != KIND:
            raise store.NotFound(str(item))
        args = {"type": "aa-ship", "card": saved["data"], "side": request.form.get("side") or seat.get("side"),
                "name": request.form.get("name") or None, "carrier": request.form.get("carrier") or None,
                "hidden": request.form.get("hidden") == "1"}  # Stealth (L359)
        store.act(get_db(), code, args, ctx_for(row, seat))
    except store.NotFound:
        return _failed(RuleError(_("That card is gone."), "card"), control)
    except RuleError as exc:
        return _failed(exc, control)
    return board_page(code, seat)


@bp.get("/cards.json")
def export_cards(code: str):
    """Every saved card as a JSON file, to keep or to take to another companion."""
    _table(code)
    return json_file(_export_doc(), "astral-action-ship-cards.json")


def _export_doc() -> dict:
    """Every saved card as the export file (and its share link) holds them."""
    data = [item["data"] for item in store.library_items(get_db(), SLUG, KIND)]
    return {"format": EXPORT_FORMAT, "version": 1, "cards": data}


@bp.get("/cards/share")
def share_cards(code: str):
    """The saved cards' share link as a QR, for another phone to scan (issue 28 §6)."""
    _table(code)
    return share.qr_panel(_export_doc())


@bp.post("/cards/import")
def import_cards(code: str):
    """Import cards exported before; every card is checked before any is saved."""
    _table(code, write=True)
    try:
        import_cards_doc(code, uploaded_json(SHIP_CARDS))
    except RuleError as exc:
        return _failed(exc, "aa-import")
    return _cards(code)


SHIP_CARDS = N_("Ship Information Cards")


@share.importer(EXPORT_FORMAT, SLUG, N_("Astral Action Ship Information Cards"))
def import_cards_doc(code: str, doc) -> str:
    """Save exported cards (a file, pasted text or a share link) at table ``code``; every card is
    checked before any is saved."""
    found = listed(doc, SHIP_CARDS, "cards", 50)
    checked = []
    for i, card in enumerate(found, start=1):
        try:
            checked.append(design.validate(card))
        except RuleError as exc:
            raise RuleError(_("Card %(n)s: %(error)s", n=i, error=exc.message), exc.field) from None
    library.save_all(SLUG, KIND, [(card["name"], card) for card in checked], code)
    names = ", ".join(c["name"] for c in checked)
    if len(checked) == 1:
        return _("Saved 1 card: %(names)s.", names=names)
    return _("Saved %(n)s cards: %(names)s.", n=len(checked), names=names)


@bp.get("/pick")
def pick(code: str):
    """The attack form's weapon and target lists, fresh after the board changed (choices kept)."""
    _seat, row = _table(code)
    return render_template("games/astral-action/_pick.html", row=row, state=row["state"])


@bp.get("/odds")
def odds(code: str):
    """The exact chances of miss / glance / hit and the expected damage, before rolling."""
    _seat, row = _table(code)
    args = request.args
    try:
        asked = {**args.to_dict(), "type": "aa-attack"}
        attacker, weapon = shot_of(asked)
        if not attacker or not args.get("target"):
            raise RuleError(_("Choose a weapon and a target."), "shot")
        plan, *_rest = plan_attack(row["state"], {**read_as("aa-attack", PLANNED, asked), "attacker": attacker, "weapon": weapon})
        return render_template("games/astral-action/_odds.html", plan=plan, odds=atk.odds(plan), problem=None)
    except (RuleError, ValueError) as exc:
        return render_template("games/astral-action/_odds.html", plan=None, odds=None,
                               problem=exc.message if isinstance(exc, RuleError) else _("Enter whole numbers."))
