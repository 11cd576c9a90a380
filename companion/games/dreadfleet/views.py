"""Dreadfleet pages beside the board: the fleet editor (Warship cards kept in the library), the
players' own Fate/Damage deck lists, odds before rolling and the ship pickers of the tool forms.

Blueprint ``dreadfleet`` (register with ``app.register_blueprint(dreadfleet_views.bp)``).  Table
changes still go through ``store.act``; the library holds what outlives a table (kind "warship",
kind "deck").  The numbers come from the players' own cards: nothing here invents one.
"""
from __future__ import annotations

import json
import re

from flask import Blueprint, Response, abort, render_template, request

from companion import store
from companion.games.dreadfleet.actions import dice_arg, inches, now_stat, wounds
from companion.games.dreadfleet.battle import shot_options
from companion.db import get_db, systems
from companion.play import board_context, form_args
from companion.rules import RuleError
from companion.games.dreadfleet import rules as df
from companion.web import ctx_for, error_fragment, page_or_partial, require_player, seat_for

bp = Blueprint("dreadfleet", __name__, url_prefix="/t/<code>/dreadfleet")
SLUG = "dreadfleet"
EXPORT_FORMAT = "dreadfleet-warship-cards"
MAX_DECK_LINES = 200


@bp.record_once
def _flag(setup) -> None:
    setup.app.config["DREADFLEET_VIEWS"] = True


@bp.app_context_processor
def _library() -> dict:
    return {"dreadfleet_library": lambda kind: store.library_items(get_db(), SLUG, kind)}


def _table(code: str, write: bool = False) -> tuple[dict, dict]:
    seat = seat_for(code)
    if write:
        require_player(seat)
    row = store.table(get_db(), code)
    if row["system"] != SLUG:
        abort(404)
    return seat, row


def _failed(exc: RuleError, control: str):
    return error_fragment(exc, request.form.get("_control") or control, 400)


# --- Warship cards (library kind "warship") ----------------------------------------------------

def _number(raw, key: str, label: str):
    """A typed number; "4+" is read as 4 (Armour and Command are D6 targets)."""
    if raw in (None, ""):
        return None
    text = str(raw).strip().rstrip("+")
    if not re.fullmatch(r"\d{1,3}", text):
        raise RuleError(f"{label} must be a whole number; got {raw!r}.", key)
    return int(text)


def warship_card(form) -> dict:
    """A Warship card (and its auxiliaries' card) typed by a player, checked by the rules module."""
    name = df.canonical_name(form.get("name") or "")
    if name not in df.WARSHIPS:
        raise RuleError(f"Choose one of the ten warships ({', '.join(df.WARSHIPS)}).", "name")
    stats = {k: _number(form.get(f"stats.{k}"), k, k.capitalize()) for k in df.WARSHIP_STATS}
    sail = form.get("sail") not in (None, "", "0", 0, False)
    card = df.validate_warship({**stats, "sail": sail})
    side, auxiliaries = df.WARSHIPS[name]
    data = {"name": name, "side": side, **card}
    aux = {k: _number(form.get(f"aux.{k}"), f"aux.{k}", f"{(auxiliaries or ('Auxiliary',))[0]} {k}")
           for k in df.AUXILIARY_STATS}
    if any(v is not None for v in aux.values()):
        if not auxiliaries:
            raise RuleError(f"The {name} carries no auxiliary: leave its auxiliary card empty.", "aux")
        try:
            data["aux"] = df.validate_warship(aux, auxiliary=True)
        except RuleError as exc:
            raise RuleError(f"{auxiliaries[0]} card: {exc.message}", exc.field) from None
        data["aux"]["name"] = auxiliaries[0]
        data["aux"]["count"] = len(auxiliaries)
    return data


def _cards_fragment(code: str, row: dict, editing: dict | None = None, status: int = 200):
    return render_template("games/dreadfleet/_cards.html", code=code, state=row["state"], row=row,
                           cards=store.library_items(get_db(), SLUG, "warship"), editing=editing), status


@bp.post("/warships")
def save_warship(code: str):
    """Save (or replace) a Warship card in the library, for this game and the next."""
    _table(code, write=True)
    try:
        data = warship_card(request.form)
    except RuleError as exc:
        return _failed(exc, "df-editor")
    store.library_save(get_db(), SLUG, "warship", data["name"], data)
    return warship_cards(code)


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
        store.library_delete(get_db(), item)
    return warship_cards(code)


