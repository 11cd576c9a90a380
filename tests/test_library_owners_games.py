"""The games' saved libraries have owners (issue 15): a Dreadfleet warship or deck list, an Empires
of Dust fleet, an Astral Action ship card, a Talon class belongs to the table that saved it; a
player at another table of the same game cannot overwrite or delete it; its own table and the host
(the device running the server) can."""
from __future__ import annotations

import json

from companion import store
from companion.db import get_db, systems
from table_actions import TableActions
from test_astral_action_actions import KINETIC
from test_dreadfleet_actions import HULL_DECK, STATS

PHONE_A, PHONE_B, HOST = "192.168.1.20", "192.168.1.21", "127.0.0.1"
HX = {"HX-Request": "true"}


def seated(app, address: str, system: str, seat: str, side: str = "") -> TableActions:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    actions = TableActions(client)
    actions.create(system=system, seat=seat, side=side)
    return actions


def post(t: TableActions, path: str, **form):
    return t.client.post(f"/t/{t.code}/{path}", data={"csrf_token": t.csrf, **form}, headers=HX)


def item(app, system: str, kind: str, name: str) -> dict | None:
    with app.app_context():
        found = [i for i in store.library_items(get_db(), system, kind) if i["name"] == name]
        return store.library_item(get_db(), found[0]["id"]) if found else None


def refused(resp) -> bool:
    return resp.status_code == 400 and "saved at another table" in resp.get_data(as_text=True)


# --- Dreadfleet: warships and deck lists ----------------------------------------------------------

def warship(t: TableActions, name: str, **stats):
    return post(t, "dreadfleet/warships", name=name, _control="df-editor",
                **{f"stats.{k}": v for k, v in {**STATS, **stats}.items()})


def test_dreadfleet_warships_and_decks_belong_to_the_table_that_saved_them(app):
    anna, ben = seated(app, PHONE_A, "dreadfleet", "Anna"), seated(app, PHONE_B, "dreadfleet", "Ben")
    assert warship(anna, "Skabrus").status_code == 200
    saved = item(app, "dreadfleet", "warship", "Skabrus")
    assert saved["owner"] == anna.code
    assert refused(warship(ben, "Skabrus", crew=2))
    assert refused(post(ben, f"dreadfleet/warships/{saved['id']}/delete"))
    assert item(app, "dreadfleet", "warship", "Skabrus")["data"] == saved["data"]
    exported = anna.client.get(f"/t/{anna.code}/dreadfleet/warships.json").get_data(as_text=True)
    changed = json.loads(exported)
    changed["cards"][0]["crew"] = 2
    assert refused(post(ben, "dreadfleet/warships/import", text=json.dumps(changed), _control="df-import"))
    # the same card imported again changes nothing and is no refusal (a fleet shared on one server, issue 28 §6)
    assert post(ben, "dreadfleet/warships/import", text=exported, _control="df-import").status_code == 200
    assert item(app, "dreadfleet", "warship", "Skabrus")["owner"] == anna.code
    assert warship(anna, "Skabrus", crew=2).status_code == 200  # its own table may change it
    assert item(app, "dreadfleet", "warship", "Skabrus")["data"] != saved["data"]

    assert post(anna, "dreadfleet/decks", deck="damage", name="Mine", cards=HULL_DECK).status_code == 200
    deck = item(app, "dreadfleet", "deck", "Mine")
    assert deck["owner"] == anna.code
    assert refused(post(ben, "dreadfleet/decks", deck="damage", name="Mine", cards="Hull hit; Hull; 1; x10"))
    assert refused(post(ben, f"dreadfleet/decks/{deck['id']}/delete"))
    ben.client.environ_base["REMOTE_ADDR"] = HOST  # the host's own browser may tidy the library
    assert post(ben, f"dreadfleet/decks/{deck['id']}/delete").status_code == 200
    assert item(app, "dreadfleet", "deck", "Mine") is None
    assert post(anna, f"dreadfleet/warships/{saved['id']}/delete").status_code == 200
    assert item(app, "dreadfleet", "warship", "Skabrus") is None


# --- Empires of Dust: fleets ----------------------------------------------------------------------

