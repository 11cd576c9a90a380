"""What a phone does through the HTML forms: create a table, join it, act, undo (tests import it;
a module of its own, since two conftest.py files cannot both be imported as 'conftest')."""
from __future__ import annotations

import hmac
import re
import secrets as _secrets


def table_secrets(app, code: str) -> tuple[str, str]:
    """(player, spectator) secrets of a table, read from the store: no invite page drawn and scraped
    (the QR codes made those reads a large part of the action tests' time, issue 29)."""
    from companion import store
    db = store.open_db(app.config["DATABASE"], migrate=False)
    try:
        row = store.table(db, code)
    finally:
        db.close()
    return row["player_secret"], row["spectator_secret"]


def csrf_of(client) -> str:
    """The client's CSRF token, read from (or put in) its session cookie as the app makes it
    (companion.web.csrf_token), with no page fetched."""
    with client.session_transaction() as session:
        if "csrf" not in session:
            session["csrf"] = _secrets.token_urlsafe(24)
        return session["csrf"]


def sit(client, code: str, secret: str, name: str, side: str | None = None) -> None:
    """Seat the client at a table as the join page would (companion.lobby.join: the secret says
    player or spectator; the store makes the seat and the cookie keeps its token), with no page
    fetched; a side another phone holds is let in by the table's host at once (the Allow tap), as a
    team's second phone is.  A wrong secret is an error, as the page's 404 was."""
    from companion import store
    player, spectator = table_secrets(client.application, code)
    role = "player" if hmac.compare_digest(secret, player) else "spectator" if hmac.compare_digest(secret, spectator) else None
    assert role, f"no such secret for table {code}"
    db = store.open_db(client.application.config["DATABASE"], migrate=False)
    try:
        token, status = store.ask_seat(db, code, name, side if role == "player" else None, role)
        if status == store.WAITING:
            host = next(s for s in store.table_seats(db, code) if s["host"])
            store.answer_ask(db, code, name, True, host)
    finally:
        db.close()
    with client.session_transaction() as session:
        session["seats"] = {**session.get("seats", {}), code: token}
        session.permanent = True


def token_on(app, code: str, side: str | None, name: str | None = None) -> str:
    """A seat's own token for a script playing ``side`` (issue 37: a side is the seat's, never a header):
    a seat of that side asked for with the player invitation, let in by the host if the side is held
    (a spectator's seat for ``side`` None).  The same name again gives the same seat's new token."""
    from companion import store
    player, spectator = table_secrets(app, code)
    name = name or f"Script {side or 'watching'}"
    db = store.open_db(app.config["DATABASE"], migrate=False)
    try:
        token, status = store.ask_seat(db, code, name, side, "player" if side else "spectator")
        if status == store.WAITING:
            host = next(s for s in store.table_seats(db, code) if s["host"])
            store.answer_ask(db, code, name, True, host)
    finally:
        db.close()
    return token


def seat_token(client, code: str) -> str:
    """The seat's own token this phone's cookie holds for a table (what a script sends as Bearer)."""
    with client.session_transaction() as session:
        return session["seats"][code]


class TableActions:
    """What a phone does: create a table, join it, act, undo (through the HTML forms)."""

    def __init__(self, client):
        self.client = client
        self.code = None

    @property
    def csrf(self) -> str:
        return csrf_of(self.client)

    def create(self, system="freeform", name="Test table", seat="Anna", side="", sides=""):
        resp = self.client.post("/tables", data={"csrf_token": self.csrf, "system": system, "name": name,
                                                 "seat": seat, "side": side, "sides": sides})
        assert resp.status_code == 303, resp.data
        self.code = resp.headers["Location"].split("/")[2]
        return self.code

    def secrets(self):
        return table_secrets(self.client.application, self.code)

    def act(self, htmx=True, **fields):
        headers = {"HX-Request": "true"} if htmx else {}
        return self.client.post(f"/t/{self.code}/act", data={"csrf_token": self.csrf, **fields},
                                headers=headers)

    def undo(self, redo=False):
        return self.client.post(f"/t/{self.code}/{'redo' if redo else 'undo'}",
                                data={"csrf_token": self.csrf}, headers={"HX-Request": "true"})

    def state(self):
        """The table's state as this phone's seat reads it (its own token as the API's Bearer)."""
        return self.client.get(f"/api/tables/{self.code}",
                               headers={"Authorization": f"Bearer {seat_token(self.client, self.code)}"}
                               ).get_json()["state"]
