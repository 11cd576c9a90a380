"""Dreadfleet pages beside the board: the fleet editor (Warship cards kept in the library), the
players' own Fate/Damage deck lists, odds before rolling and the ship pickers of the tool forms.

Blueprint ``dreadfleet`` (``bp``, found by name).  Table changes still go through ``store.act``; the
library holds what outlives a table (kind "warship", kind "deck").  The cards are read and checked in
``fleet_cards`` and ``deck_lists``, the odds in ``previews`` (pure modules beside this one).  The
numbers come from the players' own cards: nothing here invents one.
"""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from companion.game_pages import (
    RuleError,
    board_page,
    ctx_for,
    form_args,
    game_table,
    get_db,
    json_file,
    library,
    listed,
    refusal,
    share,
    store,
    systems,
    uploaded_json,
)
from companion.games.dreadfleet.rules import AUXILIARY_STATS, WARSHIP_STATS
from companion.games.dreadfleet.state import wind_shown
from companion.games.dreadfleet.views.deck_lists import (  # noqa: F401 (names kept where they were before the split)
    MAX_DECK_LINES,
    TURNS,
    WORDS,
    card_line,
    parse_card,
    parse_deck,
)
from companion.games.dreadfleet.views.fleet_cards import EXPORT_FORMAT, _flat, _number, next_card, warship_card, with_quick  # noqa: F401
from companion.games.dreadfleet.views.previews import boarding_preview, shot_preview
from companion.said import N_, _

bp = Blueprint("dreadfleet", __name__, url_prefix="/t/<code>/dreadfleet")
SLUG = "dreadfleet"


@bp.record_once
def _flag(setup) -> None:
    setup.app.config["DREADFLEET_VIEWS"] = True


# The templates' helpers, as Jinja globals (looked up only where a template uses them)
bp.add_app_template_global(lambda kind: store.library_items(get_db(), SLUG, kind), "dreadfleet_library")
bp.add_app_template_global(wind_shown, "df_wind_shown")  # the big screen's wind gauge (_display.html)


@bp.app_template_global("dreadfleet_start")
def start_card(code: str) -> dict:
    """The fleet editor as a page first shows it: from the card this table saved last (next_card)."""
    saved = {item["name"] for item in store.library_items(get_db(), SLUG, "warship")}
    return next_card(library.last_saved(SLUG, "warship", code), saved)


def _table(code: str, write: bool = False) -> tuple[dict, dict]:
    return game_table(code, SLUG, write)


_failed = refusal



# --- Warship cards (library kind "warship") ----------------------------------------------------

def _cards_fragment(code: str, row: dict, editing: dict | None = None, status: int = 200):
    return render_template("games/dreadfleet/_cards.html", code=code, state=row["state"], row=row,
                           cards=store.library_items(get_db(), SLUG, "warship"), editing=editing), status


@bp.post("/warships")
def save_warship(code: str):
    """Save (or replace) a Warship card in the library, for this game and the next."""
    _table(code, write=True)
    try:
        data = warship_card(request.form)
        library.save(SLUG, "warship", data["name"], data, code)
    except RuleError as exc:
        return _failed(exc, "df-editor")
    return warship_cards(code)


@bp.post("/warships/fill")
def fill_warship(code: str):
    """The fleet editor with its quick-entry line put into its fields (fleet_cards.quick_entry, the parser
    Save uses too): the player sees the numbers in their fields before saving (issue 40 §10)."""
    _table(code)
    try:
        form = with_quick(request.form)
    except RuleError as exc:
        return _failed(exc, "df-editor")
    card = {"name": form.get("name") or "", "sail": form.get("sail") == "1",
            **{k: form.get(f"stats.{k}") or "" for k in WARSHIP_STATS},
            "aux": {k: form.get(f"aux.{k}") or "" for k in AUXILIARY_STATS}}
    return render_template("games/dreadfleet/_editor.html", code=code, card=card, system=systems()[SLUG])


@bp.get("/warships")
def warship_cards(code: str):
    """The saved Warship cards, each ready to put to sea."""
    _, row = _table(code)
    return _cards_fragment(code, row)


@bp.get("/warships/<int:item>/edit")
def edit_warship(code: str, item: int):
    """The fleet editor filled with a saved card."""
    _table(code)
    try:
        saved = store.library_item(get_db(), item)
    except store.NotFound:
        abort(404)
    return render_template("games/dreadfleet/_editor.html", code=code, card=saved["data"], system=systems()[SLUG])


@bp.post("/warships/<int:item>/delete")
def delete_warship(code: str, item: int):
    _table(code, write=True)
    try:
        saved = store.library_item(get_db(), item)
    except store.NotFound:
        return warship_cards(code)
    if saved["system"] == SLUG and saved["kind"] == "warship":
        try:
            library.delete(item, code)
        except RuleError as exc:
            return _failed(exc, f"df-card-{item}")
    return warship_cards(code)


@bp.get("/warships.json")
def export_warships(code: str):
    """Every saved Warship card as a JSON file, to keep or to take to another companion."""
    _table(code)
    return json_file(_export_doc(), "dreadfleet-warship-cards.json")


def _export_doc() -> dict:
    """Every saved Warship card as the export file (and its share link) holds them."""
    cards = [item["data"] for item in store.library_items(get_db(), SLUG, "warship")]
    return {"format": EXPORT_FORMAT, "version": 1, "cards": cards}


