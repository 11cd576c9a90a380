"""Dreadnaught ship actions: Damage, healing, Card Burn and the card counts of each step of the turn."""
from __future__ import annotations

from companion.actions import action, needed, phase_now
from companion.errors import RuleError
from companion.games.dreadnaught import rules as dn
from companion.games.dreadnaught.rules.numbers import bare, sentence
from companion.games.dreadnaught.state import (
    SYSTEMS,
    battle_on,
    called,
    clean,
    count,
    eliminate,
    elimination_of,
    fleet_trigger,
    per_ship,
    said,
    set_count,
    ship,
    signed,
    turn,
)
from companion.said import N_, Said, _, joined, kept
from companion.schema import Either, Flag, Int, List, Ref, Scalar, Text


def _and(*parts: str) -> str:
    """The sentences, each closed with one full stop (their messages kept)."""
    return sentence(joined(". ", [bare(p) for p in parts if p]))


def _deck_emptied(state: dict, player: str) -> str:
    # seed 000, Fleet Arrival Timer: "When any player's Draw Deck is reduced to 0 cards, move each Fleet
    # Token forward 1 space"
    return fleet_trigger(state, "deck_empty", Said("%(player)s's Draw Deck is empty", player=player))


# --- Damage and healing -----------------------------------------------------------------------

@action("dn-damage", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "amount": Int(1, 99, what=N_("the Damage"))})
def damage(state: dict, p: dict) -> str:
    """Damage a ship (after modifiers): HP down, 0 or less Eliminates (seed 000, Damage)."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    amount = needed(p, "amount")
    t = turn(state)
    result = dn.damage(count(unit, "hp"), amount, t["damage"].get(uid, 0))
    set_count(unit, "hp", result["hp"])
    t["damage"][uid] = result["damage_this_turn"]
    label = said(state, p, data["player"], bare(result["summary"], " - Eliminated."))
    if result["eliminated"]:
        label = _and(label, eliminate(state, uid, ["destroyed"], "damage"))
    return label if label.endswith(".") else sentence(label)


@damage.decider
def decide_damage(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship", "amount"), ctx)


@action("dn-heal", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "amount": Int(1, 99, what=N_("the healing"))})
def heal(state: dict, p: dict) -> str:
    """Heal a ship (green HP): never above its starting HP (seed 000, Symbols & Colours, Increase)."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    amount = needed(p, "amount")
    result = dn.heal(count(unit, "hp"), unit["stats"]["start_hp"], amount)
    set_count(unit, "hp", result["hp"])
    return said(state, p, data["player"], result["summary"])


@heal.decider
def decide_heal(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship", "amount"), ctx)


# --- Card Burn --------------------------------------------------------------------------------

BURN_FIELDS = ("ship", "amount", "hand_cards", "hand_primary", "tokens", "remains", "remains_primary",
               "indestructible_x", "indestructible_tokens", "indestructible_name")


@action("dn-card-burn", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "amount": Int(1, 99, what=N_("the Card Burn")),
    "hand_cards": Int(0, 99, what=N_("the cards from hand")),
    "hand_primary": Int(0, 99, what=N_("the Primary cards from hand")),
    "tokens": Int(0, 99, what=N_("the tokens discarded")), "remains": Int(0, 9, what=N_("the Remains in Play cards")),
    "remains_primary": Int(0, 9, what=N_("the Primary Remains in Play cards")),
    "indestructible_x": Int(1, 20, what=N_("Indestructible-X")),
    "indestructible_tokens": Int(0, 19, what=N_("the tokens on that card")),
    "indestructible_name": Scalar(60), "revealed": Either(List(Text(20), 60), Text(400))})
