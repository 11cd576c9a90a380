"""Empires of Dust views: the fleet designer, saved fleets, and the attack helper's live preview.

Everything that changes a table still goes through ``store.act`` (the ``eod-*`` action types);
these views only render, check designs as they are typed, and keep fleets in the library
(kind "fleet") so they can be reused and exported.
"""
from __future__ import annotations

import json
import re

from flask import Blueprint, Response, abort, make_response, render_template, request

from companion import store
from companion.games.empires_of_dust import actions as game
from companion.games.empires_of_dust import attack
from companion.games.empires_of_dust import phases
from companion.db import get_db, systems
from companion.play import board_context
from companion.rules import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.web import ctx_for, error_fragment, page_or_partial, require_player, seat_for, status_of

bp = Blueprint("eod", __name__)
SLUG = eod.SLUG
KIND = "fleet"
EXPORT_FORMAT = "empires-of-dust-fleet"
SHIP_CLASSES = ("frigate", "destroyer", "cruiser", "battleship")
BASE_CLASSES = ("outpost", "station", "star-port")
AVERAGE = "average-fleet"


def _table(code: str) -> tuple[dict, dict]:
    seat = seat_for(code)
    row = store.table(get_db(), code)
    if row["system"] != SLUG:
        abort(404)
    return row, seat


# --- board helpers (Jinja globals) ----------------------------------------------------------------

@bp.app_template_global("eod_panel")
def eod_panel(state: dict) -> dict:
    """What the game panel shows: initiative, who goes next, pending losses, points, win conditions."""
    g = game.game(state)
    ini = g.get("initiative")
    steps = []
    if ini and ini.get("steps") and ini["tick"] == state["tick"]:
        steps = [{"text": game.step_text(s, state), "done": i < ini["next"], "now": i == ini["next"]}
                 for i, s in enumerate(ini["steps"])]
    pending = [{"name": u["name"], "side": u["side"], "by": g["last_damage"].get(u["id"]),
                "points": eod.victory_points().get(game.cls_of(u))} for u in game.pending_destroyed(state)]
    fired = sum(len(v) for v in g["fired"].values())
    alive = [u for u in state["unit_order"] if not state["units"][u]["removed"]]
    return {"phase": game.phase_name(state), "ini": ini, "steps": steps,
            "next": next((s["text"] for s in steps if s["now"]), None), "pending": pending,
            "standings": phases.standings(state), "destroyed": g["destroyed"],
            "last_attack": g.get("last_attack"), "notes": g.get("phase_notes") or [],
            "fleets": [s for s in state["sides"] if game.sides_alive(state).get(s)],
            "roster": f"{state['tick']}-{fired}-{'.'.join(alive)}"}


@bp.app_template_global("eod_unit")
def eod_unit(state: dict, unit: dict) -> dict | None:
    """A designed unit's card: stats, weapons, burns, launchers, docking, devices, what it may do."""
    design = unit.get("design")
    if not design:
        return None
    g = game.game(state)
    stats = game.stats_of(unit)
    phase = game.phase_name(state)
    equipment = design.get("equipment", [])
    launchers = [{"index": i, "name": w["name"], "drone": game.active_drone(state, unit["id"], i)}
                 for i, w in enumerate(design.get("weapons", [])) if "drone" in w]
    for launcher in launchers:
        if launcher["drone"]:
            launcher["drone_name"] = state["units"][launcher["drone"]]["name"]
    docked = game.docked_at(state, unit["id"])
    bases = [u for u in state["unit_order"] if not state["units"][u]["removed"]
             and game.is_base(state["units"][u]) and u != unit["id"]]
    return {
        "cls": design["class"], "stats": stats, "weapons": design.get("weapons", []),
        "equipment": [eod.equipment()[e.replace("-push", "").replace("-pull", "")]["name"]
                      + (" (push)" if e.endswith("-push") else " (pull)" if e.endswith("-pull") else "")
                      for e in equipment if e.replace("-push", "").replace("-pull", "") in eod.equipment()],
        "auras": [eod.auras()[a]["name"] for a in design.get("auras", []) if a in eod.auras()],
        "specs": [eod.specialisations()[s]["name"] for s in design.get("specialisations", [])
                  if s in eod.specialisations()],
        "hp": game.hp_of(unit), "dying": game.hp_of(unit) == 0,
        "burns": g["burns"].get(unit["id"], []), "launchers": launchers,
        "docked": state["units"][docked]["name"] if docked else None,
        "docked_here": [state["units"][s]["name"] for s, b in g["docked"].items() if b == unit["id"]],
        "bases": [(b, state["units"][b]["name"]) for b in bases],
        "cloak": "cloaking-device" in equipment, "ecm": "ecm" in equipment,
        "cloaked": "Cloaked" in game.conditions(unit), "ecm_on": "ECM active" in game.conditions(unit),
        "ftl": "ftl-jump-drive" in equipment,
        "tractor": any(e.startswith("tractor-beam") for e in equipment),
        "ship": design["class"] in SHIP_CLASSES, "base": design["class"] in BASE_CLASSES,
        "phase": phase, "fired": g["fired"].get(unit["id"], []),
        "role": g["roles"].get(unit["id"]), "warnings": unit.get("warnings", []),
        "targets": [(u, state["units"][u]["name"]) for u in state["unit_order"]
                    if not state["units"][u]["removed"] and u != unit["id"]],
    }


