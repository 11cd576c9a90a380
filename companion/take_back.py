"""Take back one past move (issue 27): the table becomes the fold of its log without that move,
every later move applied again in order with the dice it recorded (never rolled again).

A take-back is an event of its own (payload ``{"type": "take-back", "targets": [412], "instead"?}``)
pushed on the undo chain like any move, so Undo takes it back and Redo puts it back.  ``instead``
makes it a correction: that move (a tracker change) is applied in the place of the first target.
What the log means with take-backs in it is ``companion.actions.in_effect`` (one definition: the
fold, the battle report and this module all follow it).

Cost: the chain is read from the top down to the oldest move taken back (one range of the log when
that stretch is short, ``SPAN_MAX``, with the events down to the snapshot below it); the state
before that move comes from its snapshot plus at most SNAPSHOT_EVERY applies, then the moves
above it are applied again.  The take-back stores a snapshot of the state it leaves, so nothing
above it ever folds through the moves it withdrew, and undo/redo below and above it stay short.

Every function here runs inside the caller's write transaction (companion.store.write_lock).
"""
from __future__ import annotations

import json
import re

from companion import actions, games, hidden
from companion.actions import TAKE_BACK, schema
from companion.errors import Conflict, RuleError, Stale
from companion.said import Said, _, again, figure, joined
from companion.store import chain as links  # (a local "chain" is a list of moves here)
from companion.store.chain import _append_undo, _insert_event, _state_at

MAX_TARGETS = 20  # moves one take-back withdraws ("take back both", then more, in one tap each)
# How far back a take-back reaches: it applies every move in force since again (~20 us each, so
# ~40 ms at most while the table's write lock is held); further back, undo is the way.  An import
# holds at most MAX_IN_IMPORT take-backs, so a crafted file costs at most their product in applies.
MAX_REPLAY = 2_000
MAX_IN_IMPORT = 500
NAME_CHARS = 90  # an event named inside a label or a sentence: cut at a word, never mid-word
CORRECTABLE = ("adjust", "tracker")  # tracker changes: what "Correct" re-enters with another unit or amount
CORRECTABLE_OPS = ("adjust", "move")  # a tracker op that moves a number by "by" (the -/+ buttons)


def correctable(event: dict) -> bool:
    """A tracker change by an amount, or one of a game's own hits (``Game.hits``, issue 40 §4): what
    Correct offers to enter again with another unit or amount."""
    p = event.get("payload") or {}
    hit = games.hit_actions().get(event.get("type"))
    if hit:
        return p.get(hit[0]) not in (None, "") and p.get(hit[1]) not in (None, "")
    return event.get("type") in CORRECTABLE and "by" in p and (
        event["type"] == "adjust" or p.get("op") in CORRECTABLE_OPS)


def amount_field(event: dict) -> tuple[str, str]:
    """The fields Correct changes in a move: (its unit field, its amount field)."""
    return games.hit_actions().get(event.get("type"), ("unit", "by"))


def clean_targets(raw) -> list[int]:
    """The seqs a request names (a list, or one number, or "412 415"): whole numbers, at most
    MAX_TARGETS, each once, oldest first."""
    if isinstance(raw, (int, str)) and not isinstance(raw, bool):
        raw = str(raw).replace(",", " ").split()
    if not isinstance(raw, list) or not raw or len(raw) > MAX_TARGETS:
        raise RuleError(_("Name 1 to %(most)s moves to take back by their number.", most=MAX_TARGETS), "targets")
    out = []
    for value in raw:
        if isinstance(value, str) and value.strip().lstrip("#").isdecimal():
            value = int(value.strip().lstrip("#"))
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RuleError(_("Moves are named by their number in the log (#412)."), "targets")
        out.append(value)
    return sorted(set(out))


def check_payload(payload: dict) -> None:
    """A take-back's payload as stored (a live request's or an imported one): targets, and a
    correction's move checked against its action's declared fields."""
    if set(payload) - {"type", "targets", "instead"} or clean_targets(payload.get("targets")) != payload["targets"]:
        raise RuleError(_("a take-back holds only its targets (oldest first) and a correction."), "targets")
    instead = payload.get("instead")
    if instead is not None:
        if not isinstance(instead, dict) or not correctable({"type": instead.get("type"), "payload": instead}):
            raise RuleError(_("Only a tracker change by an amount or a hit can be corrected."), "instead")
        schema.check(actions.REGISTRY[instead["type"]].fields or {}, instead)