def card_burn(state: dict, p: dict) -> str:
    """Card Burn: discards from hand, tokens, Remains in Play, Indestructible-X and revealed deck cards."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    amount = needed(p, "amount")
    # the burned player's choices, in an order that lets a Primary card or an Indestructible card
    # absorb what is left (seed 000, Damage Push & Burn; Special Keywords)
    choices = ([{"from": "token"}] * p.get("tokens", 0)
               + [{"from": "remains_in_play"}] * p.get("remains", 0)
               + [{"from": "remains_in_play", "primary": True}]
               * p.get("remains_primary", 0)
               + [{"from": "hand"}] * p.get("hand_cards", 0)
               + [{"from": "hand", "primary": True}] * p.get("hand_primary", 0))
    if p.get("indestructible_x") is not None:
        choices.append({"from": "indestructible", "name": p.get("indestructible_name") or "Indestructible card",
                        "x": p["indestructible_x"],
                        "tokens": p.get("indestructible_tokens", 0)})
    result = dn.card_burn(amount, count(unit, "hand"), count(unit, "deck"), choices=choices,
                          revealed=p.get("revealed", []), tokens=count(unit, "tokens"))
    if result["still_to_burn"]:
        raise RuleError(_("%(n)s Card Burn is still to resolve: discard more from the hand or reveal more cards from "
                          "the top of the Draw Deck.", n=result["still_to_burn"]), "revealed")
    set_count(unit, "hand", result["hand"])
    set_count(unit, "deck", result["deck"])
    set_count(unit, "tokens", result["tokens"])
    set_count(unit, "discard", count(unit, "discard") + result["discard_added"])
    per_ship(turn(state), "burn", uid, amount)
    label = bare(result["summary"])
    primaries = sum(1 for b in result["burned"] if b["primary"])
    if primaries:
        label = (Said("%(text)s (%(n)s Primary cards: counts 2)", text=label, n=primaries) if primaries > 1
                 else Said("%(text)s (%(n)s Primary card: counts 2)", text=label, n=primaries))
    pending = next((b for b in data["pending_burn"] if b["amount"] == amount), None)
    if pending:
        data["pending_burn"].remove(pending)
        label = Said("%(text)s (the %(fleet)s Fleet Arrival's Card Burn)", text=label, fleet=pending["fleet"])
    parts = []
    if result["deck_emptied"]:
        parts.append(_deck_emptied(state, data["player"]))
    if result["eliminated"]:
        parts.append(eliminate(state, uid, ["disabled"], "card_burn"))
        if pending:
            # seed 000, Multiplayer, Fleet Arrival Effects: "Damage and Card Burn inflicted by a Fleet Arrival
            # count towards this" (the most Eliminations), as the damage path of dn-fleet-arrival credits it
            elimination_of(state, uid)["by"] = pending["fleet"]
            parts.append(Said("Elimination credited to %(fleet)s", fleet=pending["fleet"]))
    # the answer every phone shows under the Card Burn tool, next to the button that made it (no seat beside
    # it); drawn in each reader's words (say)
    state["game"]["burn_result"] = {"round": state["round"], "phase": phase_now(state),
                                    "summary": kept(_and(joined(": ", (called(state, data["player"]), label)), *parts))}
    return _and(said(state, p, data["player"], label), *parts)


@card_burn.decider
def decide_card_burn(state: dict, args: dict, ctx) -> dict:
    out = signed(clean(args, *BURN_FIELDS), ctx)
    out["revealed"] = revealed_cards(args.get("revealed"))
    return out


def revealed_cards(raw) -> list[str]:
    """The top cards revealed, in order: 'card primary card' or 'c p c' (seed 000: reveal each card)."""
    if raw in (None, ""):
        return []
    if isinstance(raw, list):
        words = raw
    else:
        words = str(raw).replace(",", " ").split()
    out = []
    for word in words:
        w = str(word).strip().lower()
        if w in ("p", "primary"):
            out.append("primary")
        elif w in ("c", "card"):
            out.append("card")
        else:
            raise RuleError(_("List the revealed cards in order as card or primary (c / p); got %(word)r.", word=word),
                            "revealed")
    return out


# --- the Draw step ----------------------------------------------------------------------------

@action("dn-draw", phase="Draw", doing=N_("Drawing up to 6"), systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "no_attack": Flag()})
def draw(state: dict, p: dict) -> str:
    """Draw step: top a ship's hand (or every ship's) up to 6; an empty deck stops the draw."""
    g = battle_on(state)
    t = turn(state)
    if p.get("ship"):
        uids = [ship(state, p["ship"])[0]]
        if uids[0] in t["drawn"]:
            raise RuleError(_("%(player)s has already drawn this turn.", player=g["ships"][uids[0]]["player"]), "ship")
    else:
        uids = [u for u in g["ships"] if not g["ships"][u]["eliminated"] and u not in t["drawn"]]
        if not uids:
            raise RuleError(_("Every ship has already drawn this turn."), "ship")
    no_attack = p.get("no_attack", False)
    parts = []
    for uid in uids:
        data, unit = g["ships"][uid], state["units"][uid]
        result = dn.draw(count(unit, "hand"), count(unit, "deck"), hand_has_attack=not no_attack)
        set_count(unit, "hand", result["hand"])
        set_count(unit, "deck", result["deck"])
        t["drawn"].append(uid)
        # one ship's draw is said like any other ship action; everyone's names each player
        parts.append(said(state, p, data["player"], Said("draw %(n)s (hand %(hand)s, deck %(deck)s)", n=result["drawn"],
                                                         hand=result["hand"], deck=result["deck"])) if len(uids) == 1
                     else Said("%(player)s draws %(n)s (hand %(hand)s, deck %(deck)s)", player=called(state, data["player"]),
                               n=result["drawn"], hand=result["hand"], deck=result["deck"]))
        if result["deck_emptied"]:
            parts.append(_deck_emptied(state, data["player"]))
        if result["eliminated"]:
            parts.append(eliminate(state, uid, ["disabled"], "card_burn"))
        if no_attack:
            # seed 000, Always Dangerous: "After any Draw step, if your hand contains no Offense Cards with
            # an attack on them"
            t["always_dangerous"].append(uid)
            parts.append(dn.always_dangerous_reminder())
    return _and(*parts) if len(uids) == 1 else Said("Everyone draws up to 6: %(draws)s", draws=_and(*parts))


@draw.decider
def decide_draw(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship", "no_attack"), ctx)


# --- Power Management, Ready and the slots ----------------------------------------------------

@action("dn-power", phase="Power Management", doing=N_("Playing cards for Power Management"), systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"),
    "cards": Int(0, 9, what=N_("the Offense & Defense cards played")),
    "offense": Int(0, 9, what=N_("the Offense Cards played")),
    "ready_slot": Int(0, dn.SLOTS, what=N_("the Ready card's slot")),
    "terrain": Int(0, 9, what=N_("the Terrain Cards played")), "events": Int(0, 9, what=N_("the Event Cards played"))})
def power(state: dict, p: dict) -> str:
    """Power Management: up to 3 cards (at most 2 Offense, one Ready card); lists the choices they leave."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    t = turn(state)
    if uid in t["power"]:
        raise RuleError(_("%(player)s has already played cards this turn; undo to change them.", player=data["player"]),
                        "cards")
    cards = p.get("cards", 0)
    offense = p.get("offense", 0)
    slot = p.get("ready_slot", 0)
    terrain = p.get("terrain", 0)
    events = p.get("events", 0)
    result = dn.power_management_options(cards, offense, ready_played=1 if slot else 0, terrain_played=terrain,
                                         event_played=events, hand=count(unit, "hand"))
    ready = ""
    if slot:
        played = dn.play_ready(data["slots"], slot)
        data["slots"] = played["slots"]
        ready = played["summary"]
    set_count(unit, "hand", result["hand"])
    # drawn in each reader's words (say); the options' texts are the messages of rules.POWER_MANAGEMENT
    t["power"][uid] = {"cards": cards, "offense": offense, "ready_slot": slot, "terrain": terrain, "events": events,
                       "options": [{**o, "text": kept(Said(o["text"]))} for o in result["options"]],
                       "summary": kept(result["summary"])}
    t["played"][uid] = cards + terrain + events
    extra = joined(" + ", [x for x in (Said("%(n)s Terrain", n=terrain) if terrain else "",
                                       Said("%(n)s Event", n=events) if events else "") if x])
    played = Said("%(summary)s (%(extra)s face-down too)", summary=result["summary"], extra=extra) if extra \
        else result["summary"]
    return _and(said(state, p, data["player"], played), ready)


