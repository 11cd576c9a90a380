"""Who sits at a table (issue 28 §4): the seats the log records, in join order.

A join is an event of its own type (``{"type": "join", "name", "side", "role"}``) written when a phone
takes a seat (companion/store.py ``join``), so the table's seq moves and every phone's board follows
it.  It is not a move: it changes no state, is never on the undo chain (``actions.timeline`` skips
it) and can be neither undone nor taken back.  The table's first event counts as its creator's join
(the host's seat: the side chosen, else the first side, as the lobby seats them), so a table made
before joins were recorded still knows its host.

Pure: no Flask, no database.
"""
from __future__ import annotations

from companion.errors import RuleError

JOIN = "join"
MAX_SEAT_NAME = 24  # a seat's name: what the join page and the lobby accept
ROLES = ("player", "spectator")
AND = " & "  # several seats of one side, as one name ("Ann & Ben")
API_SEAT = "API"  # who an API client is when it names no seat (X-Seat): a program, not a player at the table


def host_side(sides: list[str], side: str | None) -> str | None:
    """The side the table's creator sits on: the one chosen if the table has it, else the first."""
    return side if side in sides else (sides[0] if sides else None)


def payload(name: str, side: str | None, role: str) -> dict:
    """A join's payload: the name as one line of words (an API's X-Seat may come with extra spaces),
    a spectator on no side."""
    return {"type": JOIN, "name": " ".join(str(name).split())[:MAX_SEAT_NAME],
            "side": side if role == "player" else None, "role": role}


def check(p: dict, sides: list[str]) -> None:
    """A join's payload as stored (a live join's or an imported one): a seat's name, a side of the
    table for a player, none for a spectator; RuleError otherwise."""
    if not isinstance(p, dict) or set(p) != {"type", "name", "side", "role"} or p["type"] != JOIN:
        raise RuleError("a join holds only a name, a side and a role.", "seat")
    name = p["name"]
    if not isinstance(name, str) or not name or " ".join(name.split()) != name or len(name) > MAX_SEAT_NAME:
        raise RuleError(f"a seat's name is 1 to {MAX_SEAT_NAME} characters.", "seat")
    if p["role"] not in ROLES:
        raise RuleError("a seat is a player or a spectator.", "seat")
    if p["role"] == "player" and p["side"] not in sides:
        raise RuleError(f"a player sits on one of the table's sides ({', '.join(sides)}).", "side")
    if p["role"] == "spectator" and p["side"] is not None:
        raise RuleError("a spectator sits on no side.", "side")


def label(p: dict) -> str:
    """The log's line: "Ben joined (Defender)", "Cleo joined as a spectator"."""
    return f"{p['name']} joined ({p['side']})" if p["role"] == "player" else f"{p['name']} joined as a spectator"


def fold(rows: list[dict], sides: list[str]) -> list[dict]:
    """The seats, in the order their names first sat down, each as its latest join says
    ({"name", "side", "role", "seq"}): the same name from another phone is the same player.
    ``rows``: the table's first event and its joins, oldest first ({"seq", "type", "seat",
    "side", "payload"})."""
    seats: dict[str, dict] = {}
    for r in rows:
        if r["type"] == JOIN:
            p = r["payload"]
            seat = {"name": p["name"], "side": p["side"], "role": p["role"]}
        elif r["seat"] and r["seat"].strip() and r["seat"] != API_SEAT:  # the first event: its creator's seat
            seat = {"name": " ".join(r["seat"].split()), "side": host_side(sides, r["side"]), "role": "player"}
        else:
            continue
        seats[seat["name"]] = {**seat, "seq": r["seq"]}
    return list(seats.values())


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
