"""Seats (issue 37): who sits at a table, each a row that belongs to its phone.

A seat is a row: its table, name, side, role, whether it is the host, who let it in, and a hash of
the seat's own token (the phone holds the token; the server never keeps it).
"""
from __future__ import annotations

import hashlib
import json
import secrets

from companion import roster
from companion.errors import Finished, RuleError
from companion.said import _
from companion.store.chain import now
from companion.store.engine import write_lock
from companion.store.tables import _append_join, _row

# A seat's status:
SEATED, WAITING, REFUSED, REMOVED = "seated", "waiting", "refused", "removed"
SEAT_COLUMNS = "s.id, s.name, s.side, s.role, s.host, s.status, t.code, t.locked"


def token_hash(token: str) -> str:
    return hashlib.sha256(str(token).encode("utf-8", "surrogatepass")).hexdigest()


def _seat(r) -> dict:
    locked = json.loads(r[7]).get("sides", []) if r[7] else []
    return {"id": r[0], "name": r[1], "side": r[2], "role": r[3], "host": bool(r[4]), "status": r[5], "code": r[6],
            "locked": r[2] in locked}


def seats_of_tokens(db, tokens: dict) -> dict:
    """{code: seat} of a phone's tokens ({code: token}): one indexed read however many tables; a
    token whose seat is not (or no longer) at that table is left out."""
    hashes = {token_hash(t): c for c, t in tokens.items() if isinstance(t, str)}
    if not hashes:
        return {}
    rows = db.execute(f"select {SEAT_COLUMNS}, s.token_hash from seats s join tables t on t.id = s.table_id "
                      "where s.token_hash in (select value from json_each(?)) and s.status = ?",
                      [json.dumps(list(hashes)), SEATED]).fetchall()
    return {r[6]: _seat(r) for r in rows if hashes.get(r[8]) == r[6]}


def seat_is_seated(db, code: str, seat_id: int) -> bool:
    return db.execute("select 1 from seats s join tables t on t.id = s.table_id where s.id = ? and t.code = ? "
                      "and s.status = ?", [seat_id, code, SEATED]).fetchone() is not None


def seated_ids(db, code: str) -> frozenset[int]:
    """The ids of the table's seats sitting now (every live stream of the table checks its own in it)."""
    return frozenset(r[0] for r in db.execute("select s.id from seats s join tables t on t.id = s.table_id "
                                              "where t.code = ? and s.status = ?", [code, SEATED]).fetchall())


def table_seats(db, code: str) -> list[dict]:
    """Every seat of a table that is sitting or asking, oldest first (the invitation page's list)."""
    rows = db.execute(f"select {SEAT_COLUMNS}, s.token_hash is not null, s.let_in_by from seats s join tables t "
                      "on t.id = s.table_id where t.code = ? and s.status in (?, ?) order by s.id",
                      [code, SEATED, WAITING]).fetchall()
    return [{**_seat(r), "held": bool(r[8]), "let_in_by": r[9]} for r in rows]


def _active(db, table_id: int) -> list[dict]:
    rows = db.execute("select id, name, side, role, host, status, token_hash from seats where table_id = ? "
                      "and status in (?, ?)", [table_id, SEATED, WAITING]).fetchall()
    return [{"id": r[0], "name": r[1], "side": r[2], "role": r[3], "host": bool(r[4]), "status": r[5],
             "held": r[6] is not None} for r in rows]


def _new_seat(db, row: dict, name: str, side, role: str, status: str, host: bool = False,
              let_in_by: str | None = None) -> str:
    token = secrets.token_urlsafe(24)
    db.conn.execute("insert into seats (table_id, token_hash, name, side, role, host, let_in_by, created, status)"
                    " values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [row["id"], token_hash(token), name, side if role != "spectator" else None, role, int(host),
                     let_in_by, now(), status])
    return token


def _event(db, row: dict, name: str, side, role: str, by: str | None = None) -> None:
    sides = json.loads(row["state"])["sides"] if isinstance(row["state"], str) else row["state"]["sides"]
    p = roster.payload(name, side, role, by)
    roster.check(p, sides)
    _append_join(db, row, p)


def host_seat(db, code: str, name: str, side: str | None, role: str = "player") -> str:
    """The table's maker sits down as its host (its first event already records the join)."""
    with write_lock(db, code=code):
        row = _row(db, code)
        return _new_seat(db, row, name, side, role, SEATED, host=True)