@power.decider
def decide_power(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship", "cards", "offense", "ready_slot", "terrain", "events"), ctx)


@action("dn-ready", phase="Ready", doing=N_("Readying a card"), systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "slot": Int(1, dn.SLOTS, what=N_("the slot")),
    "card": Text(60)})
def ready(state: dict, p: dict) -> str:
    """Ready step: put a Primary Card from the hand into a slot, covering what is there (2 a turn)."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    t = turn(state)
    if t["readied"].get(uid, 0) >= dn.READY_PER_TURN:
        raise RuleError(_("Ready at most %(n)s cards a turn (seed 000, Readying Cards).", n=dn.READY_PER_TURN), "card")
    name = p.get("card")
    if not name:
        raise RuleError(_("Name the card to ready."), "card")
    if count(unit, "hand") < 1:
        raise RuleError(_("%(player)s has no card in hand to ready.", player=data["player"]), "card")
    result = dn.ready_cards(data["slots"], [{"name": name, "slot": needed(p, "slot")}])
    data["slots"] = result["slots"]
    set_count(unit, "hand", count(unit, "hand") - 1)
    per_ship(t, "readied", uid, 1)
    return said(state, p, data["player"], Said("%(card)s readied in slot %(slot)s. %(summary)s", card=name, slot=p["slot"],
                                               summary=result["summary"]))


@ready.decider
def decide_ready(state: dict, args: dict, ctx) -> dict:
    out = signed(clean(args, "ship", "slot"), ctx)
    name = " ".join(str(args.get("card") or "").split())
    if len(name) > 40:
        raise RuleError(_("A card name is at most 40 characters."), "card")
    if name:
        out["card"] = name
    return out


@action("dn-flip", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "slot": Int(1, dn.SLOTS, what=N_("the slot")),
    "face": Scalar(20)})
def flip(state: dict, p: dict) -> str:
    """Flip the Upgrade Card on top of a slot: face-down when used, face-up through Power Management."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    face = p.get("face")
    if face not in ("up", "down"):
        raise RuleError(_("Flip face up or face down."), "face")
    result = dn.flip_upgrade(data["slots"], needed(p, "slot"), face == "up")
    data["slots"] = result["slots"]
    return said(state, p, data["player"], result["summary"])