@bp.get("/warships/share")
def share_warships(code: str):
    """The saved Warship cards' share link as a QR, for another phone to scan (issue 28 §6)."""
    _table(code)
    return share.qr_panel(_export_doc())


@bp.post("/warships/import")
def import_warships(code: str):
    """Import Warship cards exported before (a file or pasted text); every card is checked first."""
    _table(code, write=True)
    try:
        import_cards(code, uploaded_json(WARSHIP_CARDS))
    except RuleError as exc:
        return _failed(exc, "df-import")
    return warship_cards(code)


WARSHIP_CARDS = N_("Warship cards")


@share.importer(EXPORT_FORMAT, SLUG, N_("Dreadfleet Warship cards"))
def import_cards(code: str, doc) -> str:
    """Save exported Warship cards (a file, pasted text or a share link) at table ``code``; every card
    is checked before any is saved."""
    cards = listed(doc, WARSHIP_CARDS, "cards", 50)
    checked = []
    for i, card in enumerate(cards, start=1):
        try:
            checked.append(warship_card(_flat(card)))
        except RuleError as exc:
            raise RuleError(_("Card %(n)s (%(name)s): %(error)s", n=i, name=str(card.get("name", "?"))[:40], error=exc.message),
                            exc.field) from None
    library.save_all(SLUG, "warship", [(data["name"], data) for data in checked], code)
    names = ", ".join(c["name"] for c in checked)
    if len(checked) == 1:
        return _("Saved 1 Warship card: %(names)s.", names=names)
    return _("Saved %(n)s Warship cards: %(names)s.", n=len(checked), names=names)


# --- the players' own decks (library kind "deck") -----------------------------------------------

def _decks_fragment(code: str, row: dict, editing: dict | None = None):
    return render_template("games/dreadfleet/_decks.html", code=code, row=row, editing=editing,
                           card_line=card_line, saved=store.library_items(get_db(), SLUG, "deck"))


@bp.post("/decks")
def save_deck(code: str):
    """Check a deck list card by card (validate_card) and keep it in the library."""
    _, row = _table(code, write=True)
    deck = request.form.get("deck")
    name = " ".join(str(request.form.get("name", "")).split())
    try:
        if deck not in ("fate", "damage"):
            raise RuleError(_("Choose the Fate or the Damage deck."), "deck")
        if not name or len(name) > 40:
            raise RuleError(_("Name the deck (1 to 40 characters)."), "name")
        cards = parse_deck(request.form.get("cards", ""), deck)
        library.save(SLUG, "deck", name, {"deck": deck, "cards": cards}, code)
    except RuleError as exc:
        return _failed(exc, "df-deckdef")
    return _decks_fragment(code, row)


@bp.get("/decks")
def saved_decks(code: str):
    _, row = _table(code)
    return _decks_fragment(code, row)


@bp.get("/decks/<int:item>/edit")
def edit_deck(code: str, item: int):
    _, row = _table(code)
    try:
        saved = store.library_item(get_db(), item)
    except store.NotFound:
        abort(404)
    return _decks_fragment(code, row, editing=saved)


@bp.post("/decks/<int:item>/load")
def load_deck(code: str, item: int):
    """Load a saved deck list into the table's deck and shuffle it (the core deck-load action)."""
    seat, row = _table(code, write=True)
    try:
        saved = store.library_item(get_db(), item)
        if saved["system"] != SLUG or saved["kind"] != "deck":
            raise store.NotFound(str(item))
        store.act(get_db(), code, {"type": "deck-load", "deck": saved["data"]["deck"],
                                   "cards": saved["data"]["cards"]}, ctx_for(row, seat))
    except store.NotFound:
        return _failed(RuleError(_("That deck list is gone."), "deck"), "df-decks")
    except RuleError as exc:
        return _failed(exc, "df-decks")
    return board_page(code, seat)


@bp.post("/decks/<int:item>/delete")
def delete_deck(code: str, item: int):
    _, row = _table(code, write=True)
    try:
        saved = store.library_item(get_db(), item)
        if saved["system"] == SLUG and saved["kind"] == "deck":
            library.delete(item, code)
    except store.NotFound:
        pass
    except RuleError as exc:
        return _failed(exc, "df-decks")
    return _decks_fragment(code, row)



# --- odds before rolling, and the tool forms' ship pickers ----------------------------------------

@bp.get("/odds/<which>")
def odds(code: str, which: str):
    """Odds before rolling, from the table and the tool form's values (an htmx fragment)."""
    _, row = _table(code)
    try:
        args = form_args(request.args)  # (a field sent twice is a sentence here too, not a crash)
        if which == "shot":
            preview = shot_preview(row["state"], args)
        elif which == "board":
            preview = boarding_preview(row["state"], args)
        else:
            abort(404)
    except RuleError as exc:
        preview = {"message": exc.message}
    return render_template("games/dreadfleet/_odds.html", which=which, p=preview)


@bp.get("/pick/<which>")
def pick(code: str, which: str):
    """A tool form's ship picker, redrawn when the board changes (the choice is kept)."""
    _, row = _table(code)
    if which not in ("shot", "board"):
        abort(404)
    try:
        sel = form_args(request.args)
    except RuleError:  # (a field sent twice: the picker is drawn with nothing chosen, not a 500)
        sel = {}
    return render_template("games/dreadfleet/_pick.html", which=which, code=code, state=row["state"], sel=sel)

