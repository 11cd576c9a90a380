"""Forms that neither lie nor stick (issue 10 §4), the server's part."""
from __future__ import annotations

from companion.play import cards_from_text


def test_a_tracker_form_with_another_kinds_fields_left_in_adds_the_chosen_kind(table):
    table.create()
    table.act(type="add-unit", name="Victory", **{"stats.hp": "10"})
    # the fields a box track left behind, then a counter chosen: only min/max/start count
    resp = table.act(type="add-tracker", unit="u1", _control="add-tracker",
                     **{"spec.kind": "counter", "spec.label": "Crew", "spec.min": "0", "spec.max": "6",
                        "spec.start": "6", "spec.count": "5", "spec.flagged": "4 5", "spec.options": "Burning"})
    assert resp.status_code == 200, resp.data
    crew = table.state()["units"]["u1"]["trackers"]["crew"]
    assert crew["kind"] == "counter" and crew["value"] == 6 and crew["max"] == 6
    resp = table.act(type="add-tracker", unit="u1", _control="add-tracker",
                     **{"spec.kind": "boxes", "spec.label": "Hull", "spec.count": "4", "spec.max": "6",
                        "spec.start": "6", "spec.flagged": "4"})
    assert resp.status_code == 200, resp.data
    hull = table.state()["units"]["u1"]["trackers"]["hull"]
    assert hull["kind"] == "boxes" and len(hull["marked"]) == 4 and hull["flagged"] == [3]


def test_players_type_their_own_cards_one_per_line(table):
    table.create()
    resp = table.act(do="deck-load deck=deck source=typed", definition="example", _control="deck-deck",
                     cards_text="Broadside!\nFire! | Special | 3\n\nFire! | Special | 3\n")
    assert resp.status_code == 200, resp.data
    deck = table.state()["decks"]["deck"]
    names = sorted(deck["cards"][c]["name"] for c in deck["draw"])
    assert names == ["Broadside!", "Fire!", "Fire!"]  # not the example deck selected beside it
    fire = next(c for c in deck["cards"].values() if c["name"] == "Fire!")
    assert fire["type"] == "Special" and fire["value"] == 3


def test_an_empty_card_list_is_refused_next_to_the_deck(table):
    table.create()
    resp = table.act(do="deck-load deck=deck source=typed", cards_text="\n  \n", _control="deck-deck")
    assert resp.status_code == 400 and resp.headers["HX-Retarget"] == "#deck-deck-err"
    assert "at least one" in resp.data.decode()
    assert table.state()["decks"]["deck"]["draw"] == []


def test_the_example_button_still_loads_the_example(table):
    table.create()
    resp = table.act(do="deck-load deck=deck", definition="example", cards_text="Mine", _control="deck-deck")
    assert resp.status_code == 200
    deck = table.state()["decks"]["deck"]
    assert "Mine" not in [c["name"] for c in deck["cards"].values()] and len(deck["draw"]) == 6


def test_cards_from_text_reads_name_type_value():
    assert cards_from_text("A\n B | T \nC | | 2\n\n") == [{"name": "A"}, {"name": "B", "type": "T"},
                                                         {"name": "C", "value": 2}]


def test_the_deck_set_up_offers_a_box_for_own_cards(client, table):
    table.create()
    page = client.get(f"/t/{table.code}").data.decode()
    assert 'name="cards_text"' in page and "Load my cards and shuffle" in page