@flip.decider
def decide_flip(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship", "slot", "face"), ctx)


# --- Discard and Return -----------------------------------------------------------------------

@action("dn-discard", phase="Discard", doing=N_("Discarding resolved cards"), systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "count": Int(1, 20, what=N_("the cards discarded"))})
def discard(state: dict, p: dict) -> str:
    """Discard step: the face-up cards that have fully resolved go to the discard pile."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    n = needed(p, "count")
    set_count(unit, "discard", count(unit, "discard") + n)
    per_ship(turn(state), "discarded", uid, n)
    pile = count(unit, "discard")
    return said(state, p, data["player"], Said("%(n)s resolved card discarded (pile %(pile)s).", n=n, pile=pile) if n == 1
                else Said("%(n)s resolved cards discarded (pile %(pile)s).", n=n, pile=pile))


@discard.decider
def decide_discard(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship", "count"), ctx)


@action("dn-return", phase="Return", doing=N_("Returning cards to the deck"), systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"),
    "count": Int(1, dn.RETURN_MAX, what=N_("the cards returned"))})
def return_cards(state: dict, p: dict) -> str:
    """Return step: up to two cards from the hand to the bottom of the Draw Deck."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    t = turn(state)
    n = needed(p, "count")
    done = t["returned"].get(uid, 0)
    if done + n > dn.RETURN_MAX:
        raise RuleError(_("Return up to %(n)s cards a turn (seed 000, Turn Sequence); %(player)s has returned %(done)s.",
                          n=dn.RETURN_MAX, player=data["player"], done=done), "count")
    result = dn.return_to_deck(count(unit, "hand"), count(unit, "deck"), n)
    set_count(unit, "hand", result["hand"])
    set_count(unit, "deck", result["deck"])
    per_ship(t, "returned", uid, n)
    return said(state, p, data["player"], result["summary"])


@return_cards.decider
def decide_return(state: dict, args: dict, ctx) -> dict:
    return signed(clean(args, "ship", "count"), ctx)


# --- Elimination by hand ----------------------------------------------------------------------

REASONS = {"destroyed": "damage", "disabled": "card_burn", "denied": "push"}


@action("dn-eliminate", systems=SYSTEMS, fields={
    "ship": Ref("ship", "the ship's unit id or its player's name"), "reason": Text(60)})
def eliminate_ship(state: dict, p: dict) -> str:
    """Record an Elimination the counters show (HP 0; no cards) or a Push off through a Danger Zone."""
    battle_on(state)
    uid, data, unit = ship(state, p.get("ship"))
    reason = p.get("reason")
    if reason not in REASONS:
        raise RuleError(_("Say how the ship was Eliminated: destroyed, disabled or denied."), "reason")
    check = dn.eliminated({"name": data["player"], "hp": count(unit, "hp"), "hand": count(unit, "hand"),
                           "deck": count(unit, "deck"), "pushed_off_danger_zone": reason == "denied"})
    if reason not in check["reasons"]:
        if reason == "destroyed":
            raise RuleError(_("%(player)s is not destroyed: that needs HP 0 (seed 000, Elimination).",
                              player=data["player"]), "reason")
        raise RuleError(_("%(player)s is not disabled: that needs no cards in hand or Draw Deck (seed 000, Elimination).",
                          player=data["player"]), "reason")
    return _and(eliminate(state, uid, [reason], REASONS[reason]))


@eliminate_ship.decider
def decide_eliminate(state: dict, args: dict, ctx) -> dict:
    return clean(args, "ship", "reason")
