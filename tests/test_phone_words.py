"""Dead ends and words players use (issue 10 §5): the bar offers only what works, Undo names what it
takes back, the lobby's side is a choice of the table's sides, colours readable in both themes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parent.parent / "static" / "companion.css"


def board(client, code):
    return client.get(f"/t/{code}").data.decode()


def bar(page):
    return page[page.index('<nav class="bar"'):page.index("</nav>", page.index('<nav class="bar"'))]


@pytest.mark.parametrize("system, cards", [("freeform", True), ("dreadfleet", True),
                                           ("dreadnaught", False), ("empires-of-dust", False)])
def test_the_bar_offers_cards_only_in_games_with_decks(client, table, system, cards):
    table.create(system=system)
    assert ('href="#decks"' in bar(board(client, table.code))) is cards


def test_a_spectator_has_no_dice_button_because_there_is_no_dice_card(app, table):
    table.create()
    _, spectator = table.secrets()
    watcher = app.test_client()
    form = watcher.get(f"/t/{table.code}/join/{spectator}").data.decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    watcher.post(f"/t/{table.code}/join/{spectator}", data={"csrf_token": token, "seat": "Sam"})
    page = board(watcher, table.code)
    assert 'id="dice"' not in page and 'href="#dice"' not in bar(page)
    assert 'href="#dice"' in bar(board(table.client, table.code))


@pytest.mark.parametrize("system", ["dreadfleet", "dreadnaught", "empires-of-dust"])
def test_no_units_never_points_to_a_form_that_cannot_add_one(client, table, system):
    table.create(system=system)
    page = board(client, table.code)
    assert 'href="#add"' not in page
    assert "helpers below" in page and 'href="#helpers"' in page and 'id="helpers"' in page


def test_freeform_no_units_links_to_the_add_form(client, table):
    table.create()
    page = board(client, table.code)
    assert 'href="#add">Add one' in page and 'id="add"' in page


def test_undo_shows_the_whole_label_and_asks_only_before_undoing_another_seat(app, client, table):
    table.create(seat="Anna")
    table.act(type="add-unit", name="The Bloody Reaver of the Southern Seas", **{"stats.hp": "10"})
    table.act(do="adjust unit=u1 tracker=hp by=-3")
    page = bar(board(client, table.code))
    label = "Anna: The Bloody Reaver of the Southern Seas HP -3 (10 → 7)"
    assert f"<small data-undo-label>{label}</small>" in page
    # the board is the view's: it names whose move Undo takes back, the page names the seat, and
    # static/js/ask.js lets Anna's own move go in one tap (tests/browser/test_phone_deadends.py)
    assert f'data-undo="{label}"' in page
    assert 'data-seat="Anna"' in client.get(f"/t/{table.code}").data.decode()
    player, _ = table.secrets()
    ben = app.test_client()
    form = ben.get(f"/t/{table.code}/join/{player}").data.decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    ben.post(f"/t/{table.code}/join/{player}", data={"csrf_token": token, "seat": "Ben", "side": "Side B"})
    assert f'hx-confirm="Undo {label}?"' in bar(board(ben, table.code))


def test_new_table_offers_the_games_sides_and_refuses_a_side_not_at_the_table(client, table):
    home = client.get("/").data.decode()
    select = home[home.index('<select name="side"'):home.index("</select>", home.index('<select name="side"'))]
    assert 'value="Grand Alliance" data-system="dreadfleet"' in select
    resp = client.post("/tables", data={"csrf_token": table.csrf, "system": "dreadfleet", "name": "T",
                                        "seat": "Anna", "side": "dreadfleet"})
    assert resp.status_code == 400
    assert "Pick one of this table&#39;s sides (Grand Alliance, Dreadfleet)." in resp.data.decode()
    assert client.get("/").data.decode().count('href="/t/') == 0  # nothing created
    code = table.create(system="dreadfleet", side="Dreadfleet")
    assert "Anna · Dreadfleet" in board(client, code)


def test_typed_sides_are_the_choices(client, table):
    code = table.create(system="dreadnaught", sides="Anna, Ben", side="Ben")
    assert "Anna · Ben" in board(client, code)


def test_the_join_page_preselects_the_side_with_fewest_seats(app, table):
    table.create(seat="Anna", side="Side A")
    table.act(type="add-unit", name="Victory", side="Side A")  # Anna has acted for Side A
    player, _ = table.secrets()
    page = app.test_client().get(f"/t/{table.code}/join/{player}").data.decode()
    assert re.search(r'value="Side B"\s+checked', page)
    assert not re.search(r'value="Side A"\s+checked', page)


def test_lobby_errors_are_in_the_error_colour(client):
    css = CSS.read_text()
    # .field > span (muted) must not win over an error sentence inside a field
    assert re.search(r"\.field > \.err-text[^{]*\{[^}]*color: var\(--err\)", css)


# --- contrast (WCAG 2: 4.5:1 for text) ------------------------------------------------------------

def _vars(block: str) -> dict:
    found = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b", block))
    return {k: v if len(v) == 7 else "#" + "".join(c * 2 for c in v[1:]) for k, v in found.items()}


def themes() -> dict:
    css = CSS.read_text()
    light = _vars(css[css.index(":root {"):css.index("}", css.index(":root {"))])
    dark_block = css[css.index(":root[data-theme=dark]"):css.index("}", css.index(":root[data-theme=dark]"))]
    return {"light": light, "dark": {**light, **_vars(dark_block)}}


def contrast(a: str, b: str) -> float:
    def lum(h):
        rgb = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("fg, bg", [("ok", "chip"), ("ok", "card"), ("err", "chip"), ("err", "card"),
                                    ("muted", "card"), ("muted", "chip"), ("fg", "chip"), ("accent", "card"),
                                    ("accent-fg", "accent")])
def test_text_colours_read_at_4_5_to_1_in_both_themes(theme, fg, bg):
    colours = themes()[theme]
    assert contrast(colours[fg], colours[bg]) >= 4.5, (theme, fg, bg)


def test_undo_takes_back_only_the_move_the_button_named(client, table):
    table.create(seat="Anna")
    table.act(type="add-unit", name="Victory", **{"stats.hp": "10"})
    table.act(do="adjust unit=u1 tracker=hp by=-1")
    seen = re.search(r'id="undo".*?name="expect" value="(\d+)"', client.get(f"/t/{table.code}").data.decode(), re.S)
    assert seen and seen.group(1) == "3"  # the seq of "Anna: Victory HP -1 (10 → 9)"
    table.act(do="adjust unit=u1 tracker=hp by=-2")  # another phone's move came in meanwhile
    resp = client.post(f"/t/{table.code}/undo", data={"csrf_token": table.csrf, "_control": "undo",
                                                      "expect": seen.group(1)}, headers={"HX-Request": "true"})
    assert resp.status_code == 409 and "Another move came in since" in resp.data.decode()
    assert table.state()["units"]["u1"]["trackers"]["hp"]["value"] == 7  # nothing undone
    resp = client.post(f"/t/{table.code}/undo", data={"csrf_token": table.csrf, "_control": "undo", "expect": "4"},
                       headers={"HX-Request": "true"})
    assert resp.status_code == 200 and table.state()["units"]["u1"]["trackers"]["hp"]["value"] == 9
    # Redo names the move it brings back the same way
    resp = client.post(f"/t/{table.code}/redo", data={"csrf_token": table.csrf, "_control": "redo", "expect": "3"},
                       headers={"HX-Request": "true"})
    assert resp.status_code == 409 and table.state()["units"]["u1"]["trackers"]["hp"]["value"] == 9