"""What a phone does through the HTML forms: create a table, join it, act, undo (tests import it;
a module of its own, since two conftest.py files cannot both be imported as 'conftest')."""
from __future__ import annotations

import re


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
