"""Shared fixtures: an app on a temporary database, a client, and a helper for table actions."""
from __future__ import annotations

import re

import pytest

from companion import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite"),
                       "SECRET_KEY": "test-key"})


@pytest.fixture
def client(app):
    return app.test_client()


class TableActions:
    """What a phone does: create a table, join it, act, undo (through the HTML forms)."""

    def __init__(self, client):
        self.client = client
        self.code = None

    @property
    def csrf(self) -> str:
        page = self.client.get("/").data.decode()
        return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)

    def create(self, system="freeform", name="Test table", seat="Anna", side="", sides=""):
        resp = self.client.post("/tables", data={"csrf_token": self.csrf, "system": system, "name": name,
                                                 "seat": seat, "side": side, "sides": sides})
        assert resp.status_code == 303, resp.data
        self.code = resp.headers["Location"].split("/")[2]
        return self.code

    def secrets(self):
        page = self.client.get(f"/t/{self.code}/invite").data.decode()
        player = re.search(r'id="player-url">[^<]*/join/([^<]+)</a>', page).group(1)
        spectator = re.search(r'id="spectator-url">[^<]*/join/([^<]+)</a>', page).group(1)
        return player, spectator

    def act(self, htmx=True, **fields):
        headers = {"HX-Request": "true"} if htmx else {}
        return self.client.post(f"/t/{self.code}/act", data={"csrf_token": self.csrf, **fields},
                                headers=headers)

    def undo(self, redo=False):
        return self.client.post(f"/t/{self.code}/{'redo' if redo else 'undo'}",
                                data={"csrf_token": self.csrf}, headers={"HX-Request": "true"})

    def state(self):
        player, _ = self.secrets()
        return self.client.get(f"/api/tables/{self.code}",
                               headers={"Authorization": f"Bearer {player}"}).get_json()["state"]


@pytest.fixture
def table(client):
    actions = TableActions(client)
    yield actions
    if actions.code:
        check_round_trip(client.application, actions.code)


def check_round_trip(app, code: str) -> None:
    """Every table a test played, whatever the game: export -> import gives the same state, undo and
    redo behave the same on both, and the import exports again to the same events."""
    from companion import store
    from companion.actions import Ctx
    from companion.db import get_db, systems
    from companion.rules import RuleError

    with app.app_context():
        db = get_db()
        doc = store.export(db, code)
        copy = store.import_table(db, doc, systems())["code"]
        keep = ("seq", "seat", "side", "type", "label", "payload")
        assert [{k: e[k] for k in keep} for e in store.export(db, copy)["events"]] == \
            [{k: e[k] for k in keep} for e in doc["events"]]
        if store.table(db, code)["finished"]:
            return
        ctx = Ctx(system=systems()[doc["system"]], rng=None, seat="Check")
        for redo in (False, False, False, True, True):
            outcome = []
            for c in (code, copy):
                try:
                    store.undo(db, c, ctx, redo=redo)
                    outcome.append(store.table(db, c)["state"])
                except RuleError as exc:
                    outcome.append(exc.message)
            assert outcome[0] == outcome[1]
