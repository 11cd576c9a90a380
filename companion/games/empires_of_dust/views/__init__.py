"""Empires of Dust views: the fleet designer, saved fleets, and the attack helper's live preview.

The blueprint (``bp``, found by name): routes and Jinja globals only.  What they render is built
by ``panel``, ``attack_helper`` and ``designer_form`` beside it.

Everything that changes a table still goes through ``store.act`` (the ``eod-*`` action types);
these views only render, check designs as they are typed, and keep fleets in the library
(kind "fleet") so they can be reused and exported.
"""
from __future__ import annotations

import json
import re

from flask import Blueprint, abort, make_response, render_template, request

from companion.game_pages import (
    RuleError,
    board_page,
    ctx_for,
    error_fragment,
    form_args,
    game_table,
    get_db,
    json_file,
    library,
    require_player,
    share,
    status_of,
    store,
    systems,
    uploaded_json,
)
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.actions.fleets import check_fleet, clean_fleet
from companion.games.empires_of_dust.views.attack_helper import attack_context, preview
from companion.games.empires_of_dust.views.designer_form import (
    GONE,
    KIND,
    NOT_A_FLEET,
    _apply_op,
    check_draft,
    designer_context,
    draft_from_form,
    eod_saved_fleets,
)
from companion.games.empires_of_dust.views.panel import eod_panel, eod_row, eod_unit
from companion.said import N_, _

bp = Blueprint("eod", __name__)
SLUG = eod.SLUG
EXPORT_FORMAT = "empires-of-dust-fleet"
# The board's helpers (Jinja globals) live in their own modules; the blueprint registers them.
for _helper in (eod_panel, eod_row, eod_unit, eod_saved_fleets):
    bp.add_app_template_global(_helper, _helper.__name__)


def _table(code: str) -> tuple[dict, dict]:
    seat, row = game_table(code, SLUG)
    return row, seat


@bp.app_template_global("eod_designer_start")
def eod_designer_start() -> dict:
    """The designer as a page first shows it: empty, ready to start from the average fleet."""
    return designer_context({"name": "", "size": "", "ships": []})


@bp.app_template_global("eod_attack_start")
def eod_attack_start(row: dict, seat: dict) -> dict:
    return attack_context(row, {}, seat.get("side"))


def _args() -> dict:
    return form_args(request.args)


@bp.get("/t/<code>/eod/attack")
def attack_form(code: str):
    """The attack helper (re-rendered when the attacker or the ships on the table change)."""
    row, seat = _table(code)
    return render_template("games/empires-of-dust/_attack.html", code=code, ro=seat["role"] == "spectator",
                           a=attack_context(row, _args(), seat.get("side")))


@bp.get("/t/<code>/eod/attack/preview")
def attack_preview(code: str):
    """Odds and the D20 needed for the attack as entered so far."""
    row, _seat = _table(code)
    return render_template("games/empires-of-dust/_preview.html", preview=preview(row["state"], _args()),
                           state=row["state"])


def _designer(code: str, row: dict, seat: dict, draft: dict, status: int = 200, **kw):
    html = render_template("games/empires-of-dust/_designer.html", code=code, state=row["state"],
                           ro=seat["role"] == "spectator", seat=seat, d=designer_context(draft, **kw))
    return make_response(html, status)


@bp.post("/t/<code>/eod/designer")
def designer(code: str):
    """Re-render the designer after a button (add a ship, a weapon, load the average fleet ...)."""
    row, seat = _table(code)
    draft = draft_from_form(request.form)
    op = request.form.get("op", "")
    error = _apply_op(draft, op)
    index = op.split(":")[1] if op.count(":") and op.split(":")[0] in ("open", "add-weapon", "remove-weapon") else ""
    return _designer(code, row, seat, draft, error=error, open_ship=int(index) if index.isdigit() else None)


@bp.post("/t/<code>/eod/designer/check")
def designer_check(code: str):
    """Check the draft as it is typed: every broken rule in one sentence."""
    _table(code)
    draft = draft_from_form(request.form)
    return render_template("games/empires-of-dust/_violations.html", check=check_draft(draft), draft=draft)


def _clean_for_saving(draft: dict) -> tuple[str, list[dict]]:
    name = " ".join((draft.get("name") or "").split())
    if not name or len(name) > 40:
        raise RuleError(_("Name the fleet (1 to 40 characters)."), "fleet_name")
    ships = clean_fleet(draft["ships"])
    refusals = check_fleet(ships, systems()[SLUG])[0]
    if refusals:
        raise RuleError(eod.spoken(refusals[0]), "fleet")
    return name, ships


@bp.post("/t/<code>/eod/designer/save")
def designer_save(code: str):
    """Save the designed fleet to the library (replacing one of the same name)."""
    row, seat = _table(code)
    require_player(seat)
    draft = draft_from_form(request.form)
    try:
        name, ships = _clean_for_saving(draft)
        library.save(SLUG, KIND, name, {"ships": ships, "size": draft.get("size") or None}, code)
    except RuleError as exc:
        return _designer(code, row, seat, draft, error=exc.message)
    resp = _designer(code, row, seat, draft, message=_("Saved %(name)r: %(n)s ships.", name=name, n=len(ships)))
    resp.headers["HX-Trigger"] = "eod-fleets"
    return resp


