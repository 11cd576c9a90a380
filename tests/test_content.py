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


# -- a pack's own translation (issue 42): x.de.toml beside x.toml

def test_a_packs_translation_is_read_beside_its_file_and_not_taken_for_a_table(tmp_path):
    root = write_pack(tmp_path, BASE + 'round_label = "Turn"\n')
    (root / "mine" / "system.de.toml").write_text('[words]\n"Turn" = "Zug"\n"One" = "Eins"\n')
    (root / "mine" / "tables").mkdir()
    (root / "mine" / "tables" / "t.toml").write_text('title = "Hits"\nsource = "s"\ncolumns = ["a"]\nrows = [["x"]]\n')
    (root / "mine" / "tables" / "t.fr.toml").write_text('[words]\n"Hits" = "Touches"\n')
    system = load_systems([root])["mine"]
    assert system.words == {"de": {"Turn": "Zug", "One": "Eins"}, "fr": {"Hits": "Touches"}}
    assert list(system.tables) == ["t"]  # t.fr.toml is t's words, not a table of its own


@pytest.mark.parametrize("name, text, message", [
    ("system.de.toml", '[words]\n"Round" = "Runde"\n', r"system.de.toml: words.'Round': expected words system.toml prints"),
    ("other.de.toml", '[words]\n"Mine" = "Meins"\n', r"other.de.toml: translates other.toml, which is not in the pack"),
    ("system.fr.toml", '"Mine" = "À moi"\n', r"system.fr.toml: \(top level\): expected one table, \[words\]"),
    ("system.de.toml", '[words]\n"Mine" = ""\n', r"system.de.toml: words.'Mine': expected a non-empty string"),
])
def test_a_translation_of_words_the_pack_does_not_print_is_refused_by_name(tmp_path, name, text, message):
    """A translation of an older text (the original changed since) is named, not shown as a stale word."""
    root = write_pack(tmp_path, BASE)
    (root / "mine" / name).write_text(text)
    with pytest.raises(ContentError, match=message):
        load_systems([root])


def test_astral_actions_readings_keep_their_choices_in_every_translation():
    """The board reads a setting's choices from its label ("What: 0 = …, 1 = …"): a translation that
    lost one would offer the players fewer readings than the rules leave open."""
    from companion.games.astral_action.views import readings
    aa = load_systems([CONTENT_DIR])["astral-action"]
    assert set(aa.words) == {"de", "fr"}
    for spec in aa.settings.values():
        for lang, words in aa.words.items():
            what, choices = readings(words[spec["label"]])
            assert len(choices) == len(readings(spec["label"])[1]) and what, (lang, spec["id"])
            assert spec["help"] in words, (lang, spec["id"])
