"""Every content file loads; a broken one is named with its file, key path and what was expected."""
from __future__ import annotations

import shutil

import pytest

from companion import actions
from companion.content import CONTENT_DIR, ContentError, load_systems


def test_every_shipped_content_file_is_valid():
    systems = load_systems([CONTENT_DIR])
    assert {"freeform", "dreadfleet", "empires-of-dust", "dreadnaught"} <= set(systems)
    for system in systems.values():
        assert system.tables, f"{system.slug} has no lookup tables"
        for table in system.tables.values():
            assert table["source"].strip()


def test_every_action_type_has_a_doc_line():
    for type_, entry in actions.available("freeform").items():
        assert entry.doc, type_


def write_pack(tmp_path, text, name="mine"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "system.toml").write_text(text)
    return tmp_path


BASE = 'slug = "mine"\nname = "Mine"\nsource = "x"\nsides = ["A", "B"]\nphases = ["One"]\n'


@pytest.mark.parametrize("extra, message", [
    ('sdies = ["x"]\n', "mine/system.toml: sdies: expected one of the known keys"),
    ('[[templates]]\nid = "ship"\nname = "Ship"\n[[templates.trackers]]\nid = "hp"\nkind = "counterr"\n',
     "templates[0].trackers[0].kind: expected one of counter"),
    ('[[templates]]\nid = "ship"\nname = "Ship"\n[[templates.stats]]\nid = "hull"\nlabel = "Hull"\nmin = 1\n',
     "templates[0].stats[0].max: expected this key"),
    ('round_label = 3\n', "round_label: expected a string, got 3"),
])
def test_a_typo_names_file_key_path_and_expectation(tmp_path, extra, message):
    root = write_pack(tmp_path, BASE + extra)
    with pytest.raises(ContentError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_systems([root])


def test_a_broken_table_row_is_named(tmp_path):
    root = write_pack(tmp_path, BASE)
    (root / "mine" / "tables").mkdir()
    (root / "mine" / "tables" / "t.toml").write_text(
        'title = "T"\nsource = "s"\ncolumns = ["a", "b"]\nrows = [["x", 1], ["y"]]\n')
    with pytest.raises(ContentError, match=r"t.toml: rows\[1\]: expected 2 cells"):
        load_systems([root])


def test_a_user_folder_adds_a_deck_to_an_existing_system(tmp_path, monkeypatch):
    extra = tmp_path / "extra" / "freeform" / "decks"
    extra.mkdir(parents=True)
    (extra / "mine.toml").write_text('name = "My deck"\ndeck = "deck"\ncards = [{name = "Ace", count = 2}]\n')
    systems = load_systems([CONTENT_DIR, tmp_path / "extra"])
    assert "mine" in systems["freeform"].decks["deck"]["definitions"]


def test_invalid_toml_is_reported_with_its_file(tmp_path):
    root = write_pack(tmp_path, BASE + "name = \n")
    with pytest.raises(ContentError, match="mine/system.toml: not valid TOML"):
        load_systems([root])
