"""The same hit counted twice (issue 28 item 3): two players tap -1 on the same ship within a second,
both count, and nobody is told.  After a tracker change, ``earlier_same`` finds the same change
(the same payload: unit, tracker, operation and amount) made by another seat a moment before and
still in force, or the same one of a game's own hit actions (``Game.hits``); the answer asks "Ben
also took 1 HP from Nimitz 2 s ago. Same hit?" with "Keep
both" and "Take mine back" (one tap: the move taken back, companion/take_back.py).
"""
from __future__ import annotations

from datetime import datetime

from companion import games, store
from companion.said import _

WITHIN_SECONDS = 5  # "a moment ago": issue 28 item 3 ("say within 5 s"); the seeds are silent, it is not a rule
LOOK_BACK = 30  # events looked at: a busy table makes fewer than this in 5 s
TRACKER_CHANGES = ("adjust", "tracker")
DAMAGE_OPS = ("adjust", "move", "hit")


def asked_about(kind: str) -> bool:
    """Whether a move of this type may be the same hit as another's: a tracker change, or one of a
    game's own hit actions (``Game.hits``, issue 40 §4)."""
    return kind in TRACKER_CHANGES or kind in games.hit_actions()


def earlier_same(db, table_id: int, seq: int) -> dict | None:
    """The newest move in force by another seat, within WITHIN_SECONDS before move ``seq``, that
    made the same tracker change: {"seq", "seat", "seconds", "label", "said"}; None if there is none."""
    mine = store.move_at(db, table_id, seq)
    if mine is None or not asked_about(mine["type"]):
        return None
    seat, type_, payload = mine["seat"], mine["type"], mine["payload"]
    try:
        when = datetime.fromisoformat(mine["ts"])
    except (TypeError, ValueError):
        return None
    for other in store.moves_in_force_before(db, table_id, seq, LOOK_BACK, type_, seat):
        if other["payload"] != payload:  # the same change (a JSON body's keys may come in any order)
            continue
        try:
            seconds = (when - datetime.fromisoformat(other["ts"])).total_seconds()
        except (TypeError, ValueError):  # an imported event's time that is not one: not a moment ago
            return None
        if 0 <= seconds <= WITHIN_SECONDS:
            return {"seq": other["seq"], "seat": other["seat"], "seconds": seconds, "label": other["label"],
                    "said": other["said"], "payload": payload, "type": type_}
        if seconds > WITHIN_SECONDS:
            return None
    return None


def asked(db, done: dict) -> dict | None:
    """What a move just made (``store.act``'s answer) is asked, for the board and the API alike:
    {"seq", "seat", "seconds", "question"} of the same move by another seat a moment before, or None."""
    if not asked_about(done["payload"]["type"]):
        return None
    other = earlier_same(db, done["row"]["id"], done["seq"])
    if other is None:
        return None
    return {"seq": other["seq"], "seat": other["seat"], "seconds": round(other["seconds"], 1),
            "question": question(done["state"], other)}


def question(state: dict, other: dict) -> str:
    """What the second phone is asked: "Ben also took 1 HP from Nimitz 2 s ago. Same hit?"."""
    from companion.i18n import in_words
    p = other["payload"]
    ago = _("just now") if other["seconds"] < 1 else _("%(n)s s ago", n=round(other["seconds"]))
    label = in_words(other["label"], other.get("said"))  # the move as the asking phone reads it
    hit = games.hit_actions().get(other.get("type") or p.get("type"))
    if hit:  # a game's own hit: said as its log says it ("Raven takes 3 damage: ...")
        said = label if len(label) <= 90 else label[:90].rsplit(" ", 1)[0] + " …"
        return _("%(seat)s also recorded this %(ago)s: %(move)s. Same hit?", seat=other["seat"], ago=ago, move=said)
    unit = state["units"].get(p.get("unit") or "")
    tracker = (unit["trackers"] if unit else state["trackers"]).get(p.get("tracker"), {})
    what = tracker.get("label", p.get("tracker", ""))
    amount = p.get("amount") or abs(p.get("by") or 0) if "by" in p else p.get("n")
    op = "adjust" if other.get("payload", {}).get("type") == "adjust" else p.get("op")
    names = {"seat": other["seat"], "amount": amount, "what": what, "ago": ago, "move": label,
             "owner": unit["name"] if unit else ""}
    if op in DAMAGE_OPS and amount and (p.get("by", -1) < 0):
        return _("%(seat)s also took %(amount)s %(what)s from %(owner)s %(ago)s. Same hit?", **names) if unit else \
            _("%(seat)s also took %(amount)s %(what)s from the table %(ago)s. Same hit?", **names)
    if op in ("adjust", "move") and amount:
        return _("%(seat)s also added %(amount)s %(what)s to %(owner)s %(ago)s. Same move?", **names) if unit else \
            _("%(seat)s also added %(amount)s %(what)s to the table %(ago)s. Same move?", **names)
    if unit:
        return _("%(seat)s made this same change to %(owner)s's %(what)s %(ago)s (%(move)s). Same move?", **names)
    return _("%(seat)s made this same change to the table's %(what)s %(ago)s (%(move)s). Same move?", **names)


def still_counts(db, table_id: int, seq: int) -> bool:
    """Whether the other seat's change is still in force: if it was taken back (or undone) since
    the question, "Take mine back" would leave the hit not counted at all."""
    move = store.move_at(db, table_id, seq)
    return move is not None and not move["withdrawn"]