# A take-back reads the chain as one range of the log's events when the stretch from its oldest target
# (less a few snapshots' worth, for the state below it) to the top is at most this long: a range
# read costs about half a recursive query's per row, so it is the cheaper read while most events of
# the range are moves in force (undos, redos and joins are left out of it, undone moves come bare).
SPAN_MAX = 200
SPAN_BELOW = 3 * links.SNAPSHOT_EVERY


def _chain(db, table_id: int, top: int, low: int, start_state: list | None = None) -> list[dict]:
    """The chain of moves in force from ``top`` down to the oldest at or above ``low`` (lowered to
    the oldest move a take-back met on the way withdrew), newest first; one query a stretch.
    ``start_state``: a list that receives the state below the oldest (``_state_at`` of its link)
    when the read gives it without another walk down the chain (left empty otherwise)."""
    out: list[dict] = []
    start = top
    span = None
    if start_state is not None and top - low <= SPAN_MAX:
        span = links.events_span(db, table_id, max(1, low - SPAN_BELOW), top)
    while start is not None:
        limit = MAX_REPLAY + 1 - len(out)
        rows = links.down_span(span, start, low, limit) if span is not None else None
        if rows is None:
            rows = links.chain_down(db, table_id, start, low, limit)
        payloads = json.loads("[" + ",".join(r[3] for r in rows) + "]")  # one parse for the stretch
        for (seq, link, type_, _text, taken), payload in zip(rows, payloads, strict=True):
            out.append({"seq": seq, "link": link, "type": type_, "payload": payload, "taken_back": taken})
        if len(out) > MAX_REPLAY:
            raise RuleError(_("#%(seq)s is more than %(most)s moves back: a take-back reaches that far at most "
                              "(undo step by step to go further).", seq=low, most=figure(MAX_REPLAY)), "targets")
        lowest = min([low] + [t for ev in out if ev["type"] == TAKE_BACK for t in ev["payload"]["targets"]])
        start = out[-1]["link"] if out else None
        if lowest >= low or start is None:
            if span is not None and start is not None:
                state = links.state_in_span(db, table_id, span, start)
                if state is not None:
                    start_state.append(state)
            return out
        low = lowest
        span = None  # (a take-back met on the way reaches lower: the next stretches are read down the chain)


def _killers(chain: list[dict], extra: dict | None = None) -> dict[int, dict]:
    """Which move each take-back in effect withdrew (seq -> that take-back), ``extra`` on top."""
    killed: dict[int, dict] = {}
    for ev in ([extra] if extra else []) + chain:  # newest first: the newest take-back decides
        if ev["seq"] not in killed and ev["type"] == TAKE_BACK:
            for t in ev["payload"]["targets"]:
                killed.setdefault(t, ev)
    return killed


def _what(ev: dict, named: tuple, secrets: set[str]) -> str:
    """What an event did, as a label or a sentence names it ("Nimitz HP -3 (10 → 7)"); its type
    alone when its label could hold sealed text (it seals, or shows a text still sealed).  ``named``:
    its (label, kept message) from ``links.named``; with the message, a label named whole is drawn
    in each reader's words."""
    label, said = named
    label = label or ""
    if hidden.KEY in ev["payload"] or any(s in label for s in secrets):
        return f"({ev['type']})"
    if len(label) > NAME_CHARS:
        return label[:NAME_CHARS].rsplit(" ", 1)[0] + " …"  # (cut in its English: named as stored)
    return again(label, said)


_UNIT_ID = re.compile(r"'(u\d+)'")


def _named(message: str, state: dict) -> str:
    """A refusal as players read it: a unit the withdrawn move made is named, not numbered
    ("No unit 'u2' at this table." -> "No unit Zhukov at this table.")."""
    units = state.get("units", {})
    return _UNIT_ID.sub(lambda m: units[m.group(1)]["name"] if m.group(1) in units else m.group(0), message)


