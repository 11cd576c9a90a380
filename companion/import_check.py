"""An imported table must be one the app itself could have produced (issue 15).

``check_event`` runs before each event of an export is replayed, on the state that event met, and
refuses (RuleError naming the event) what a live table could never have stored:

- any event once the game is finished (live, nothing changes a finished table);
- an action whose decision is deterministic (no dice, no shuffle): it is decided again from its own
  payload, exactly as a live request would be, and must come out the same (names within their
  limits, sides that are sides, stats within the template's bounds, trackers the template gives);
- a free roll: d20 evaluates the expression again with the recorded dice (``dice.reroll``): each
  die within its sides, as many dice as the expression rolls, the total it gives;
- real dice and success pools: recomputed from the recorded dice (totals, successes, saves, odds);
- deck events: only the steps their action plans (a draw cannot load or invent cards), cards
  within their limits, loads a true shuffle of the cards;
- every payload: bounded size and strict JSON values (companion.validate).

``check_state`` runs after each event: counters within their min and max, box tracks of booleans.

- a game's chance actions (a broadside, an attack): each declares how its payload's dice are
  checked (``@apply.dice_check``, companion.actions.chance): every die within its sides, as many as
  the rules roll, and the totals (hits, saves, successes) worked out again from the dice.

Pure: no Flask, no database.
"""
from __future__ import annotations

import json

from companion import actions, dice, roster, schema, validate
from companion.actions import Ctx
from companion.errors import RuleError
from companion.said import _, figure
from companion.trackers import deck as decks

MAX_EVENT_BYTES = 100_000
MAX_SEAT = 40
MAX_SIDE = 30


class _NoChance:
    """The RNG handed to a decider while an import is checked: a decider that asks for chance
    cannot be decided again (its result is checked another way)."""

    def __getattr__(self, name):
        raise _NeedsChance(name)


class _NeedsChance(Exception):
    pass


def _refuse(seq: int, type_: str, message: str) -> RuleError:
    return RuleError(_("Event %(seq)s (%(type)s): %(problem)s", seq=seq, type=type_, problem=message), "file")


def check_envelope(ev: dict) -> None:
    """The parts of an exported event that are not replayed: who, which side, when."""
    seq = ev.get("seq")
    seat, side, ts = ev.get("seat", ""), ev.get("side"), ev.get("ts")
    if seat is not None and (not isinstance(seat, str) or len(seat) > MAX_SEAT):
        raise _refuse(seq, ev.get("type"), _("the seat must be a name of at most %(most)s characters.", most=MAX_SEAT))
    if side is not None and (not isinstance(side, str) or len(side) > MAX_SIDE):
        raise _refuse(seq, ev.get("type"), _("the side must be a side's name of at most %(most)s characters.",
                                                most=MAX_SIDE))
    if ts is not None and (not isinstance(ts, str) or len(ts) > 40):
        raise _refuse(seq, ev.get("type"), _("the time must be an ISO date and time."))
    size = len(json.dumps(ev.get("payload")))
    if size > MAX_EVENT_BYTES:
        raise _refuse(seq, ev.get("type"), _("it is %(size)s bytes; an event is at most %(most)s.", size=figure(size),
                                                most=figure(MAX_EVENT_BYTES)))
    try:
        validate.check_value(ev.get("payload"), "payload")
    except RuleError as exc:
        raise _refuse(seq, ev.get("type"), exc.message) from None