@bp.app_template_global("eod_designer_start")
def eod_designer_start() -> dict:
    """The designer as a page first shows it: empty, ready to start from the average fleet."""
    return designer_context({"name": "", "size": "", "ships": []})


@bp.app_template_global("eod_attack_start")
def eod_attack_start(row: dict, seat: dict) -> dict:
    return attack_context(row, {}, seat.get("side"))


@bp.app_template_global("eod_saved_fleets")
def eod_saved_fleets() -> list[dict]:
    return store.library_items(get_db(), SLUG, KIND)


# --- the attack helper ----------------------------------------------------------------------------

def _units(state: dict) -> list[dict]:
    return [state["units"][u] for u in state["unit_order"]
            if not state["units"][u]["removed"] and "design" in state["units"][u]]


def attack_context(row: dict, args: dict, side: str | None = None) -> dict:
    state = row["state"]
    units = _units(state)
    attacker = state["units"].get(args.get("attacker")) if args.get("attacker") else None
    if attacker is None or attacker["removed"] or "design" not in attacker:
        own = [u for u in units if u["side"] == side]
        attacker = (own or units or [None])[0]
    weapons = [(i, w) for i, w in enumerate(attacker["design"]["weapons"]) if "drone" not in w] if attacker else []
    fitted = attacker["design"].get("equipment", []) if attacker else []
    args = dict(args)
    if attacker:
        args["attacker"] = attacker["id"]
        if weapons and str(args.get("weapon")) not in [str(i) for i, _ in weapons]:
            args["weapon"] = weapons[0][0]
        others = [u for u in units if u["id"] != attacker["id"]]
        if args.get("target") not in [u["id"] for u in others]:
            enemies = [u for u in others if u["side"] != attacker["side"]]
            args["target"] = (enemies or others or [{"id": None}])[0]["id"]
    return {"row": row, "state": state, "units": units, "attacker": attacker, "weapons": weapons,
            "fitted": fitted, "args": args, "roster": eod_panel(state)["roster"],
            "preview": preview(state, args)}


def _rolls_needed(plan: dict, hit: dict, odds: dict) -> list[str]:
    augs = set(plan["weapon"].get("augmenters", []))
    opts = hit["options"]
    out = []
    if opts["target_ecm"] and not opts["ally"]:
        out.append(f"ECM lock > {eod._check_d20('ecm')}")
    for aug, word in (("rending", "rending"), ("immolation", "immolation")):
        if aug in augs and not opts["ally"]:
            out.append(f"{word} > {eod._check_d20(aug)}")
    out.append(f"penetration > {odds['needed']}")
    if "scatter-shot" in augs and not opts["ally"]:
        out.append(f"second scatter-shot penetration > {odds['needed']}")
    for aug, word in (("critical-hit", "critical hit"), ("vampirism", "vampirism"), ("emp", "EMP")):
        if aug in augs and not opts["ally"]:
            out.append(f"{word} (if it penetrates) > {eod._check_d20(aug)}")
    return out