def ask_seat(db, code: str, name: str, side: str | None, role: str) -> tuple[str, str]:
    """A phone holding an invitation asks to sit: (its token, "seated" or "waiting").  A spectator, or a
    player on a side no phone holds yet, sits down at once (one scan, one tap); a player asking for a
    side a phone holds waits until a seat of that side or the host lets it in.  Names are unique per
    table; a name a seat already has on that side is a phone asking for its seat back (it waits too)."""
    with write_lock(db, code=code):
        row = _row(db, code)
        if row["finished"]:
            raise Finished(_("This game is finished: it can be browsed but nobody new sits down."), "seat")
        sides = json.loads(row["state"])["sides"]
        if role == "player" and side not in sides:
            raise RuleError(_("Pick the side you play."), "side")
        active = _active(db, row["id"])
        same = [s for s in active if s["name"].casefold() == name.casefold()]
        if any(s["status"] == WAITING for s in same):
            raise RuleError(_("A phone is already asking to sit as %(seat)s; wait for it to be let in, or pick "
                              "another name.", seat=name), "seat")
        chair = next((s for s in same if not s["held"] and s["side"] == (side if role == "player" else None)
                      and s["role"] == role), None)
        if same and not chair and not (role == "player" and any(s["side"] == side for s in same)):
            raise RuleError(_("Someone at this table is already called %(seat)s; pick another name.", seat=same[0]["name"]),
                            "seat")
        # (a script that made the table naming no seat, "API", is nobody at the table: roster.API_SEAT)
        held = role == "player" and any(s["status"] == SEATED and s["held"] and s["side"] == side
                                        and s["role"] == "player" and s["name"] != roster.API_SEAT for s in active)
        if role == "spectator" or not held:
            if chair:  # a seat the log knows that no phone holds (from before seats, or an import)
                token = secrets.token_urlsafe(24)
                db.conn.execute("update seats set token_hash = ? where id = ?", [token_hash(token), chair["id"]])
                return token, SEATED
            if same:  # the name's seat is on this side but its phone is gone, and nobody else holds it
                db.conn.execute("update seats set status = ? where id in (select cast(value as integer) from json_each(?))",
                                [REMOVED, json.dumps([s["id"] for s in same])])
                token = _new_seat(db, row, same[0]["name"], side, role, SEATED, host=any(s["host"] for s in same))
                return token, SEATED
            token = _new_seat(db, row, name, side, role, SEATED)
            _event(db, row, name, side, role)
            return token, SEATED
        token = _new_seat(db, row, name, side, role, WAITING)
        _event(db, row, name, side, roster.ASKING)
        return token, WAITING


def claim_chair(db, code: str, name: str, side, role: str) -> str | None:
    """A phone with a cookie from before seats were rows (it names its seat) takes that seat's chair once,
    if no phone holds it yet: a token for it, or None.  The cookie was signed by this server."""
    with write_lock(db, code=code):
        found = db.execute("select s.id from seats s join tables t on t.id = s.table_id where t.code = ? and "
                           "s.name = ? and s.role = ? and s.side is ? and s.token_hash is null and s.status = ?",
                           [code, name, role, side if role == "player" else None, SEATED]).fetchone()
        if not found:
            return None
        token = secrets.token_urlsafe(24)
        db.conn.execute("update seats set token_hash = ? where id = ?", [token_hash(token), found[0]])
        return token


def screen_seat(db, code: str, name: str) -> str:
    """A display's seat (a TV that joined by the Display QR): a spectator that reads what every spectator
    reads, named "Display", "Display 2" ... (names are unique), and no join in the log: a screen is
    not someone at the table (issue 40 §6).  Its token."""
    with write_lock(db, code=code):
        row = _row(db, code)
        taken = {s["name"].casefold() for s in _active(db, row["id"])}
        n = 1
        while (f"{name} {n}" if n > 1 else name).casefold() in taken:
            n += 1
        return _new_seat(db, row, f"{name} {n}" if n > 1 else name, None, "spectator", SEATED)


