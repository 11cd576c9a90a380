"""A phone imports a table from a file: the board says whether it is this server's own export,
unchanged, or an edited one (issue 30, signed exports), and the page still fits a phone."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_table, shots

pytestmark = pytest.mark.browser


def test_an_imported_file_says_where_it_came_from(live_server, phone, tmp_path):
    anna = phone()
    open_table(anna, live_server, name="Harbour fight")
    code = anna.url.rstrip("/").split("/")[-1]
    text = anna.request.get(f"{live_server}/t/{code}/export").text()  # what Export JSON downloads
    edited = text.replace('"name": "Harbour fight"', '"name": "Harbour fighT"')
    for body, words, shot in ((text, "This is this server's own export, unchanged.", "import-own.png"),
                              (edited, "Not signed by this server: the file was edited or made elsewhere; its dice "
                                       "are taken as they are written.", "import-edited.png")):
        path = tmp_path / "table.json"
        path.write_text(body)
        anna.goto(live_server + "/")
        anna.set_input_files("input[name=file]", str(path))
        anna.fill("form[enctype] input[name=seat]", "Anna")
        anna.click("button:text('Import')")
        expect(anna.locator("p.flash[role=status]")).to_have_text("Imported. " + words)
        expect(anna.locator("#imported")).to_have_text("Imported from a file. " + words)
        assert_fits_a_phone(anna)
        anna.set_viewport_size({"width": 390, "height": 844})
        anna.screenshot(path=str(shots("freeform") / shot))
        anna.locator("#admin").screenshot(path=str(shots("freeform") / ("card-" + shot)))
    board = anna.url.split("?")[0]
    for page in ("log", "report"):  # the edited table's log and battle report say it too
        anna.goto(f"{board}/{page}")
        expect(anna.get_by_text("Imported from a file. Not signed by this server")).to_be_visible()
        assert_fits_a_phone(anna, "main a.btn")
        anna.set_viewport_size({"width": 390, "height": 844})
        anna.screenshot(path=str(shots("freeform") / f"import-edited-{page}.png"))
