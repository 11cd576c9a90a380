"""The saved library is no longer the whole host's (issue 15): an item remembers the table that
saved it, and only that table's players or the host (the device running the server) change or
delete it.  Items saved before (no owner) stay anyone's."""
from __future__ import annotations

import pytest

from companion import store
from companion.db import get_db
from companion.errors import RuleError
from table_actions import TableActions

PHONE_A, PHONE_B = "192.168.1.20", "192.168.1.21"


def seated(app, address: str, name: str) -> TableActions:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    actions = TableActions(client)
    actions.create(seat=name)
    actions.act(type="add-unit", name=f"{name}'s ship")
    return actions


def roster(app, name: str) -> dict:
    with app.app_context():
        return next(i for i in store.library_items(get_db(), "freeform", "roster") if i["name"] == name)


def save(actions: TableActions, name: str):
    return actions.client.post(f"/t/{actions.code}/library", data={"csrf_token": actions.csrf, "name": name})


def test_another_table_cannot_overwrite_a_saved_roster_but_its_own_table_and_the_host_can(app):
    anna, ben = seated(app, PHONE_A, "Anna"), seated(app, PHONE_B, "Ben")
    assert save(anna, "Home fleet").status_code == 303
    resp = save(ben, "Home fleet")
    assert resp.status_code == 400 and b"saved at another table" in resp.data
    assert roster(app, "Home fleet")["data"]["units"][0]["name"] == "Anna's ship"
    assert save(anna, "Home fleet").status_code == 303  # its own table may save it again
    assert save(ben, "Ben's fleet").status_code == 303  # and Ben saves his under his own name
    ben.client.environ_base["REMOTE_ADDR"] = "127.0.0.1"  # the host's own browser
    assert save(ben, "Home fleet").status_code == 303
    assert roster(app, "Home fleet")["data"]["units"][0]["name"] == "Ben's ship"


def test_an_owned_item_is_deleted_only_by_its_table_or_the_host(app):
    with app.app_context():
        db = get_db()
        item = store.library_save(db, "freeform", "roster", "Owned", {"units": []}, owner="AAAAAA")
        with pytest.raises(RuleError, match="saved at another table"):
            store.library_delete(db, item, owner="BBBBBB")
        with pytest.raises(RuleError, match="saved at another table"):
            store.library_save(db, "freeform", "roster", "Owned", {"units": [1]}, owner=None)
        store.library_delete(db, item, owner="BBBBBB", host=True)
        assert store.library_items(db, "freeform", "roster") == []
        old = store.library_save(db, "freeform", "roster", "Old", {"units": []})  # no owner: anyone's
        store.library_delete(db, old, owner="BBBBBB")
        assert store.library_items(db, "freeform", "roster") == []