def test_empires_of_dust_fleets_belong_to_the_table_that_saved_them(app):
    anna = seated(app, PHONE_A, "empires-of-dust", "Anna")
    ben = seated(app, PHONE_B, "empires-of-dust", "Ben")
    with app.app_context():
        ships = systems()["empires-of-dust"].fleets["average-fleet"]["ships"]
    doc = {"format": "empires-of-dust-fleet", "version": 1, "name": "Strike group", "ships": ships}
    assert post(anna, "eod/fleets/import", json=json.dumps(doc)).status_code == 200
    saved = item(app, "empires-of-dust", "fleet", "Strike group")
    assert saved["owner"] == anna.code
    assert refused(post(ben, "eod/fleets/import", json=json.dumps({**doc, "ships": ships[:1]})))
    assert refused(post(ben, f"eod/fleets/{saved['id']}/delete"))
    assert item(app, "empires-of-dust", "fleet", "Strike group")["data"] == saved["data"]
    assert post(anna, f"eod/fleets/{saved['id']}/delete").status_code == 200
    assert item(app, "empires-of-dust", "fleet", "Strike group") is None


# --- Astral Action: Ship Information Cards -------------------------------------------------------

def design(t: TableActions, name: str, size: int):
    form = {"_control": "aa-designer", "name": name, "size": str(size), "chart.miss": "2",
            "chart.glance": "4", "movement": "2:3/2 3:2/1", "eq.0.slot": KINETIC["slot"],
            "eq.0.item": KINETIC["item"], "eq.0.variant": "", "eq.0.linked": "", "eq.0.arcs": KINETIC["arcs"]}
    return post(t, "astral-action/cards", **form)


def test_astral_action_ship_cards_belong_to_the_table_that_saved_them(app):
    anna = seated(app, PHONE_A, "astral-action", "Anna")
    ben = seated(app, PHONE_B, "astral-action", "Ben")
    assert design(anna, "Falcon", 2).status_code == 200
    saved = item(app, "astral-action", "sic", "Falcon")
    assert saved["owner"] == anna.code
    assert refused(design(ben, "Falcon", 3))
    assert refused(post(ben, f"astral-action/cards/{saved['id']}/delete"))
    exported = anna.client.get(f"/t/{anna.code}/astral-action/cards.json").get_data(as_text=True)
    changed = json.loads(exported)
    changed["cards"][0]["chart"]["glance"] = 5
    assert refused(post(ben, "astral-action/cards/import", text=json.dumps(changed), _control="aa-import"))
    assert post(ben, "astral-action/cards/import", text=exported, _control="aa-import").status_code == 200
    assert item(app, "astral-action", "sic", "Falcon")["owner"] == anna.code
    assert item(app, "astral-action", "sic", "Falcon")["data"] == saved["data"]
    assert design(anna, "Falcon", 3).status_code == 200
    assert item(app, "astral-action", "sic", "Falcon")["data"]["size"] == 3


# --- Talon: classes saved from a ship ------------------------------------------------------------

def test_talon_classes_belong_to_the_table_that_saved_them(app):
    anna = seated(app, PHONE_A, "talon", "Anna", side="Terran")
    ben = seated(app, PHONE_B, "talon", "Ben", side="Terran")
    for t in (anna, ben):
        assert t.act(type="talon-ship", cls="terran-dd", name="Zhukov").status_code == 200
    assert post(anna, "talon/classes", unit="u1", class_name="Our DD", _control="unit-u1").status_code == 200
    saved = item(app, "talon", "class", "Our DD")
    assert saved["owner"] == anna.code
    assert refused(post(ben, "talon/classes", unit="u1", class_name="Our DD", _control="unit-u1"))
    assert item(app, "talon", "class", "Our DD")["data"] == saved["data"]
    ben.client.environ_base["REMOTE_ADDR"] = HOST
    assert post(ben, "talon/classes", unit="u1", class_name="Our DD", _control="unit-u1").status_code == 200


def test_the_library_asks_who_is_host_from_the_web_plumbing_not_from_the_play_blueprint():
    """companion.games.library sits under the games' views; reaching up into companion.play for
    is_host made a game-level module import the board's blueprint."""
    import ast
    import inspect

    from companion import web
    from companion.games import library
    imported = {node.module for node in ast.walk(ast.parse(inspect.getsource(library)))
                if isinstance(node, ast.ImportFrom)}
    assert imported.isdisjoint({"companion.play", "companion.lobby", "companion.api"}), imported
    assert library.is_host is web.is_host and web.is_host.__module__ == "companion.web"