@bp.get("/warships.json")
def export_warships(code: str):
    """Every saved Warship card as a JSON file, to keep or to take to another companion."""
    _table(code)
    cards = [item["data"] for item in store.library_items(get_db(), SLUG, "warship")]
    resp = Response(json.dumps({"format": EXPORT_FORMAT, "version": 1, "cards": cards}, indent=1),
                    mimetype="application/json")
    resp.headers["Content-Disposition"] = 'attachment; filename="dreadfleet-warship-cards.json"'
    return resp


def _flat(card: dict) -> dict:
    """An exported card as the editor's form fields."""
    if not isinstance(card, dict):
        raise RuleError("Each card in the file must be a set of characteristics.", "file")
    out = {"name": card.get("name"), "sail": "1" if card.get("sail") else ""}
    out.update({f"stats.{k}": card.get(k) for k in df.WARSHIP_STATS})
    aux = card.get("aux") or {}
    out.update({f"aux.{k}": aux.get(k) for k in df.AUXILIARY_STATS})
    return out


@bp.post("/warships/import")
def import_warships(code: str):
    """Import Warship cards exported before (a file or pasted text); every card is checked first."""
    _table(code, write=True)
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else request.form.get("text", "")
    try:
        try:
            doc = json.loads(text)
        except ValueError:
            raise RuleError("That is not an export of Warship cards (JSON).", "file") from None
        cards = doc.get("cards") if isinstance(doc, dict) else doc
        if not isinstance(cards, list) or not cards or len(cards) > 50:
            raise RuleError("The file needs 1 to 50 Warship cards.", "file")
        checked = []
        for i, card in enumerate(cards, start=1):
            try:
                checked.append(warship_card(_flat(card)))
            except RuleError as exc:
                raise RuleError(f"Card {i} ({(card or {}).get('name', '?')}): {exc.message}", exc.field) from None
    except RuleError as exc:
        return _failed(exc, "df-import")
    for data in checked:
        store.library_save(get_db(), SLUG, "warship", data["name"], data)
    return warship_cards(code)


# --- the players' own decks (library kind "deck") -----------------------------------------------

WORDS = {"single": 1, "double": 2, "triple": 3}
TURNS = {"cw": "clockwise", "clockwise": "clockwise", "acw": "anticlockwise", "ccw": "anticlockwise",
         "anticlockwise": "anticlockwise", "anti-clockwise": "anticlockwise",
         "counterclockwise": "anticlockwise"}


def parse_card(line: str, deck: str) -> dict:
    """One card per line: "name; field; field ..." (see the deck form's help)."""
    parts = [p.strip() for p in re.split(r"[;|]", line) if p.strip()]
    card: dict = {"name": parts[0]}
    numbers = []
    for part in parts[1:]:
        low = part.casefold()
        count = re.fullmatch(r"(?:x\s*(\d+)|(\d+)\s*x)", low)
        move = re.fullmatch(r"(\d+)\s*(?:markers?\s*)?([a-z-]+)", low)
        if count:
            card["count"] = int(count.group(1) or count.group(2))
        elif deck == "damage" and low in {t.casefold() for t in df.DAMAGE_TYPES}:
            card["type"] = part.capitalize()
        elif deck == "damage" and low in WORDS:
            card["value"] = WORDS[low]
        elif low == "irreparable":
            card["irreparable"] = True
        elif deck == "fate" and low == "2d6":
            card["markers"] = "2D6"
        elif deck == "fate" and move and move.group(2) in TURNS:
            card["markers"], card["direction"] = int(move.group(1)), TURNS[move.group(2)]
        elif deck == "fate" and low in {k.casefold() for k in df.FATE_KINDS}:
            card["kind"] = next(k for k in df.FATE_KINDS if k.casefold() == low)
        elif deck == "fate" and low == "br":
            card["br"] = True
        elif re.fullmatch(r"\d{1,2}", low):
            numbers.append(int(low))
        else:
            raise RuleError(f"{part!r} is not a field of a {deck.capitalize()} card.", "cards")
    if deck == "damage" and numbers:
        card["value"] = numbers[0]
    if deck == "fate" and numbers:
        card["wind"] = numbers[0]
        if len(numbers) > 1:
            card.setdefault("markers", numbers[1])
    return df.validate_card(card, deck)


