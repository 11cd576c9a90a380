"""Who sits at a table (issue 28 §4): the seats the log records, in join order.

A join is an event of its own type (``{"type": "join", "name", "side", "role"}``) written when a phone
takes a seat (companion/store/tables.py ``join``), so the table's seq moves and every phone's board follows
it.  It is not a move: it changes no state, is never on the undo chain (``actions.timeline`` skips
it) and can be neither undone nor taken back.  The table's first event counts as its creator's join
(the host's seat: the side chosen, else the first side, as the lobby seats them), so a table made
before joins were recorded still knows its host.

Pure: no Flask, no database.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _

JOIN = "join"
MAX_SEAT_NAME = 24  # a seat's name: what the join page and the lobby accept
ROLES = ("player", "spectator")
# what a join event may also say about a seat (issue 37): a phone asks to sit on a side that is held,
# an ask refused, a seat that left or was removed.  None of them seats anyone.
ASKING, REFUSED, LEFT = "asking", "refused", "left"
EVENT_ROLES = ROLES + (ASKING, REFUSED, LEFT)
AND = " & "  # several seats of one side, as one name ("Ann & Ben")
API_SEAT = "API"  # who an API client is when it names no seat (X-Seat): a program, not a player at the table


def seat_name(value, default: str = "") -> str:
    """The name a phone (or an API client, ``default``: "API") asks to sit as, as one line of words:
    the one reading of it, for the home page, the join page and the API alike."""
    name = " ".join(str(value or default).split())
    if not name:
        raise RuleError(_("Enter your name for this table (how the log shows you)."), "seat")
    if len(name) > MAX_SEAT_NAME:
        raise RuleError(_("Your name is at most %(most)s characters.", most=MAX_SEAT_NAME), "seat")
    return name


def chosen_side(sides: list[str], side: str | None) -> str | None:
    """The side a table's creator chose, refused if the table has no such side: never seated silently
    on another side than the one chosen (issue 10 §5); None: the first side (``host_side``)."""
    if side is not None and side not in [s.strip() for s in sides]:
        raise RuleError(_("Pick one of this table's sides (%(sides)s).", sides=", ".join(s.strip() for s in sides)), "side")
    return side


def host_side(sides: list[str], side: str | None) -> str | None:
    """The side the table's creator sits on: the one chosen if the table has it, else the first."""
    return side if side in sides else (sides[0] if sides else None)


def payload(name: str, side: str | None, role: str, by: str | None = None) -> dict:
    """A join's payload: the name as one line of words, a spectator on no side; ``by``: the seat that
    let this one in, refused its ask or removed it (issue 37)."""
    p = {"type": JOIN, "name": " ".join(str(name).split())[:MAX_SEAT_NAME],
         "side": None if role == "spectator" else side, "role": role}
    if by:
        p["by"] = " ".join(str(by).split())[:MAX_SEAT_NAME]
    return p


def check(p: dict, sides: list[str]) -> None:
    """A join's payload as stored (a live join's or an imported one): a seat's name, a side of the
    table for a player, none for a spectator; RuleError otherwise."""
    keys = {"type", "name", "side", "role"}
    if not isinstance(p, dict) or set(p) - {"by"} != keys or p["type"] != JOIN:
        raise RuleError(_("a join holds only a name, a side, a role and who let the seat in."), "seat")
    by = p.get("by", "x")
    if not isinstance(by, str) or not by or " ".join(by.split()) != by or len(by) > MAX_SEAT_NAME:
        raise RuleError(_("who let a seat in is a seat's name (1 to %(most)s characters).", most=MAX_SEAT_NAME), "seat")
    name = p["name"]
    if not isinstance(name, str) or not name or " ".join(name.split()) != name or len(name) > MAX_SEAT_NAME:
        raise RuleError(_("a seat's name is 1 to %(most)s characters.", most=MAX_SEAT_NAME), "seat")
    if p["role"] not in EVENT_ROLES:
        raise RuleError(_("a seat is a player or a spectator."), "seat")
    if p["role"] in (ASKING, REFUSED) and p["side"] not in sides:
        raise RuleError(_("a phone asks for one of the table's sides (%(sides)s).", sides=", ".join(sides)), "side")
    if p["role"] == "player" and p["side"] not in sides:
        raise RuleError(_("a player sits on one of the table's sides (%(sides)s).", sides=", ".join(sides)), "side")
    if p["role"] == "spectator" and p["side"] is not None:
        raise RuleError(_("a spectator sits on no side."), "side")


def label(p: dict) -> str:
    """The log's line: "Ben joined (Defender)", "Cleo joined as a spectator", "Ann let Dan in
    (Defender)", "Dan asks to sit with Defender", "Ann refused Dan's ask", "Ann removed Dan"."""
    name, side, role, by = p["name"], p.get("side"), p["role"], p.get("by")
    if role == ASKING:
        return Said("%(name)s asks to sit with %(side)s", name=name, side=side)
    if role == REFUSED:
        if by:
            return Said("%(by)s refused %(name)s's ask to sit with %(side)s", by=by, name=name, side=side)
        return Said("%(name)s's ask to sit with %(side)s lapsed", name=name, side=side)
    if role == LEFT:
        if by and by != name:
            return Said("%(by)s removed %(name)s from the table", by=by, name=name)
        return Said("%(name)s left the table", name=name)
    if role == "player":
        return Said("%(by)s let %(name)s in (%(side)s)", by=by, name=name, side=side) if by else \
            Said("%(name)s joined (%(side)s)", name=name, side=side)
    return Said("%(name)s joined as a spectator", name=name)


def fold(rows: list[dict], sides: list[str]) -> list[dict]:
    """The seats, in the order their names first sat down, each as its latest join says
    ({"name", "side", "role", "seq"}): the same name from another phone is the same player.
    ``rows``: the table's first event and its joins, oldest first ({"seq", "type", "seat",
    "side", "payload"})."""
    seats: dict[str, dict] = {}
    asks: dict[str, dict] = {}  # phones waiting to be let in (their names may be a seat's: a lost phone)
    for r in rows:
        if r["type"] == JOIN:
            p = r["payload"]
            if p["role"] == ASKING:
                asks[p["name"]] = {"name": p["name"], "side": p["side"], "role": ASKING, "seq": r["seq"]}
                continue
            asks.pop(p["name"], None)
            if p["role"] == LEFT:
                seats.pop(p["name"], None)
            if p["role"] in (REFUSED, LEFT):
                continue
            seat = {"name": p["name"], "side": p["side"], "role": p["role"]}
        elif r["seat"] and r["seat"].strip() and r["seat"] != API_SEAT:  # the first event: its creator's seat
            seat = {"name": " ".join(r["seat"].split()), "side": host_side(sides, r["side"]), "role": "player"}
        else:
            continue
        seats[seat["name"]] = {**seat, "seq": r["seq"]}
    return list(seats.values()) + list(asks.values())


def same_seat(seats: list[dict], p: dict) -> bool:
    """Whether the roster already has this seat as it is (nothing to record)."""
    return any(s["name"] == p["name"] and s["side"] == p["side"] and s["role"] == p["role"] for s in seats)


def names_on(seats: list[dict] | None, side: str | None) -> str:
    """The players seated on ``side``, as one name ("Ann & Ben"), or "" if nobody joined it."""
    return AND.join(s["name"] for s in seats or () if s["role"] == "player" and s["side"] == side)


def called(seats: list[dict] | None, side: str) -> str:
    """A side as the players read it: "Defender (Ben)" once someone sits there, else "Defender"."""
    names = names_on(seats, side)
    return f"{side} ({names})" if names and names != side else side