@bp.post("/t/<code>/eod/designer/deploy")
def designer_deploy(code: str):
    """Put the designed fleet on the table for a side (without saving it)."""
    row, seat = _table(code)
    require_player(seat)
    draft = draft_from_form(request.form)
    try:
        name, ships = _clean_for_saving(draft)
        _deploy(code, row, seat, name, ships, request.form.get("side"))
    except RuleError as exc:
        return _designer(code, row, seat, draft, error=exc.message)
    resp = _designer(code, row, seat, draft, message=_("%(name)s is on the table.", name=name))
    resp.headers["HX-Trigger"] = "eod-board"
    return resp


def _deploy(code: str, row: dict, seat: dict, name: str, ships: list[dict], side) -> None:
    """One eod-deploy event per part of the fleet that fits an action's size limit."""
    ctx = ctx_for(row, seat)
    part: list[dict] = []
    for ship in ships:
        if part and len(json.dumps(part + [ship])) > 15_000:
            store.act(get_db(), code, {"type": "eod-deploy", "name": name, "side": side, "ships": part}, ctx)
            part = []
        part.append(ship)
    store.act(get_db(), code, {"type": "eod-deploy", "name": name, "side": side, "ships": part}, ctx)


def _fleets(code: str, row: dict, seat: dict, errors=None, typed: str = ""):
    return render_template("games/empires-of-dust/_fleets.html", code=code, state=row["state"],
                           saved=eod_saved_fleets(), ro=seat["role"] == "spectator", seat=seat,
                           errors=errors or {}, system=systems()[SLUG], typed=typed)


def _saved(item_id: int) -> dict:
    try:
        item = store.library_item(get_db(), item_id)
    except store.NotFound:
        raise RuleError(_(GONE), "fleets") from None
    if item["system"] != SLUG or item["kind"] != KIND:
        raise RuleError(_(NOT_A_FLEET), "fleets")
    return item


@bp.get("/t/<code>/eod/fleets")
def fleets(code: str):
    """The saved fleets (refreshed after a save)."""
    row, seat = _table(code)
    return _fleets(code, row, seat)


@bp.post("/t/<code>/eod/fleets/<int:item>/deploy")
def fleet_deploy(code: str, item: int):
    """Put a saved fleet on the table for a side."""
    row, seat = _table(code)
    require_player(seat)
    control = f"eod-fleet-{item}"
    try:
        saved = _saved(item)
        _deploy(code, row, seat, saved["name"], saved["data"]["ships"], request.form.get("side"))
    except RuleError as exc:
        return error_fragment(exc, control, status_of(exc))
    return board_page(code, seat)


@bp.get("/t/<code>/eod/fleets/<int:item>.json")
def fleet_export(code: str, item: int):
    """A saved fleet as a JSON file, to keep or to import on another host."""
    _table(code)
    try:
        saved = _saved(item)
    except RuleError:
        abort(404)
    doc = _export_doc(saved)
    slug = re.sub(r"[^a-z0-9]+", "-", saved["name"].lower()).strip("-") or "fleet"
    return json_file(doc, f"{slug}.json")


def _export_doc(saved: dict) -> dict:
    """A saved fleet as its export file (and its share link) hold it."""
    return {"format": EXPORT_FORMAT, "version": 1, "system": SLUG, "name": saved["name"], **saved["data"]}


@bp.get("/t/<code>/eod/fleets/<int:item>/share")
def fleet_share(code: str, item: int):
    """A saved fleet's share link as a QR, for another phone to scan (issue 28 §6)."""
    _table(code)
    try:
        saved = _saved(item)
    except RuleError:
        abort(404)
    return share.qr_panel(_export_doc(saved))


@bp.post("/t/<code>/eod/fleets/import")
def fleet_import(code: str):
    """Import an exported fleet file into the library (checked like a designed fleet)."""
    row, seat = _table(code)
    require_player(seat)
    try:
        import_fleet(code, uploaded_json(N_("a fleet"), "eod-import", text_field="json"))
    except RuleError as exc:
        # the refusal keeps a pasted link (a file cannot be put back in its field)
        return make_response(_fleets(code, row, seat, {"eod-import": exc.message},
                                     typed=str(request.form.get("json") or "")[:5000]), 400)
    return _fleets(code, row, seat)


@share.importer(EXPORT_FORMAT, SLUG, N_("an Empires of Dust fleet"))
def import_fleet(code: str, doc) -> str:
    """Save an exported fleet (a file, pasted text or a share link) at table ``code``, checked like a
    designed fleet; an identical fleet already saved is left as it is."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise RuleError(_("This is not an exported fleet (format must be %(format)r).", format=EXPORT_FORMAT), "eod-import")
    name, ships = _clean_for_saving({"name": doc.get("name"), "ships": doc.get("ships")})
    library.save(SLUG, KIND, name, {"ships": ships, "size": doc.get("size")
                                    if doc.get("size") in eod.fleet_sizes() else None}, code, keep_same=True)
    if len(ships) == 1:
        return _("Saved %(name)r: %(n)s ship.", name=name, n=len(ships))
    return _("Saved %(name)r: %(n)s ships.", name=name, n=len(ships))


@bp.post("/t/<code>/eod/fleets/<int:item>/delete")
def fleet_delete(code: str, item: int):
    """Delete a saved fleet from the library."""
    row, seat = _table(code)
    require_player(seat)
    try:
        _saved(item)
        library.delete(item, code)
    except RuleError as exc:
        return make_response(_fleets(code, row, seat, {"eod-fleets": exc.message}), 400)
    return _fleets(code, row, seat)