def parse_deck(text: str, deck: str) -> list[dict]:
    lines = [line.strip() for line in str(text or "").splitlines() if line.strip() and not line.startswith("#")]
    if not lines:
        raise RuleError("Enter the cards, one per line.", "cards")
    if len(lines) > MAX_DECK_LINES:
        raise RuleError(f"At most {MAX_DECK_LINES} lines (use x3 for three copies).", "cards")
    cards = []
    for number, line in enumerate(lines, start=1):
        try:
            cards.append(parse_card(line, deck))
        except RuleError as exc:
            raise RuleError(f"Line {number} ({line[:30]}): {exc.message}", exc.field) from None
    return cards


def card_line(card: dict, deck: str) -> str:
    """A card as a line of the deck form (the inverse of parse_card)."""
    parts = [card["name"]]
    if deck == "damage":
        parts += [card["type"], str(card.get("value", 1))] + (["irreparable"] if card.get("irreparable") else [])
    else:
        move = "2D6" if card.get("markers") == "2D6" else f"{card.get('markers', 0)} {card.get('direction', 'clockwise')}"
        parts += [str(card["wind"]), move, card["kind"]] + (["BR"] if card.get("br") else [])
    if card.get("count", 1) > 1:
        parts.append(f"x{card['count']}")
    return "; ".join(parts)


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
            raise RuleError("Choose the Fate or the Damage deck.", "deck")
        if not name or len(name) > 40:
            raise RuleError("Name the deck (1 to 40 characters).", "name")
        cards = parse_deck(request.form.get("cards", ""), deck)
    except RuleError as exc:
        return _failed(exc, "df-deckdef")
    store.library_save(get_db(), SLUG, "deck", name, {"deck": deck, "cards": cards})
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
        return _failed(RuleError("That deck list is gone.", "deck"), "df-decks")
    except RuleError as exc:
        return _failed(exc, "df-decks")
    return page_or_partial("board.html", "_board.html", **board_context(code, seat))


@bp.post("/decks/<int:item>/delete")
def delete_deck(code: str, item: int):
    _, row = _table(code, write=True)
    try:
        saved = store.library_item(get_db(), item)
        if saved["system"] == SLUG and saved["kind"] == "deck":
            store.library_delete(get_db(), item)
    except store.NotFound:
        pass
    return _decks_fragment(code, row)


# --- odds before rolling, and the tool forms' ship pickers ----------------------------------------

def shot_preview(state: dict, args: dict) -> dict:
    """What a broadside would be, before rolling: odds of 0, 1, 2 ... Damage cards; hits of typed dice."""
    units = state["units"]
    firer, target = units.get(args.get("firer") or ""), units.get(args.get("target") or "")
    if not firer or not target:
        return {"message": "Choose the firing ship and its target."}
    if args.get("distance") in (None, ""):
        return {"message": "Enter the range in inches (closest points of the bases)."}
    options = shot_options(state, args, firer, target)
    odds = df.broadside_odds(firer["stats"].get("broadside", 0), inches(args, "distance", "The range"),
                             target["stats"]["armour"], **options)
    out = {"odds": odds, "firer": firer, "target": target, "first": options["first_broadside"]}
    typed = dice_arg(args, "dice")
    if typed:
        shot = df.broadside(firer["stats"].get("broadside", 0), inches(args, "distance", "The range"),
                            target["stats"]["armour"], **options, dice=typed, save_dice=dice_arg(args, "save_dice"))
        out["typed"] = shot
    return out


def boarding_preview(state: dict, args: dict) -> dict:
    picked = args.get("ships") if isinstance(args.get("ships"), dict) else {}
    ships = [state["units"][uid] for uid in picked if uid in state["units"]]
    first, second = state["sides"][:2]
    groups = [[u for u in ships if u["side"] == side] for side in (first, second)]
    if not all(groups):
        return {"message": "Tick the ships in base contact, at least one of each side."}

    def captains(group):
        return sum(u["stats"].get("swashbuckling", 0) for u in group
                   if u["template"] == "warship" and wounds(u) < df.MORTAL_WOUNDS)
    return {"sides": (first, second),
            "duel": df.contest_odds(captains(groups[0]), captains(groups[1])),
            "boarding": df.contest_odds(*(sum(now_stat(u, "crew") for u in g) for g in groups)),
            "crews": [sum(now_stat(u, "crew") for u in g) for g in groups],
            "swash": [captains(g) for g in groups]}


@bp.get("/odds/<which>")
def odds(code: str, which: str):
    """Odds before rolling, from the table and the tool form's values (an htmx fragment)."""
    _, row = _table(code)
    args = form_args(request.args)
    try:
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
    return render_template("games/dreadfleet/_pick.html", which=which, code=code, state=row["state"],
                           sel=form_args(request.args))

