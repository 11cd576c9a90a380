"""The big screen's pages (issue 26; companion/display.py): a spectator's view whoever opens it, joined
by the lobby's Display QR without a question, each part on its own URL, bad options refused."""
from __future__ import annotations

import re

import pytest

from table_actions import TableActions

SECRET = "ram the flagship at dusk"


@pytest.fixture
def played(table):
    """Anna (Red) has two ships, a sealed order for hers and a success pool rolled."""
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    table.act(do="add-unit", name="Raven", side="Blue", hp=10)
    assert table.act(do="seal unit=u1", text=SECRET, _control="seal-u1").status_code == 200
    table.act(do="adjust unit=u2 tracker=hp by=-3")
    table.act(do="pool", dice=5, target=4)
    return table


def test_the_display_shows_a_spectators_view_even_to_the_sealing_player(played):
    page = played.client.get(f"/t/{played.code}/display").data.decode()
    assert SECRET not in page, "the room reads the TV: no side's sealed order on it"
    assert "✉ sealed order" in page
    assert re.search(r'data-unit="u2".*?<b data-left>7</b><span class="dsp-of">/10', page, re.S)
    assert re.search(r"\d+ (success|successes) of 5 dice · \d+% to do this well", page)
    assert "Round 1" in page and 'data-phase>' in page
    # each side names who sits there, as the board does (issue 28 §4)
    assert re.search(r'data-side="Red"[^>]*>\s*<h2>Red <small class="seated">Anna</small></h2>', page)
    assert re.search(r'data-side="Blue"[^>]*>\s*<h2>Blue</h2>', page)


def test_the_display_qr_joins_as_a_spectator_without_a_question_and_keeps_a_seat(app, played):
    _, spectator = played.secrets()
    invite = played.client.get(f"/t/{played.code}/invite").data.decode()
    url = re.search(r'id="display-url">([^<]+)</a>', invite).group(1)
    assert url.endswith(f"/t/{played.code}/display/join/{spectator}")
    tv = TableActions(app.test_client())
    resp = tv.client.get(f"/t/{played.code}/display/join/{spectator}?overlay=1&theme=day")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/t/{played.code}/display?overlay=1&theme=day")
    assert tv.client.get(f"/t/{played.code}/display").status_code == 200
    assert tv.client.post(f"/t/{played.code}/act", data={"csrf_token": tv.csrf, "do": "next-phase"}).status_code == 403
    # Anna's phone opening the Display QR keeps her player seat
    played.client.get(f"/t/{played.code}/display/join/{spectator}")
    assert played.act(do="next-phase").status_code == 200
    assert app.test_client().get(f"/t/{played.code}/display/join/wrong").status_code == 404
    assert app.test_client().get(f"/t/{played.code}/display").status_code == 404  # no seat, no secret


def test_each_part_has_its_own_url_and_bad_options_are_refused(played):
    c, code = played.client, played.code
    turn = c.get(f"/t/{code}/display/turn?overlay=1").data.decode()
    assert 'data-part="turn"' in turn and 'data-part="side"' not in turn and 'class="dsp-html overlay"' in turn
    roll = c.get(f"/t/{code}/display/last-roll").data.decode()
    assert 'data-part="last-roll"' in roll and 'data-part="turn"' not in roll
    side = c.get(f"/t/{code}/display/side/Blue?theme=broadcast").data.decode()
    assert 'data-side="Blue"' in side and "Falcon" not in side and 'data-dsp-theme="broadcast"' in side
    assert c.get(f"/t/{code}/display/side/Green").status_code == 404
    bad = c.get(f"/t/{code}/display?theme=neon")
    assert bad.status_code == 400 and "theme is one of night, day, broadcast." in bad.data.decode()
    bad = c.get(f"/t/{code}/display?overlay=yes")
    assert bad.status_code == 400 and "overlay is 1" in bad.data.decode()
    body = c.get(f"/t/{code}/display", headers={"X-Display-Body": "1"}).data.decode()
    assert body.lstrip().startswith("<header") and "<html" not in body


GAMES = ("astral-action", "dreadfleet", "dreadnaught", "empires-of-dust", "talon")


@pytest.mark.parametrize("slug", GAMES)
def test_every_games_openings_draw_on_the_display_and_in_the_feed(app, slug):
    """Each game's openings (tests/property_data: what its action tests set up) drawn on the display,
    whole and by part, and read by the feed: the game's own _display.html and every unit's trackers."""
    import json
    import random
    from pathlib import Path

    from companion import feed, replay, store
    from companion.db import get_db, systems
    from property_steps import start

    doc = json.loads((Path(__file__).parent / "property_data" / f"{slug}.json").read_text())
    client, drawn = app.test_client(), 0
    for n, opening in enumerate(doc["openings"]):
        play = start(slug, doc["phrases"], opening, random.Random(n).choice, n)
        with app.app_context():
            row = replay.import_table(get_db(), replay.export(play.db, play.code), systems())
            spectator = store.table(get_db(), row["code"])["spectator_secret"]
            assert set(feed.main_trackers(row["state"])) == {
                uid for uid in row["state"]["unit_order"] if not row["state"]["units"][uid].get("removed")}
        seen = {"Authorization": f"Bearer {spectator}"}
        for path in ("", "/turn", "/last-roll", f"/side/{row['state']['sides'][0]}"):
            resp = client.get(f"/t/{row['code']}/display{path}", headers=seen)
            assert resp.status_code == 200, (slug, n, path, resp.data[:300])
        drawn += 1
    assert drawn