def preview(state: dict, args: dict) -> dict:
    """Detection, effective armour, the D20 needed and the odds of every hit, before rolling."""
    try:
        plan = attack.plan_attack(state, args)
        hits = []
        for hit in plan["hits"]:
            odds = attack.hit_odds(state, plan, hit)
            hits.append({"name": state["units"][hit["target"]]["name"], "position": hit["position"],
                         "shot": hit["shot"], "odds": odds, "ally": hit["ally"],
                         "rolls": _rolls_needed(plan, hit, odds), "target": hit["target"]})
        notes = []
        if "overloader" in plan["uses"] or args.get("overloader"):
            notes.append(f"Overloader: +{eod.OVERLOADER_DAMAGE} damage")
        if args.get("assassins_touch"):
            notes.append(f"Assassin's touch: +{eod.ASSASSINS_TOUCH_PENETRATION} penetration")
        if args.get("fine_tuned"):
            notes.append(f"Fine-tuned detector: +{eod.FINE_TUNED_DETECTION} detection")
        augs = plan["weapon"].get("augmenters", [])
        notes += [f"{eod.augmenters()[a]['name']}" for a in augs if a in eod.augmenters()]
        return {"ok": True, "aim": plan["aim"], "hits": hits, "notes": notes,
                "base": state["settings"].get("detection_base", eod.DEFAULT_DETECTION_BASE),
                "expected": sum(h["odds"]["expected"] for h in hits)}
    except RuleError as exc:
        return {"ok": False, "message": exc.message, "field": exc.field}


def _args() -> dict:
    from companion.play import form_args
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
    row, _ = _table(code)
    return render_template("games/empires-of-dust/_preview.html", preview=preview(row["state"], _args()),
                           state=row["state"])


# --- the fleet designer ---------------------------------------------------------------------------

def _int_or_text(value: str):
    value = (value or "").strip()
    return int(value) if re.fullmatch(r"\d{1,3}", value) else value


def average_ships() -> dict:
    """class -> the appendix's average ship of that class (seed 001, Appendix: Average Fleet)."""
    return {s["class"]: s for s in systems()[SLUG].fleets[AVERAGE]["ships"]}


def new_ship(cls: str, number: int) -> dict:
    """A ready design of a class: the appendix's average ship, or an empty base.

    The battleship's printed stats add up to 55 against its stat total of 40 (a seed deviation);
    a battleship within its ranges that totals 40 has armour 25, speed 15, stealth 0 and detection
    0 (seed 001, Ship Stats and Design), so a new battleship starts there with the appendix's guns."""
    name = f"{cls.replace('-', ' ').title()} {number}"
    if cls in BASE_CLASSES:
        return {"name": name, "class": cls, "armour": {t: 0 for t in eod.ARMOUR_TYPES}, "weapons": []}
    base = json.loads(json.dumps(average_ships()[cls]))
    ship = {k: base[k] for k in ("class", "speed", "stealth", "detection", "armour", "weapons")}
    if cls == "battleship":
        low = eod.ship_classes()["battleship"]
        ship.update(speed=low["speed"][0], stealth=low["stealth"][0], detection=low["detection"][0],
                    armour={"reflective": 9, "reinforced": 8, "reactive": 8})
        ship["weapons"] = [w for w in ship["weapons"] if "drone" not in w]
    return {**ship, "name": name, "equipment": [], "auras": [], "specialisations": []}


def draft_from_form(form) -> dict:
    """The designer's fields (s0.name, s0.w1.range ...) as a fleet draft, values as typed."""
    indices = sorted({int(m.group(1)) for k in form for m in [re.match(r"s(\d+)\.name$", k)] if m})
    ships = []
    for i in indices[:game.MAX_SHIPS]:
        p = f"s{i}."
        ship = {"name": form.get(p + "name", ""), "class": form.get(p + "class", "frigate"),
                "armour": {t: _int_or_text(form.get(f"{p}armour.{t}", "0")) for t in eod.ARMOUR_TYPES}}
        if ship["class"] in SHIP_CLASSES:
            for stat in ("speed", "stealth", "detection"):
                ship[stat] = _int_or_text(form.get(p + stat, "0"))
            ship["specialisations"] = [s for s in (form.get(p + "spec1"), form.get(p + "spec2")) if s]
            ship["equipment"] = form.getlist(p + "equipment")
            ship["auras"] = form.getlist(p + "auras")
            extra = {t: _int_or_text(form.get(f"{p}extra.{t}", "0")) for t in eod.ARMOUR_TYPES}
            if any(extra.values()):
                ship["extra_armour"] = extra
        if form.get(p + "unique"):
            ship["unique"] = True
        weapons = sorted({int(m.group(1)) for k in form for m in [re.match(rf"s{i}\.w(\d+)\.name$", k)] if m})
        ship["weapons"] = []
        for j in weapons[:game.MAX_WEAPONS]:
            q = f"{p}w{j}."
            weapon = {"name": form.get(q + "name", ""), "type": form.get(q + "type", "beam"),
                      **{s: _int_or_text(form.get(q + s, "0")) for s in ("range", "penetration", "damage")},
                      "augmenters": [a for a in (form.get(q + "aug1"), form.get(q + "aug2")) if a]}
            if form.get(q + "launcher"):
                kind = form.get(q + "drone_armour") or "reflective"
                weapon["drone"] = {"armour": {kind: eod.ship_classes()["drone"]["armour"][0]}}
                weapon["augmenters"] = []
            ship["weapons"].append(weapon)
        ships.append(ship)
    return {"name": form.get("fleet_name", "") or "", "size": form.get("size", ""), "ships": ships}