def check_event(state: dict, ev: dict, system) -> None:
    """Refuse an event a live table could not have stored at this point (see the module doc)."""
    seq, type_, payload = ev["seq"], ev["type"], ev["payload"]
    if state.get("finished"):
        raise _refuse(seq, type_, _("it comes after the game was finished."))
    if type_ in ("undo", "redo"):
        if set(payload) != {"type", "target"} or isinstance(payload["target"], bool) \
                or not isinstance(payload["target"], int):
            raise _refuse(seq, type_, _("an undo or redo holds only its target event."))
        return
    if type_ == roster.JOIN:  # a seat sat down: a name, and a side of this table (or none: a spectator)
        try:
            roster.check(payload, state.get("sides") or [])
        except RuleError as exc:
            raise _refuse(seq, type_, exc.message) from None
        return
    if type_ == actions.TAKE_BACK:  # its moves must be in force and apply again: checked as it replays
        from companion import take_back
        try:
            take_back.check_payload(payload)
        except RuleError as exc:
            raise _refuse(seq, type_, exc.message) from None
        return
    entry = actions.lookup(type_, system.slug)
    special = VERIFY.get(type_)
    try:
        if special:
            special(state, payload, system)
        elif entry.decide and entry.systems is None:
            _decide_again(state, payload, system, entry)
        if entry.dice:  # a game's chance action: its dice within their sides, its totals from its dice
            _chance(state, payload, entry)
        if entry.typed:  # its numbers, flags and dice within what its fields declare, as live (issue 41:
            # an action reads them as given, and a replayed import is checked here, not by a reader)
            schema.parse_args(entry.typed, dict(payload))
        _deck_steps(type_, payload)
    except RuleError as exc:
        raise _refuse(seq, type_, exc.message) from None


def _chance(state: dict, payload: dict, entry) -> None:
    try:
        # read as the action reads it (an event stored before values were stored parsed holds text)
        entry.dice(json.loads(json.dumps(state)), schema.parse_args(entry.typed, dict(payload), text_only=True))
    except RuleError:
        raise
    except (TypeError, KeyError, ValueError, AttributeError, IndexError, ZeroDivisionError):
        raise RuleError(_("its dice are not recorded the way the app records them."), "file") from None


def _decide_again(state: dict, payload: dict, system, entry) -> None:
    """Decide a core action again from its own payload; it must come out as stored.  (A game's
    own action types take requests shaped unlike their payloads, so they are not decided again:
    that needs each type to declare how its payload maps back to a request.)"""
    ctx = Ctx(system=system, rng=_NoChance(), seat="import", trusted=True)
    try:
        again = entry.decide(json.loads(json.dumps(state)), _args_of(payload), ctx)
    except _NeedsChance:
        raise RuleError(_("it needs chance that its payload does not record."), "file") from None
    except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
        if isinstance(exc, RuleError):
            raise
        raise RuleError(_("it is not an action the app could have stored."), "file") from None
    again["type"] = entry.type
    if again != payload:
        key = next((k for k in sorted(set(again) | set(payload)) if again.get(k) != payload.get(k)), "payload")
        raise RuleError(_("its %(key)s is not what the app would have stored.", key=key), "file")


def _args_of(payload: dict) -> dict:
    """The request a payload came from, as far as it can be told: the payload itself, with a
    unit's true/false flags (stored among its stats) given back as the request gave them."""
    args = dict(payload)
    if payload.get("type") == "add-unit" and isinstance(payload.get("stats"), dict):
        args.update({k: v for k, v in payload["stats"].items() if isinstance(v, bool)})
    return args


# --- the core's chance actions --------------------------------------------------------------------

def _roll(state: dict, p: dict, system) -> None:
    expr = p.get("expr")
    if not isinstance(expr, str) or dice.check_expr(expr) != expr:
        raise RuleError(_("its expression is not one the app writes."), "expr")
    recorded = p.get("dice")
    if not isinstance(recorded, list) or not all(isinstance(d, dict) for d in recorded):
        raise RuleError(_("its dice are not a list of dice."), "dice")
    again = dice.reroll(expr, [d.get("value") for d in recorded])
    for key in ("total", "dice"):
        if p.get(key) != again[key]:
            raise RuleError(_("its %(key)s is not what %(expr)s gives for those dice.", key=key, expr=expr), key)
    if not isinstance(p.get("text"), str) or len(p["text"]) > 2000:
        raise RuleError(_("its text is not d20's."), "text")
    _same_keys(p, {"type", "expr", "total", "dice", "text", "why"})
    _why(p)


