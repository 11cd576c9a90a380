"""Set-up without copying cards (issue 28 §6), on the server: a saved fleet shared as a link and its QR
(the link carries the exported document: two tables on one server, or pasted into another host's
import), bad links refused in one sentence with nothing saved, and the set-up forms starting from the
card the table saved last."""
from __future__ import annotations

import base64
import html
import json
import re
import zlib

from companion import create_app, share, store
from companion.db import get_db, systems
from table_actions import TableActions
from test_library_owners_games import HX, PHONE_A, PHONE_B, design, item, post, seated, warship


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


def average_fleet(app) -> list[dict]:
    with app.app_context():
        return systems()["empires-of-dust"].fleets["average-fleet"]["ships"]


def shared_link(t: TableActions, path: str) -> str:
    """The link under a saved fleet's QR (the Share button's answer)."""
    resp = t.client.get(f"/t/{t.code}/{path}", headers=HX)
    assert resp.status_code == 200 and "<svg" in resp.get_data(as_text=True)
    return html.unescape(re.search(r'class="share-link">([^<]+)</a>', resp.get_data(as_text=True)).group(1))


def data_of(link: str) -> str:
    return link.split("/share?f=", 1)[1]


def test_a_fleet_scanned_at_another_table_of_the_server_is_saved_there_in_one_tap(app):
    anna = seated(app, PHONE_A, "empires-of-dust", "Anna")
    ben = seated(app, PHONE_B, "empires-of-dust", "Ben")
    doc = {"format": "empires-of-dust-fleet", "version": 1, "name": "Strike group", "ships": average_fleet(app)}
    assert post(anna, "eod/fleets/import", json=json.dumps(doc)).status_code == 200
    saved = item(app, "empires-of-dust", "fleet", "Strike group")
    link = shared_link(anna, f"eod/fleets/{saved['id']}/share")
    assert len(data_of(link)) <= share.MAX_LINK_DATA
    # the host removes it (say, a new club night): Ben's phone scans Anna's QR and saves it at his table
    with app.app_context():
        store.library_delete(get_db(), saved["id"], host=True)
    page = ben.client.get("/share?f=" + data_of(link))
    assert page.status_code == 200
    body = text(page)
    assert "Strike group: 4 ships" in body and "Save at " in body and ben.code in body
    assert anna.code not in body  # only the tables this phone sits at
    resp = ben.client.post(f"/share/{ben.code}", data={"csrf_token": ben.csrf, "f": data_of(link)}, headers=HX)
    assert resp.status_code == 200 and "Saved 'Strike group': 4 ships." in text(resp)
    copy = item(app, "empires-of-dust", "fleet", "Strike group")
    assert copy["owner"] == ben.code and copy["data"]["ships"] == saved["data"]["ships"]
    # scanned again where it is already saved (Anna's table, the same server): nothing changes, no refusal
    resp = anna.client.post(f"/share/{anna.code}", data={"csrf_token": anna.csrf, "f": data_of(link)}, headers=HX)
    assert resp.status_code == 200
    assert item(app, "empires-of-dust", "fleet", "Strike group")["owner"] == ben.code
    # the file for another host: the same document the Export button gives
    assert json.loads(ben.client.get("/share.json?f=" + data_of(link)).get_data(as_text=True))["ships"] == copy["data"]["ships"]


def test_a_share_link_pasted_into_another_hosts_import_saves_the_cards(app, tmp_path):
    anna = seated(app, PHONE_A, "dreadfleet", "Anna")
    assert warship(anna, "Skabrus").status_code == 200
    link = shared_link(anna, "dreadfleet/warships/share")
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "other"})
    cara = seated(other, PHONE_A, "dreadfleet", "Cara")
    resp = post(cara, "dreadfleet/warships/import", text=link, _control="df-import")
    assert resp.status_code == 200 and "Skabrus" in text(resp)
    assert item(other, "dreadfleet", "warship", "Skabrus")["data"] == item(app, "dreadfleet", "warship", "Skabrus")["data"]

    aa = seated(app, PHONE_A, "astral-action", "Anna")
    assert design(aa, "Falcon", 2).status_code == 200
    link = shared_link(aa, "astral-action/cards/share")
    dana = seated(other, PHONE_B, "astral-action", "Dana")
    resp = post(dana, "astral-action/cards/import", text=link, _control="aa-import")
    assert resp.status_code == 200 and "Falcon" in text(resp)
    assert item(other, "astral-action", "sic", "Falcon")["data"] == item(app, "astral-action", "sic", "Falcon")["data"]