def check_draft(draft: dict) -> dict:
    """Each violation in one sentence; seed deviations and unique ships as warnings."""
    try:
        ships = game.clean_fleet(draft["ships"])
        refusals, warnings = game.check_fleet(ships, systems()[SLUG])
    except RuleError as exc:
        return {"refusals": [exc.message], "warnings": [], "composition": None}
    composition = None
    if draft.get("size") in eod.fleet_sizes():
        composition = eod.fleet_composition(ships, draft["size"])
    return {"refusals": refusals, "warnings": warnings, "composition": composition}


def _apply_op(draft: dict, op: str) -> str | None:
    """Designer buttons: add or remove ships and weapons, start from a preset or saved fleet."""
    ships = draft["ships"]
    word, _, rest = op.partition(":")
    if word == "add-ship" and (rest in SHIP_CLASSES or rest in BASE_CLASSES):
        if len(ships) >= game.MAX_SHIPS:
            return f"A fleet has at most {game.MAX_SHIPS} ships."
        ships.append(new_ship(rest, 1 + sum(1 for s in ships if s.get("class") == rest)))
    elif word == "remove-ship" and rest.isdigit() and int(rest) < len(ships):
        ships.pop(int(rest))
    elif word == "add-weapon" and rest.isdigit() and int(rest) < len(ships):
        weapons = ships[int(rest)]["weapons"]
        if len(weapons) >= game.MAX_WEAPONS:
            return f"A ship carries at most {game.MAX_WEAPONS} weapons here."
        weapons.append({"name": f"Weapon {len(weapons) + 1}", "type": "beam", "range": 30, "penetration": 10,
                        "damage": 10, "augmenters": []})
    elif word == "remove-weapon":
        i, _, j = rest.partition(":")
        if i.isdigit() and j.isdigit() and int(i) < len(ships) and int(j) < len(ships[int(i)]["weapons"]):
            ships[int(i)]["weapons"].pop(int(j))
    elif word == "load" and rest == AVERAGE:
        fleet = systems()[SLUG].fleets[AVERAGE]
        draft["name"] = fleet["name"]
        draft["ships"] = [game.clean_design(s, i) for i, s in enumerate(fleet["ships"])]
    elif word == "load" and rest.startswith("library-") and rest[8:].isdigit():
        try:
            item = store.library_item(get_db(), int(rest[8:]))
        except store.NotFound:
            return "That saved fleet is gone."
        if item["system"] != SLUG or item["kind"] != KIND:
            return "That saved item is not an Empires of Dust fleet."
        draft["name"], draft["ships"] = item["name"], item["data"]["ships"]
    elif word == "new":
        draft["name"], draft["ships"] = "", []
    elif word == "fill" and draft.get("size") in eod.fleet_sizes():
        wanted = eod.fleet_preset(draft["size"])
        if sum(wanted.values()) > game.MAX_SHIPS:
            return f"A fleet has at most {game.MAX_SHIPS} ships."
        for cls, count in wanted.items():
            have = sum(1 for s in ships if s.get("class") == cls)
            for n in range(have, count):
                ships.append(new_ship(cls, n + 1))
        if len(ships) > game.MAX_SHIPS:
            del ships[game.MAX_SHIPS:]
            return f"A fleet has at most {game.MAX_SHIPS} ships; the rest were left out."
    return None