def answer_ask(db, code: str, name: str, allow: bool, by: dict) -> None:
    """A seat of the asked-for side (or the host) lets a waiting phone in, or refuses it.  Let in as a
    name a seat already has: that seat moves to the new phone (the old one lost its cookie)."""
    with write_lock(db, code=code):
        row = _row(db, code)
        active = _active(db, row["id"])
        ask = next((s for s in active if s["status"] == WAITING and s["name"] == name), None)
        if ask is None:
            raise RuleError(_("Nobody is asking to sit as %(seat)s now.", seat=name), "ask")
        if not (by.get("host") or (by["role"] == "player" and by.get("side") == ask["side"])):
            raise RuleError(_("Only a seat of %(side)s or the host lets someone sit with %(side)s.", side=ask["side"]), "ask")
        if not allow:
            db.conn.execute("update seats set status = ? where id = ?", [REFUSED, ask["id"]])
            _event(db, row, name, ask["side"], roster.REFUSED, by["name"])
            return
        old = [s for s in active if s["status"] == SEATED and s["name"] == name]
        if old:
            db.conn.execute("update seats set status = ? where id in (select cast(value as integer) from json_each(?))",
                            [REMOVED, json.dumps([s["id"] for s in old])])
        db.conn.execute("update seats set status = ?, let_in_by = ?, host = ? where id = ?",
                        [SEATED, by["name"], int(any(s["host"] for s in old)), ask["id"]])
        _event(db, row, name, ask["side"], "player", by["name"])


def ask_status(db, code: str, token: str) -> dict | None:
    """A waiting phone's ask as it stands: {"status": "waiting" / "seated" / "refused" / "removed",
    "name", "side"}, or None (no such ask)."""
    found = db.execute("select s.status, s.name, s.side from seats s join tables t on t.id = s.table_id "
                       "where t.code = ? and s.token_hash = ?", [code, token_hash(token)]).fetchone()
    return {"status": found[0], "name": found[1], "side": found[2]} if found else None


def remove_seat(db, code: str, name: str, by: dict) -> None:
    """The host removes a seat (or a seat leaves: ``by`` is itself): its token stops working at once."""
    with write_lock(db, code=code):
        row = _row(db, code)
        found = [s for s in _active(db, row["id"]) if s["name"] == name and s["status"] == SEATED]
        if not found:
            raise RuleError(_("Nobody sits at this table as %(seat)s.", seat=name), "seat")
        if by["name"] != name and not by.get("host"):
            raise RuleError(_("Only the host removes a seat."), "seat")
        if any(s["host"] for s in found) and by["name"] == name and len(_active(db, row["id"])) > 1:
            raise RuleError(_("Hand the host's role to another seat before you leave."), "seat")
        db.conn.execute("update seats set status = ? where id in (select cast(value as integer) from json_each(?))",
                        [REMOVED, json.dumps([s["id"] for s in found])])
        _event(db, row, name, found[0]["side"], roster.LEFT, by["name"] if by["name"] != name else None)


def hand_host(db, code: str, name: str, by: dict) -> None:
    with write_lock(db, code=code):
        row = _row(db, code)
        if not by.get("host"):
            raise RuleError(_("Only the host hands the host's role on."), "seat")
        found = [s for s in _active(db, row["id"]) if s["name"] == name and s["status"] == SEATED]
        if not found:
            raise RuleError(_("Nobody sits at this table as %(seat)s.", seat=name), "seat")
        db.conn.execute("update seats set host = 0 where table_id = ?", [row["id"]])
        db.conn.execute("update seats set host = 1 where id = ?", [found[0]["id"]])


def unlock_side(db, code: str, side: str) -> None:
    """A locked side of an imported table (hidden.boxed_sides) proved itself: its seats read its parts."""
    with write_lock(db, code=code):
        row = _row(db, code)
        locked = json.loads(row["locked"]) if row.get("locked") else {}
        locked["sides"] = [s for s in locked.get("sides", []) if s != side]
        db.conn.execute("update tables set locked = ? where id = ?", [json.dumps(locked), row["id"]])


def new_links(db, code: str) -> None:
    """Fresh invitation secrets: the links and QR codes shared so far stop working (seats stay)."""
    with write_lock(db, code=code):
        db.conn.execute("update tables set player_secret = ?, spectator_secret = ? where code = ?",
                        [secrets.token_urlsafe(16), secrets.token_urlsafe(16), code])
