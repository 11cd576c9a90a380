"""Astral Action actions: ships enter play from their cards; velocity, damage by hand, settings."""
from __future__ import annotations

from companion.actions import action, entered_int, needed
from companion.actions.sealed import next_id, store_part
from companion.errors import RuleError, Stale
from companion.games.astral_action.rules import design
from companion.games.astral_action.rules.damage import new_track, take_damage
from companion.games.astral_action.rules.equipment import FIGHTER_MOVE, INTERCEPTOR_MOVE
from companion.games.astral_action.state import SYSTEMS, destroy_if_done, game, in_effect, setting, ship_of, turn
from companion.hidden import KEY
from companion.said import Said, _, joined
from companion.schema import Flag, Int, Obj, Ref, Text
from companion.trackers import need_text


@action("aa-ship", systems=SYSTEMS, fields={"card": Obj(doc="the ship card (design.validate checks it)"), "side": Ref("side"),
    "carrier": Ref("carrier"), "name": Text(60),
    "hidden": Flag("Stealth (optional rule, L359): the card is sealed, the other side sees the name and Size only")})
def aa_ship(state: dict, p: dict) -> str:
    """Put a ship (or fighter) on the table from its Ship Information Card (checked, points counted)."""
    sealed = p.get(KEY)  # Stealth: the card is in the sealed part, never in the payload's open fields
    card = design.validate(sealed["secret"]["card"] if isinstance(sealed, dict) and isinstance(sealed.get("secret"), dict)
                           else p["card"])
    if setting(state, "surcharge_per_item"):  # the table reads L400-L401 as "for each item over the Size"
        card["points"] = design.points(card, per_item=True)
    uid = p["unit"]
    if uid in state["units"] or uid != f"u{state['next_unit']}":
        raise Stale(_("The table changed while the ship was being added; try again."), "unit")
    if p["side"] not in state["sides"]:
        raise RuleError(_("side must be one of %(sides)s.", sides=", ".join(state["sides"])), "side")
    fighter = card["size"] == 0
    carrier = p.get("carrier") or None
    if fighter and "ftl" not in [e["item"] for e in card["equipment"]]:
        # L217 "Every Fighter must be assigned to a Ship before the game begins"; FTL Drives: no carrier (L236)
        if not carrier:
            raise RuleError(_("Assign the fighter to its carrier ship (L217)."), "carrier")
        c_unit, c_ship = ship_of(state, carrier, "carrier", allow_hidden=True)
        if c_unit["side"] != p["side"] or c_ship["card"]["size"] == 0:
            raise RuleError(_("A fighter's carrier is a ship of its own side (L217)."), "carrier")
    state["next_unit"] += 1
    name = p.get("name") or card["name"]
    state["units"][uid] = {"id": uid, "name": name, "side": p["side"], "template": "fighter" if fighter else "ship",
                          "stats": {"size": card["size"], "points": card["points"]["total"]}, "trackers": {},
                          "activated": False, "removed": False}
    state["unit_order"].append(uid)
    track_len = design.damage_track(card, bool(setting(state, "whole_track")))
    ship = {"card": card, **new_track(card, track_len), "velocity": None, "carrier": carrier,
            "shots": 0, "destroyed": False, "fled": False}
    if not fighter:
        ship["velocity"] = card["movement"][0][0]
    game(state)["ships"][uid] = ship
    what = Said("Fighter") if fighter else Said("Size %(size)s", size=card["size"])
    if sealed:
        # L360 "the Size may also be displayed": activation goes by Size (L132), so the Size is public;
        # the rest of the card (and the ship's books, ``covers``) only its side reads until revealed
        if p.get("size") != card["size"] or sealed.get("side") != p["side"]:
            raise RuleError(_("The hidden card does not match its public Size and side."), "card")
        part = store_part(state, p, "card")
        part["covers"] = ["game", "ships", uid]
        ship["stealth"] = part["id"]
        game(state).setdefault("contacts", {})[uid] = card["size"]
        state["units"][uid]["stats"] = {"size": card["size"]}
        return Said("%(name)s (%(what)s) joins %(side)s, its card hidden (Stealth)", name=name, what=what, side=p["side"])
    return Said("%(name)s (%(what)s, %(points)s points) joins %(side)s", name=name, what=what, points=card["points"]["total"],
                side=p["side"])


@aa_ship.decider
def decide_aa_ship(state: dict, args: dict, ctx) -> dict:
    card = design.validate(args.get("card") or {})
    side = args.get("side") or ctx.side or state["sides"][0]
    uid = f"u{state['next_unit']}"
    if not args.get("hidden"):
        name = " ".join(str(args.get("name") or card["name"]).split())[:40]
        return {"unit": uid, "card": card, "side": side, "name": name, "carrier": args.get("carrier") or None}
    # Stealth (L359-L360): an unmarked token with an ID; the card's own name would give it away.  The
    # made-up name is a name once chosen (a unit's name is plain text everywhere): said in the adding
    # phone's language, like a name it typed; only the public unit number goes in it, nothing of the card
    if ctx.side not in (None, side):
        raise RuleError(_("Only %(side)s puts its own hidden ships on the table.", side=side), "side")
    # (a name, kept in the state and replayed by undo and take-back: in English whoever adds it, never in
    # the adding phone's words, or a replay by another phone would name the ship differently)
    name = " ".join(str(args.get("name") or f"Contact {state['next_unit']}").split())[:40]
    return {"unit": uid, "side": side, "name": name, "carrier": args.get("carrier") or None, "size": card["size"],
            "id": next_id(state), "seat": ctx.seat,
            KEY: {"side": side, "secret": {"card": card, "text": f"{card['name']}: Size {card['size']}, "
                                                               f"{card['points']['total']} points"}}}