def _pool(state: dict, p: dict, system) -> None:
    r = p.get("result")
    if not isinstance(r, dict) or not isinstance(r.get("dice"), list) or not isinstance(r.get("saves"), list):
        raise RuleError(_("its result is not a pool's result."), "result")
    save, successes = r.get("save"), sum(1 for v in r["dice"] if isinstance(v, int) and v >= (r.get("target") or 0))
    again = dice.pool_roll(len(r["dice"]), r.get("target"), save, r.get("sides"), rolled=r["dice"],
                           saves_rolled=r["saves"] if save is not None and successes else None)
    if again != r:
        raise RuleError(_("its successes and saves are not what its dice give."), "result")
    odds = dice.pool_odds(len(r["dice"]), r["target"], save, r["sides"])
    if p.get("odds") != {"mean": odds["mean"], "probabilities": odds["probabilities"]}:
        raise RuleError(_("its odds are not the pool's odds."), "odds")
    if not isinstance(p.get("real"), bool):
        raise RuleError(_("it must say whether the dice were real."), "real")
    _same_keys(p, {"type", "result", "odds", "real", "why"})
    _why(p)


def _why(p: dict) -> None:
    from companion.actions.rolls import MAX_WHY
    why = p.get("why", "")
    if not isinstance(why, str) or len(why) > MAX_WHY:
        raise RuleError(_("its reason is at most %(most)s characters.", most=MAX_WHY), "why")


def _same_keys(p: dict, keys: set) -> None:
    extra = set(p) - keys
    if extra:
        raise RuleError(_("it holds %(key)r, which this action never stores.", key=sorted(extra)[0]), sorted(extra)[0])


def _deck_load(state: dict, p: dict, system) -> None:
    steps = p.get("steps")
    if not isinstance(steps, list) or len(steps) != 1 or not isinstance(steps[0], dict) \
            or steps[0].get("step") != "load":
        raise RuleError(_("a deck load has exactly one load step."), "steps")
    step = steps[0]
    cards = step.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= decks.MAX_CARDS:
        raise RuleError(_("a deck holds 1 to %(most)s cards.", most=decks.MAX_CARDS), "cards")
    for card in cards:
        if decks.clean_card(card) != card:
            raise RuleError(_("a card is not as the app stores cards."), "cards")
    if sorted(step.get("order") or []) != list(range(len(cards))):
        raise RuleError(_("its order is not a shuffle of its cards."), "order")
    definition = step.get("definition")
    if definition is not None and (not isinstance(definition, str) or len(definition) > 60):
        raise RuleError(_("its definition is not a deck definition's name."), "definition")


def _deck_record(state: dict, p: dict, system) -> None:
    steps = p.get("steps")
    if not isinstance(steps, list) or len(steps) != 1 or not isinstance(steps[0], dict) \
            or steps[0].get("step") != "record" or steps[0].get("to") != p.get("to"):
        raise RuleError(_("a recorded draw has exactly one record step."), "steps")
    if decks.clean_card(steps[0].get("card")) != steps[0]["card"]:
        raise RuleError(_("the card is not as the app stores cards."), "card")


def _deck_draws(state: dict, p: dict, system) -> None:
    """A draw (or draw-until) plans only reshuffles of the discard and draws from the top."""
    steps = p.get("steps")
    if not isinstance(steps, list) or not steps:
        raise RuleError(_("a draw has its steps."), "steps")
    draws = [s for s in steps if isinstance(s, dict) and s.get("step") == "draw"]
    if len(draws) + sum(1 for s in steps if isinstance(s, dict) and s.get("step") == "reshuffle") != len(steps):
        raise RuleError(_("a draw only reshuffles the discard and draws."), "steps")
    if not draws or draws[-1].get("to") != p.get("to"):
        raise RuleError(_("its last card does not go where the draw says."), "to")
    if p["type"] == "deck-draw" and (len(draws) > 20 or any(d.get("to") != p["to"] for d in draws)):
        raise RuleError(_("a draw takes 1 to 20 cards to one place."), "steps")
    if p["type"] == "deck-draw-until" and any(d.get("to") != "discard" for d in draws[:-1]):
        raise RuleError(_("the cards drawn before the one wanted go to the discard."), "steps")


def _deck_shuffle(state: dict, p: dict, system) -> None:
    steps = p.get("steps")
    if not isinstance(steps, list) or not steps or not all(isinstance(s, dict) for s in steps) \
            or steps[-1].get("step") != "shuffle" \
            or any(s.get("step") != "move" or s.get("to") != "bottom" for s in steps[:-1]):
        raise RuleError(_("a shuffle moves the discard under the pile and shuffles, nothing else."), "steps")


