"""A rule's sentence on the screen carries the rulebook's section name, not our notes' line numbers
or seed numbers (issue 10 §5); the log and the API keep the full sentence."""
from companion.words import for_players
from test_dreadnaught_actions import DUEL
from tests.table_actions import seat_token


def test_seed_and_line_notes_leave_the_screen_and_the_section_name_stays():
    assert for_players("Only a single Ready card may be played (seed 000, Power Management).") == \
        "Only a single Ready card may be played (Power Management)."
    assert for_players("A fighter must resupply first (L132).") == "A fighter must resupply first."
    assert for_players("Out of arc (L12-L14, L40).") == "Out of arc."
    assert for_players("Burn 2 per turn (seed 001).") == "Burn 2 per turn."
    assert for_players("Needs 6 (seed 002 4.2, The Broadside).") == "Needs 6 (The Broadside)."


def test_a_sentence_without_notes_is_unchanged():
    text = "Choose a ship at this table (Bloody Reaver is sunk)."
    assert for_players(text) == text


def test_the_board_shows_a_refusal_without_notes_and_the_api_keeps_them(table):
    table.create(system="dreadnaught", name="Planet 7", sides="Anna, Ben", side="Anna")
    table.act(do="dn-setup", **{k: str(v) for k, v in DUEL.items()})
    resp = table.act(do="dn-fleet", trigger="pushed_to_edge", _control="turn")  # a duel has no fleets
    text = resp.get_data(as_text=True)
    assert resp.status_code == 400
    assert "is a multiplayer rule (Multiplayer Rules)." in text and "seed 000" not in text
    player = seat_token(table.client, table.code)  # Anna's own seat (issue 37)
    api = table.client.post(f"/api/tables/{table.code}/actions", json={"type": "dn-fleet", "trigger": "pushed_to_edge"},
                            headers={"Authorization": f"Bearer {player}"})
    assert api.status_code == 400 and "seed 000, Multiplayer Rules" in api.get_data(as_text=True)