@action("aa-velocity", systems=SYSTEMS, fields={"unit": Ref("unit"), "by": Int(-1, 1)})
def aa_velocity(state: dict, p: dict) -> str:
    """Change a ship's Velocity by one (movement step 1, L69; or a Change Velocity Order/Command)."""
    unit, ship = ship_of(state, p.get("unit"))
    if unit["template"] == "fighter":
        raise RuleError(_("Fighters move up to %(move)s (or %(interceptor)s) in any direction; they have no Velocity (L219).",
                          move=FIGHTER_MOVE, interceptor=INTERCEPTOR_MOVE), "by")
    by = needed(p, "by")
    if "b" in ship["propulsion"]:
        raise RuleError(_("%(unit)s may not change its Velocity (Propulsion Damage, L110).", unit=unit["name"]), "by")
    table = {v: (m, h) for v, m, h in ship["card"]["movement"]}
    new = ship["velocity"] + by
    if new not in table:
        raise RuleError(_("Velocity %(velocity)s is not on %(unit)s's Movement Table (%(table)s).", velocity=new,
                          unit=unit["name"], table=", ".join(str(v) for v in table)), "by")
    ship["velocity"] = new
    m, h = table[new]
    return Said("%(unit)s Velocity %(velocity)s: Maneuver %(maneuver)s, Heading %(heading)s (%(degrees)s degrees)",
                unit=unit["name"], velocity=new, maneuver=m, heading=h, degrees=h * 30)


@action("aa-damage", systems=SYSTEMS, fields={
    "unit": Ref("unit"), "amount": Int(1, 99), "per_size": Int(1, 9), "why": Text(40)})
def aa_damage(state: dict, p: dict) -> str:
    """Damage not from an attack: terrain (X per Size), a PWS exchange, an AWS: through the track."""
    unit, ship = ship_of(state, p.get("unit"))
    why = need_text(p, "why", 40) if p.get("why") else Said("damage")  # typed: as typed
    if p.get("per_size") is not None:
        # Dangerous (X) L296 / Hazardous (X) L297: "X damage per Size of the Ship"
        x = p["per_size"]
        amount = x * max(ship["card"]["size"], 1)
        why = Said("%(why)s (%(x)s per Size)", why=why, x=x)
    else:
        amount = needed(p, "amount")
    result = take_damage(ship, amount, order=setting(state, "damage_order"),
                         brace=in_effect(state, unit["id"], "Brace for Impact"))
    gone = destroy_if_done(state, unit["id"], ship)
    parts = [Said("%(unit)s takes %(amount)s %(why)s: %(steps)s", unit=unit["name"], amount=amount, why=why,
                  steps=joined(", ", result["steps"]) or Said("no effect"))]
    if result["rows_filled"] and not gone:
        parts.append(Said("%(n)s health row(s) filled: roll a Condition", n=result["rows_filled"]))
    return joined("; ", parts + ([gone] if gone else []))


@action("aa-setting", systems=SYSTEMS, fields={
    "setting": Text(60, "a table setting's id (content/astral-action/system.toml [[settings]])"),
    "value": Int(0, 9, "within the setting's own min and max")})
def aa_setting(state: dict, p: dict) -> str:
    """Change a table setting: where the seed can be read two ways (Ship Size, damage order ...), or an
    optional rule both players agree to (the Beam-specialist faction)."""
    state["settings"][p["setting"]] = p["value"]
    return Said("Setting %(setting)s = %(value)s", setting=p["setting"], value=p["value"])


@aa_setting.decider
def decide_aa_setting(state: dict, args: dict, ctx) -> dict:
    """The setting and its bounds are the content pack's (one place: the table's creation reads them too)."""
    settings = ctx.system.settings
    key = args.get("setting")
    if key not in settings:
        raise RuleError(_("setting must be one of %(settings)s.", settings=", ".join(settings)), "setting")
    spec = settings[key]
    value = entered_int(args, "value", lo=spec.get("min", 0), hi=spec.get("max", 1))
    return {"setting": key, "value": value}


@action("aa-resupply", systems=SYSTEMS, fields={"unit": Ref("unit")})
def aa_resupply(state: dict, p: dict) -> str:
    """A fighter that spent the entire turn on its carrier resupplies its weapon (L229-L230)."""
    unit, ship = ship_of(state, p.get("unit"))
    if unit["template"] != "fighter":
        raise RuleError(_("Only fighters resupply."), "unit")
    if not ship["shots"]:
        raise RuleError(_("%(unit)s has not fired since it last resupplied.", unit=unit["name"]), "unit")
    ship["shots"] = 0
    turn(state)
    return Said("%(unit)s resupplied on its carrier", unit=unit["name"])
