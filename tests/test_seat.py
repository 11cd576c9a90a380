"""The seat cookie is checked once per distinct cookie (companion/seat.py), and that changes
nothing a phone can see: a forged or expired cookie is no seat, and what one request does to its
session never leaks into the next request with the same cookie."""
from __future__ import annotations

import time

from itsdangerous import URLSafeTimedSerializer

from companion import seat


def cookie_of(client, app) -> str:
    return client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session")).value


def test_a_cookie_is_checked_once_then_read_from_memory(app, table, monkeypatch):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    checked = []
    real = URLSafeTimedSerializer.loads
    monkeypatch.setattr(URLSafeTimedSerializer, "loads", lambda self, *a, **k: checked.append(1) or real(self, *a, **k))
    for _ in range(5):
        assert table.client.get(f"/t/{table.code}/poll?seq=999", headers={"HX-Request": "true"}).status_code == 200
    assert len(checked) == 1


def test_a_forged_cookie_is_no_seat(app, table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    good = cookie_of(table.client, app)
    assert table.client.get(f"/t/{table.code}").status_code == 200  # read and remembered
    body, sig = good.rsplit(".", 1)
    forged = body + "." + ("A" if sig[0] != "A" else "B") + sig[1:]
    other = app.test_client()
    other.set_cookie("session", forged)
    assert other.get(f"/t/{table.code}").status_code == 404  # not at the table


def test_a_cookie_older_than_a_year_is_no_seat_even_when_remembered(app, table, monkeypatch):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    assert table.client.get(f"/t/{table.code}").status_code == 200  # remembered now
    year = app.permanent_session_lifetime.total_seconds()
    later = time.time() + year + 60
    monkeypatch.setattr(seat.time, "time", lambda: later)
    assert table.client.get(f"/t/{table.code}").status_code == 404


def test_one_requests_change_does_not_reach_the_next(app, table):
    """Each request gets its own copy of the remembered contents: changing a seat deep inside one
    request's session leaves the next request with the same cookie as it was."""
    from flask import session

    table.create(seat="Anna", side="Red", sides="Red,Blue")
    cookie = {"Cookie": "session=" + cookie_of(table.client, app)}
    with app.test_request_context(f"/t/{table.code}", headers=cookie):
        kept = session["seats"][table.code]
        session["seats"][table.code] = "Mallory's token"
        session["csrf"] = "changed"
    with app.test_request_context(f"/t/{table.code}", headers=cookie):
        assert session["seats"][table.code] == kept
        assert session["csrf"] != "changed"
