"""The board page's size (issue 14: "Dreadfleet 5 warships a side: board page <= 40 KB raw"), built
from the same tables as scripts/benchmark.py's board_sizes (GAME_TABLES): bytes are deterministic, so
these are plain tests, not timed ones. A template change that blows the page up fails here; the unit
cards are folded out of their rows (companion/board), so the page holds every row and the
cards of the rows asked for open. Where the bytes go: python scripts/board_bytes.py."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from benchmark import GAME_TABLES  # noqa: E402

TARGET = 40 * 1024  # issue 14
# what each page measured once the unit cards were folded out of their rows (companion/board,
# 2026-11-26), with a little room: Dreadfleet 34,630 bytes, Empires of Dust 18,599, Dreadnaught 14,390
# (+ 700 each with issue 42: the menu's language switch, three languages in their own words)
CEILING = {"dreadfleet": 36_700, "empires-of-dust": 20_700, "dreadnaught": 16_700}


def csrf(client) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").get_data(as_text=True)).group(1)


class Table:
    """One of GAME_TABLES, set up through the API, and a player's phone seated at it."""

    def __init__(self, client, system):
        self.client = client
        created = client.post("/api/tables", json={"system": system, "name": "Size"}).get_json()
        self.code, secret = created["code"], created["seat_token"]
        self.auth = {"Authorization": f"Bearer {secret}"}
        for step in GAME_TABLES[system]:
            self.act(**step)
        side = self.state()["sides"][0]
        client.post("/" + created["player_url"].split("/", 3)[3], data={"csrf_token": csrf(client), "seat": "Bench",
                                                                        "side": side})

    def act(self, **step):
        resp = self.client.post(f"/api/tables/{self.code}/actions", json=step, headers=self.auth)
        assert resp.status_code == 200, resp.get_data(as_text=True)[:300]

    def state(self):
        return self.client.get(f"/api/tables/{self.code}", headers=self.auth).get_json()["state"]

    def page(self, open_units: str = "") -> str:
        return self.client.get(f"/t/{self.code}" + (f"?open={open_units}" if open_units else "")).get_data(as_text=True)

    def uid(self, name):
        return next(u["id"] for u in self.state()["units"].values() if u["name"] == name)


def unitbox(page: str, uid: str) -> str:
    """One unit's box on the board: from its div.unitbox to the next one (or the end of its side)."""
    start = page.index(f'<div class="unitbox" id="u-{uid}">')
    ends = [i for i in (page.find('<div class="unitbox"', start + 1), page.find("</section>", start)) if i > 0]
    return page[start:min(ends)]


@pytest.mark.parametrize("system", list(GAME_TABLES))
def test_the_board_page_stays_under_its_ceiling(client, system):
    page = Table(client, system).page().encode()
    assert len(page) <= CEILING[system], len(page)


@pytest.mark.parametrize("system", list(GAME_TABLES))
def test_the_board_page_is_at_most_40_kb(client, system):
    assert len(Table(client, system).page().encode()) <= TARGET


@pytest.mark.parametrize("system", list(GAME_TABLES))
def test_with_every_card_open_the_page_is_what_it_was(client, system):
    """Folding is only leaving out: every unit's card is still drawn for the phone that opens it."""
    table = Table(client, system)
    page, whole = table.page(), table.page("*")
    assert page.count("data-lazy>") == whole.count('class="unitcard"') > 0 and "data-lazy" not in whole
    assert len(whole.encode()) > 1.4 * len(page.encode())


def test_a_docked_auxiliary_sends_its_row_but_no_card_until_it_is_deployed(client):
    table = Table(client, "dreadfleet")
    dragon, seadrake = table.uid("Dragon 1 (Seadrake)"), table.uid("Seadrake")
    page = table.page()
    box = unitbox(page, dragon)
    # its row is there (hidden whole by dreadfleet.css, and a place for a poll's out-of-band swap) ...
    assert f'id="row-{dragon}"' in box and 'class="df-docked-row"' in box
    # ... but not the card nobody could open: no form, no trackers, no sealed-order control
    assert "<form" not in box and "data-tracker" not in box
    assert f'id="unit-{dragon}"' not in page and f'id="seal-{dragon}"' not in page
    # the warship carrying it still offers to deploy it
    table.act(type="df-activate", unit=seadrake)
    assert f"df-deploy unit={dragon}" in unitbox(table.page(seadrake), seadrake)
    table.act(type="df-deploy", unit=dragon)  # a flyer: no capsize test (seed 002, Auxiliaries)
    box = unitbox(table.page(dragon), dragon)
    assert f'id="unit-{dragon}"' in box and 'data-tracker="hull_damage"' in box and f'id="seal-{dragon}"' in box
    assert "df-docked-row" not in box


def test_the_decks_list_the_units_once(client):
    """A deck's "Drawn card goes to" select copies the units from #unit-options (static/js/units.js)
    instead of listing every unit again for each deck."""
    page = Table(client, "dreadfleet").page()
    assert page.count('<select id="unit-options"') == 1
    assert '<option value="unit:' not in page
    selects = re.findall(r'<select name="to"[^>]*>.*?</select>', page, re.S)
    assert len(selects) == 2  # the Damage deck and the Fate deck
    assert all('data-units data-unit-value="unit:"' in s and '<option value="discard">' in s for s in selects)


# Issue 41: a board's JavaScript no larger than at dcb459b, before the phone's script was modules
# (htmx 52,182 bytes, companion.js 41,973, NoSleep 16,732, connection.js 10,866, Dreadfleet's 2,223).
# Issue 42 adds the script's own words in the page's language (static/js/words.js): 200 bytes more.
SCRIPTS_CEILING = 123_976 + 200
IMPORT = re.compile(r'^import .*? from "(\./[\w-]+\.js)";$', re.M)


def scripts_loaded(client, page: str) -> dict[str, int]:
    """Every script a page loads, a module's imports followed: {url: raw bytes}."""
    todo, found = re.findall(r'<script[^>]* src="([^"]+)"', page), {}
    while todo:
        url = todo.pop()
        if url.split("?")[0] in {u.split("?")[0] for u in found}:
            continue
        with client.get(url) as resp:
            assert resp.status_code == 200, url
            body = resp.get_data()
        found[url] = len(body)
        todo += [url.rsplit("/", 1)[0] + "/" + name[2:] for name in IMPORT.findall(body.decode())]
    return found


def test_a_boards_javascript_is_no_larger_than_before_it_was_modules(client):
    loaded = scripts_loaded(client, Table(client, "dreadfleet").page())
    assert any(u.endswith("/push.js") for u in loaded) and any("htmx-" in u for u in loaded)
    assert sum(loaded.values()) <= SCRIPTS_CEILING, sorted(loaded.items(), key=lambda kv: -kv[1])