def _both(items: list, kept: bool = False):
    """"#3 and #5 and #7": a label's (``kept``: Said, drawn in each reader's words) or a refusal's (drawn now)."""
    out = items[0]
    for item in items[1:]:
        out = Said("%(some)s and %(more)s", some=out, more=item) if kept else _("%(some)s and %(more)s", some=out, more=item)
    return out


def _secrets(*states: dict) -> set[str]:
    return {s for state in states for s in hidden.secrets_in(state) if len(s) >= 2}


def withdraw(db, row: dict, payload: dict, seat: str, side, ts=None) -> tuple[int, str, dict]:
    """Append the take-back ``payload`` on the table ``row`` (kept up to date): the state without
    its targets (and with its correction), stored with a snapshot; Conflict if a later move no
    longer applies, RuleError if a target is not a move in force.  Returns (seq, label, state)."""
    table_id, targets, instead = row["id"], payload["targets"], payload.get("instead")
    start_state: list[dict] = []
    chain = _chain(db, table_id, row["done_top"], targets[0], start_state)
    by_seq = {ev["seq"]: ev for ev in chain}
    seq = row["seq"] + 1
    me = {"seq": seq, "type": TAKE_BACK, "payload": payload}
    killed = _killers(chain, me)  # (a move a target withdrew counts again: it may be a target too)
    for t in targets:
        if t == 1:
            raise RuleError(_("The table's set-up cannot be taken back."), "targets")
        if t not in by_seq:
            raise RuleError(_("#%(seq)s is not a move in force (undone, an undo, or not in the log); "
                              "only moves in force can be taken back.", seq=t), "targets")
        if killed[t] is not me:
            raise RuleError(_("#%(seq)s was already taken back (#%(by)s).", seq=t, by=killed[t]["seq"]), "targets")
    state = start_state[0] if start_state else _state_at(db, table_id, chain[-1]["link"])
    labels: dict[int, str] = {}
    for ev in reversed(chain):  # oldest first
        if ev["seq"] in killed:
            if killed[ev["seq"]].get("payload", {}).get("instead") is None or \
                    killed[ev["seq"]]["payload"]["targets"][0] != ev["seq"]:
                continue
            move, whose = killed[ev["seq"]]["payload"]["instead"], killed[ev["seq"]]
        elif ev["type"] == TAKE_BACK:
            continue
        else:
            move, whose = ev["payload"], ev
        try:
            # a move's payload was parsed for this replay alone (the state may keep parts of it); a
            # correction's is the stored take-back's, so it goes as a copy
            labels[ev["seq"]] = actions.apply(state, move, own=move is ev["payload"])
        except RuleError as exc:
            if whose is me:
                raise RuleError(_("The correction does not apply in the place of #%(seq)s: %(why)s", seq=ev["seq"],
                                  why=exc.message), "instead") from None
            without = _both([f"#{t}" for t in targets])
            stored = links.named(db, table_id, [whose["seq"]])[whose["seq"]][0]
            what = _what(whose, (stored, None), _secrets(row["state"], state))  # (its label as stored)
            # a Stale refusal ("the table changed ... try again") means the move was checked against,
            # or names, what a withdrawn move made (the next unit's id, the top card, the phase)
            # (a correction that no longer applies in its move's place is named as the correction)
            if isinstance(exc, Stale):
                raise Conflict(_("#%(seq)s %(move)s no longer applies without %(without)s: it was entered on the table as "
                                 "%(without)s left it.", seq=whose["seq"], move=what, without=without),
                               whose["seq"], targets) from None
            raise Conflict(_("#%(seq)s %(move)s no longer applies without %(without)s: %(why)s.", seq=whose["seq"],
                             move=what, without=without, why=_named(exc.message, row["state"]).rstrip(".")),
                           whose["seq"], targets) from None
    secrets = _secrets(row["state"], state)
    # the moves taken back are named by their kept messages (a move from before those: its English);
    # the chain was read without labels (most of its moves are only applied again), so read theirs now
    named = links.named(db, table_id, targets)
    said = [Said("#%(seq)s: %(move)s", seq=t, move=_what(by_seq[t], named[t], secrets)) for t in targets]
    if instead is not None:
        label = joined("; ", [Said("corrected #%(seq)s to %(move)s (was %(was)s)", seq=targets[0], move=labels[targets[0]],
                                   was=_what(by_seq[targets[0]], named[targets[0]], secrets))]
                       + [Said("took back %(move)s", move=s) for s in said[1:]])
    else:
        label = Said("took back %(moves)s", moves=_both(said, kept=True))
    _insert_event(db, table_id, seq, seat, side, payload, label, False, target=targets[0], ts=ts,
                  link=row["done_top"], since_snap=0)
    text = json.dumps(state)
    links.keep_snapshot(db, table_id, seq, text)
    links.set_top(db, table_id, seq, text, state)
    _mark(db, table_id, [me] + chain, killed)  # (killed: _killers([me] + chain), worked out above)
    row.update(state=state, seq=seq, finished=int(state["finished"]), done_top=seq, undone_event=None,
               name=state["name"])
    return seq, label, state


