"""Rule tables on a phone (issue 10 §6): no internal ids, prose as cards, a two-input lookup."""
from __future__ import annotations

import re

from companion.content import default_systems


def page(client, slug, table, query=""):
    resp = client.get(f"/systems/{slug}/tables/{table}{query}")
    assert resp.status_code == 200
    return resp.data.decode()


def test_no_internal_ids_on_screen(client):
    for slug, system in default_systems().items():
        for name, table in system.tables.items():
            if "Id" not in table["columns"]:
                continue
            html = page(client, slug, name)
            ids = [row[table["columns"].index("Id")] for row in table["rows"]]
            assert ">Id<" not in html
            assert not any(f">{i}<" in html for i in ids), (slug, name)


def test_rows_of_sentences_read_as_one_card_per_row(client):
    html = page(client, "empires-of-dust", "augmenters")
    assert 'class="rowcards"' in html and "<table" not in html
    assert html.count('<article class="rowcard">') == len(default_systems()["empires-of-dust"].tables["augmenters"]["rows"])


def test_a_numeric_grid_stays_a_table_with_a_sideways_scroller(client):
    html = page(client, "empires-of-dust", "penetration")
    assert 'class="rules grid"' in html and "data-scroll" in html and "data-swipe" in html


def test_the_penetration_table_answers_one_number_for_armour_and_penetration(client):
    table = default_systems()["empires-of-dust"].tables["penetration"]
    html = page(client, "empires-of-dust", "penetration", "?row=7&col=12")
    assert "<span>Armour rating</span>" in html and "<span>Penetration</span>" in html
    expected = table["rows"][7][13]  # row armour 7, column penetration 12 (first column holds the armour)
    assert re.search(rf"<output data-answer>{expected}</output>", html)


def test_tables_without_numeric_columns_have_no_lookup(client):
    assert "data-lookup" not in page(client, "dreadnaught", "card-burn")
    assert "data-lookup" not in page(client, "empires-of-dust", "ship-classes")