def designer_context(draft: dict, message: str | None = None, error: str | None = None,
                     open_ship: int | None = None) -> dict:
    return {"draft": draft, "check": check_draft(draft) if draft["ships"] else None,
            "message": message, "error": error, "open": open_ship, "classes": SHIP_CLASSES, "bases": BASE_CLASSES,
            "equipment": eod.equipment(), "auras": eod.auras(), "augmenters": eod.augmenters(),
            "specs": eod.specialisations(), "weapon_types": eod.weapon_types(),
            "sizes": eod.fleet_sizes(), "saved": eod_saved_fleets(), "armour_types": eod.ARMOUR_TYPES}


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
        raise RuleError("Name the fleet (1 to 40 characters).", "fleet_name")
    ships = game.clean_fleet(draft["ships"])
    refusals, _ = game.check_fleet(ships, systems()[SLUG])
    if refusals:
        raise RuleError(refusals[0], "fleet")
    return name, ships


@bp.post("/t/<code>/eod/designer/save")
def designer_save(code: str):
    """Save the designed fleet to the library (replacing one of the same name)."""
    row, seat = _table(code)
    require_player(seat)
    draft = draft_from_form(request.form)
    try:
        name, ships = _clean_for_saving(draft)
    except RuleError as exc:
        return _designer(code, row, seat, draft, error=exc.message)
    store.library_save(get_db(), SLUG, KIND, name, {"ships": ships, "size": draft.get("size") or None})
    resp = _designer(code, row, seat, draft, message=f"Saved {name!r}: {len(ships)} ships.")
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
    resp = _designer(code, row, seat, draft, message=f"{name} is on the table.")
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


# --- saved fleets: list, put on the table, export, import, delete ----------------------------------

def _fleets(code: str, row: dict, seat: dict, errors=None):
    return render_template("games/empires-of-dust/_fleets.html", code=code, state=row["state"],
                           saved=eod_saved_fleets(), ro=seat["role"] == "spectator", seat=seat,
                           errors=errors or {}, system=systems()[SLUG])


def _saved(item_id: int) -> dict:
    try:
        item = store.library_item(get_db(), item_id)
    except store.NotFound:
        raise RuleError("That saved fleet is gone.", "fleets") from None
    if item["system"] != SLUG or item["kind"] != KIND:
        raise RuleError("That saved item is not an Empires of Dust fleet.", "fleets")
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
    return page_or_partial("board.html", "_board.html", **board_context(code, seat))


@bp.get("/t/<code>/eod/fleets/<int:item>.json")
def fleet_export(code: str, item: int):
    """A saved fleet as a JSON file, to keep or to import on another host."""
    _table(code)
    try:
        saved = _saved(item)
    except RuleError:
        abort(404)
    doc = {"format": EXPORT_FORMAT, "version": 1, "system": SLUG, "name": saved["name"], **saved["data"]}
    resp = Response(json.dumps(doc, indent=1), mimetype="application/json")
    slug = re.sub(r"[^a-z0-9]+", "-", saved["name"].lower()).strip("-") or "fleet"
    resp.headers["Content-Disposition"] = f'attachment; filename="{slug}.json"'
    return resp


@bp.post("/t/<code>/eod/fleets/import")
def fleet_import(code: str):
    """Import an exported fleet file into the library (checked like a designed fleet)."""
    row, seat = _table(code)
    require_player(seat)
    try:
        upload = request.files.get("file")
        raw = upload.read() if upload else (request.form.get("json") or "").encode()
        try:
            doc = json.loads(raw or b"null")
        except ValueError:
            raise RuleError("That file is not JSON.", "eod-import") from None
        if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
            raise RuleError(f"This is not an exported fleet (format must be {EXPORT_FORMAT!r}).", "eod-import")
        name, ships = _clean_for_saving({"name": doc.get("name"), "ships": doc.get("ships")})
        store.library_save(get_db(), SLUG, KIND, name, {"ships": ships, "size": doc.get("size")
                                                        if doc.get("size") in eod.fleet_sizes() else None})
    except RuleError as exc:
        return make_response(_fleets(code, row, seat, {"eod-import": exc.message}), 400)
    return _fleets(code, row, seat)


@bp.post("/t/<code>/eod/fleets/<int:item>/delete")
def fleet_delete(code: str, item: int):
    """Delete a saved fleet from the library."""
    row, seat = _table(code)
    require_player(seat)
    try:
        _saved(item)
    except RuleError as exc:
        return make_response(_fleets(code, row, seat, {"eod-fleets": exc.message}), 400)
    store.library_delete(get_db(), item)
    return _fleets(code, row, seat)