def _packed(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def test_a_bad_share_link_is_refused_in_one_sentence_next_to_its_control_and_saves_nothing(app):
    anna = seated(app, PHONE_A, "empires-of-dust", "Anna")
    doc = {"format": "empires-of-dust-fleet", "version": 1, "name": "Strike group", "ships": average_fleet(app)}
    good = share.pack(doc)
    df = seated(app, PHONE_A, "dreadfleet", "Anna")
    cases = [
        (good[:-40], "That share link is cut short or damaged: scan the QR again, or use the file."),
        (good[:20] + "!!" + good[20:], "That share link is damaged"),
        ("A" * (share.MAX_LINK_DATA + 1), f"That share link is too long ({share.MAX_LINK_DATA + 1:,} characters of data; at most {share.MAX_LINK_DATA:,})"),
        (_packed(b"0" * (share.MAX_UNPACKED + 10)), "That share link unpacks to more than 200,000 bytes"),
        (_packed(json.dumps({"format": "recipe", "name": "Soup"}).encode()),
         "That share link holds no fleet or cards this companion knows."),
    ]
    for data, sentence in cases:
        resp = anna.client.post(f"/share/{anna.code}", data={"csrf_token": anna.csrf, "f": data}, headers=HX)
        assert resp.status_code == 400 and sentence in text(resp), (sentence, text(resp))
        assert resp.headers["HX-Retarget"] == f"#share-{anna.code}-err"
        assert anna.client.get(f"/share?f={data}").status_code == 400
    # a fleet of one game is not saved at a table of another
    resp = df.client.post(f"/share/{df.code}", data={"csrf_token": df.csrf, "f": good}, headers=HX)
    assert resp.status_code == 400 and "That table plays another game" in text(resp)
    # the same refusals where a link is pasted into an import
    resp = post(anna, "eod/fleets/import", json=f"http://192.168.1.20:8000/share?f={good[:-40]}")
    assert resp.status_code == 400 and "cut short or damaged" in text(resp)
    with app.app_context():
        assert store.library_items(get_db(), "empires-of-dust") == []


def test_a_fleet_too_big_for_a_qr_says_so_and_points_to_the_file(app, monkeypatch):
    anna = seated(app, PHONE_A, "dreadfleet", "Anna")
    assert warship(anna, "Skabrus").status_code == 200
    monkeypatch.setattr(share, "MAX_LINK_DATA", 50)
    resp = anna.client.get(f"/t/{anna.code}/dreadfleet/warships/share", headers=HX)
    assert resp.status_code == 200 and "<svg" not in resp.get_data(as_text=True)
    assert re.search(r"Too big for a QR \(\d+ characters packed; a QR takes 50\): use Export and send the file.",
                     text(resp))


def typed(page: str, name: str) -> dict:
    """The attributes of the input called ``name`` (in whatever order its macro writes them)."""
    tag = re.search(rf'<input [^>]*name="{re.escape(name)}"[^>]*>', page)
    assert tag, f"no input {name}"
    return {m[0]: m[1] for m in re.findall(r'([\w-]+)(?:="([^"]*)")?', tag.group(0)[len("<input "):-1])}


def test_the_fleet_editor_starts_from_the_card_this_table_saved_last(app):
    anna = seated(app, PHONE_A, "dreadfleet", "Anna")
    ben = seated(app, PHONE_B, "dreadfleet", "Ben")
    board = text(anna.client.get(f"/t/{anna.code}/tools/game"))
    assert typed(board, "stats.speed")["value"] == ""  # nothing saved yet
    assert warship(anna, "Heldenhammer", speed=7, crew=5).status_code == 200
    board = text(anna.client.get(f"/t/{anna.code}/tools/game"))
    editor = board[board.index('id="df-editor"'):board.index("Save Warship card")]
    assert re.search(r"<option [^>]*selected[^>]*>Flaming Scimitar</option>", editor)  # the next warship
    assert typed(editor, "stats.speed")["value"] == "7" and typed(editor, "stats.crew")["value"] == "5"
    assert "Started from your last card, the Heldenhammer" in editor
    # a stepper per characteristic, within the game's own input limits (content/dreadfleet/system.toml)
    armour = typed(editor, "stats.armour")
    assert (armour["aria-label"], armour["data-min"], armour["data-max"]) == ("Armour", "1", "7") and "data-stepper" in armour
    # another table's phone starts empty: the start is this table's last card
    other = text(ben.client.get(f"/t/{ben.code}/tools/game"))
    assert typed(other, "stats.speed")["value"] == ""


def test_the_ship_designer_starts_from_the_card_this_table_saved_last_without_its_name(app):
    anna = seated(app, PHONE_A, "astral-action", "Anna")
    assert design(anna, "Falcon", 3).status_code == 200
    board = text(anna.client.get(f"/t/{anna.code}/tools/game"))
    designer = board[board.index('id="aa-designer"'):board.index("Save the card")]
    assert 'name="name" value=""' in designer  # a new name: saving must not replace the Falcon
    assert re.search(r'<option value="3" selected>3</option>', designer)
    assert 'name="mv.0.velocity" class="num" value="2"' in designer  # its Movement Table, 2:3/2 first
    assert typed(designer, "chart.miss")["value"] == "2" and "data-stepper" in typed(designer, "chart.miss")
    assert "Started from your last card, Falcon" in designer


def test_the_share_page_works_without_javascript(app):
    """A plain form post (no htmx) answers with the page again: the sentence under its button."""
    anna = seated(app, PHONE_A, "empires-of-dust", "Anna")
    doc = {"format": "empires-of-dust-fleet", "version": 1, "name": "Strike group", "ships": average_fleet(app)[:1]}
    data = share.pack(doc)
    resp = anna.client.post(f"/share/{anna.code}", data={"csrf_token": anna.csrf, "f": data})
    assert resp.status_code == 200 and "<html" in text(resp) and "Saved 'Strike group': 1 ship." in text(resp)
    bad = share.pack({**doc, "name": ""})
    resp = anna.client.post(f"/share/{anna.code}", data={"csrf_token": anna.csrf, "f": bad})
    assert resp.status_code == 400 and "<html" in text(resp)
    assert re.search(rf'id="share-{anna.code}-err"[^>]*><span class="err-text" role="alert">Name the fleet', text(resp))