def _seal(state: dict, p: dict, system) -> None:
    """A sealed order as the seal action stores it: for a unit on the table, its side's, the next
    id, the text within limits (the seat that sealed it is whoever it was, so it is not decided again)."""
    from companion.actions.sealed import next_id
    from companion.hidden import KEY
    _same_keys(p, {"type", "unit", "id", "seat", KEY})
    unit = state.get("units", {}).get(p["unit"]) if isinstance(p["unit"], str) else None
    part = p[KEY]
    if unit is None:
        raise RuleError(_("it seals an order for a unit that is not at the table."), "file")
    if not isinstance(part, dict) or set(part) != {"side", "secret"} or part["side"] != unit["side"]:
        raise RuleError(_("its sealed part is not one the app stores (the unit's side and a text)."), "file")
    secret = part["secret"]
    if not isinstance(secret, dict) or set(secret) != {"text"} or not isinstance(secret["text"], str) \
            or not 0 < len(secret["text"]) <= 200:
        raise RuleError(_("its sealed text is not 1 to 200 characters."), "file")
    if p["id"] != next_id(json.loads(json.dumps(state))) or not isinstance(p["seat"], str) or len(p["seat"]) > 40:
        raise RuleError(_("its id or seat is not what the app would have stored."), "file")


VERIFY = {"roll": _roll, "pool": _pool, "deck-load": _deck_load, "deck-record": _deck_record,
          "deck-draw": _deck_draws, "deck-draw-until": _deck_draws, "deck-shuffle": _deck_shuffle,
          "seal": _seal}


def _deck_steps(type_: str, payload: dict) -> None:
    """Outside deck-load no action loads a deck; a card recorded from a real deck (any action's
    record step) is a card as the app stores cards."""
    steps = payload.get("steps")
    if not isinstance(steps, list):
        return
    for step in steps:
        if not isinstance(step, dict):
            continue  # a game's own "steps" (not a deck's)
        if step.get("step") == "load" and type_ != "deck-load":
            raise RuleError(_("only a deck load brings a deck's cards in."), "steps")
        if step.get("step") == "record" and decks.clean_card(step.get("card")) != step.get("card"):
            raise RuleError(_("a recorded card is not as the app stores cards."), "card")


# --- the state after each event --------------------------------------------------------------------

def check_state(seq: int, type_: str, state: dict) -> None:
    """Values in range after the event: what no live action lets happen."""
    owners = [(_("Table"), state.get("trackers", {}))] + [
        (u.get("name", uid), u.get("trackers", {})) for uid, u in state.get("units", {}).items()]
    for owner, tracks in owners:
        for tid, t in tracks.items():
            problem = _tracker_problem(t, owner, t.get("label", tid))
            if problem:
                raise _refuse(seq, type_, problem)


def _tracker_problem(t: dict, owner: str, label: str) -> str | None:
    """What is wrong with a tracker after an event, as one sentence naming it (None: nothing)."""
    names = {"owner": owner, "tracker": label}
    kind = t.get("kind")
    if kind == "counter":
        lo, hi, value = t.get("min"), t.get("max"), t.get("value")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi, value)):
            return _("%(owner)s's %(tracker)s is not a whole number.", **names)
        if not lo <= value <= hi:
            return _("%(owner)s's %(tracker)s would be %(value)s, outside %(lo)s to %(hi)s.", value=value, lo=lo, hi=hi,
                     **names)
    elif kind == "boxes":
        marked = t.get("marked")
        if not isinstance(marked, list) or not 1 <= len(marked) <= 200 \
                or not all(isinstance(m, bool) for m in marked):
            return _("%(owner)s's %(tracker)s is not a track of 1 to 200 boxes.", **names)
    elif kind == "charge":
        if not all(isinstance(t.get(c), list) and len(t[c]) <= 50 for c in ("red", "yellow")):
            return _("%(owner)s's %(tracker)s is not a charge bar.", **names)
    elif kind == "cooldown":
        if isinstance(t.get("every"), bool) or not isinstance(t.get("every"), int) or not 1 <= t["every"] <= 100:
            return _("%(owner)s's %(tracker)s does not come back every 1 to 100 rounds.", **names)
    elif kind not in ("arcs", "conditions", "gauge"):
        return _("%(owner)s's %(tracker)s is of an unknown kind %(kind)r.", kind=kind, **names)
    return None