def _mark(db, table_id: int, chain: list[dict], killed: dict[int, dict] | None = None) -> None:
    """Mark in the log which moves of ``chain`` (newest first, in force) a take-back in effect
    withdrew (withdrawn, and by which take-back), and unmark those no longer withdrawn."""
    killed = _killers(chain) if killed is None else killed
    for ev in chain:
        by = killed.get(ev["seq"])
        if (by["seq"] if by else None) != ev.get("taken_back"):
            links.mark_taken_back(db, table_id, ev["seq"], by["seq"] if by else None)


def append_undo(db, row: dict, redo: bool, seat: str, side, ts=None) -> tuple[int, str, int, dict]:
    """An undo or redo on the chain (store.chain._append_undo); when what it takes back or brings back is
    a take-back, the log's marks of that take-back's moves follow (after_undo)."""
    seq, label, target, state, type_ = _append_undo(db, row, redo, seat, side, ts)
    if type_ == actions.TAKE_BACK:
        after_undo(db, row["id"], target, row.get("done_top"))
    return seq, label, target, state


def after_undo(db, table_id: int, target: int, top: int | None) -> None:
    """After an undo or redo of a take-back ``target`` (``top`` the chain's new top): its moves
    count again, or are withdrawn again, in the log's marks."""
    payload = links.move_of(db, table_id, target)[1]
    if top is not None:
        _mark(db, table_id, _chain(db, table_id, top, payload["targets"][0]))


def correction(db, row: dict, target: int, asked: dict, ctx) -> dict:
    """The move a correction puts in the place of ``target``: the same tracker change with the
    ``unit`` and ``by`` asked (each, if given); RuleError if that move cannot be corrected so."""
    found = links.move_of(db, row["id"], target)
    event = {"type": found[0], "payload": found[1]} if found else {}
    if not found or not correctable(event):
        raise RuleError(_("#%(seq)s is not a tracker change by an amount or a hit; take it back instead.", seq=target),
                        "instead")
    if not isinstance(asked, dict) or set(asked) - {"unit", "by"}:
        raise RuleError(_("A correction names another unit, another amount, or both."), "instead")
    move = dict(event["payload"])
    unit_field, by_field = amount_field(event)
    hit = by_field != "by"  # a game's own hit: its amount is what was taken, a positive whole number
    if asked.get("unit") not in (None, ""):
        move[unit_field] = asked["unit"]
    if asked.get("by") not in (None, ""):
        by = asked["by"]
        if isinstance(by, str) and by.strip().lstrip("+-").isdecimal():
            by = int(by)
        if isinstance(by, bool) or not isinstance(by, int) or by == 0 or (hit and by < 0):
            if hit:
                raise RuleError(_("Enter the amount it should have been (a whole number, more than 0; to leave it out, "
                                  "take it back)."), "by")
            raise RuleError(_("Enter the amount it should have been (a whole number, not 0; to leave it out, take it back)."),
                            "by")
        move[by_field] = by
        if not hit:
            move.pop("amount", None)  # the amount typed beside the -/+ buttons sized "by"; the new amount is whole
    if move == event["payload"]:
        raise RuleError(_("That is #%(seq)s as it was: change the unit or the amount.", seq=target), "instead")
    return move
