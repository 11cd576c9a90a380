"""Each phone in its player's language (issue 42): the language a request is drawn in, the phone's
choice kept with its seat, a board drawn per language for phones of the same view, and catalogs with
every word of the app in German and French."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from companion import create_app, i18n
from tests.i18n_marks import unmarked
from tests.table_actions import TableActions
from tests.test_board import poll
from tests.test_hidden_information import Phone

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[-+ #0]*\d*(?:\.\d+)?[sdrfi%]")


@pytest.fixture
def pseudo_app(db_target):
    return create_app({"TESTING": True, "DATABASE": db_target, "SECRET_KEY": "test-key", "PSEUDO_LOCALE": True,
                       "LIVE_SECONDS": 0.3, "FEED_SECONDS": 0.3})


def html_lang(body: str) -> str:
    return re.search(r'<html lang="(\w+)"', body).group(1)


def switch(phone, lang: str, back: str = "/"):
    return phone.client.post("/lang", data={"lang": lang, "next": back, "csrf_token": phone.csrf})


# -- which language a request is drawn in

def test_a_new_phone_reads_its_browsers_language_and_english_otherwise(client):
    assert html_lang(client.get("/", headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}).text) == "de"
    assert html_lang(client.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9"}).text) == "fr"
    assert html_lang(client.get("/", headers={"Accept-Language": "it-IT, es;q=0.8"}).text) == "en"
    assert html_lang(client.get("/").text) == "en"


def test_the_menus_choice_outvotes_the_browser_and_is_kept_with_the_seat(app, table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    resp = switch(table, "fr", back=f"/t/{table.code}")
    assert resp.status_code == 303 and resp.headers["Location"] == f"/t/{table.code}"
    page = table.client.get(f"/t/{table.code}", headers={"Accept-Language": "de"}).text
    assert html_lang(page) == "fr"
    assert 'aria-current="true">Français</button>' in page
    # the choice rides in the seat's own cookie: the seat is still there, and a restart keeps both
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test-key"})
    again_client = again.test_client()
    again_client.set_cookie("session", table.client.get_cookie("session").value)
    page = again_client.get(f"/t/{table.code}").text
    assert html_lang(page) == "fr" and "Anna" in page


def test_a_language_the_app_does_not_speak_is_refused_and_changes_nothing(table):
    table.create(seat="Anna")
    resp = switch(table, "tlh")
    assert resp.status_code == 400 and "Choose one of: en, de, fr." in resp.text
    assert html_lang(table.client.get(f"/t/{table.code}").text) == "en"


def test_the_switch_returns_only_to_a_page_of_this_site(table):
    table.create(seat="Anna")
    for elsewhere in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        assert switch(table, "de", back=elsewhere).headers["Location"] == "/"


def test_the_big_screen_takes_its_language_from_its_link(table):
    table.create(seat="Anna", sides="Red,Blue")
    body = table.client.get(f"/t/{table.code}/display?lang=de").text
    assert html_lang(body) == "de"
    assert html_lang(table.client.get(f"/t/{table.code}/display").text) == "en"


def test_a_page_with_lang_in_its_link_switches_back_to_itself_without_it(pseudo_app):
    client = pseudo_app.test_client()
    page = client.get("/?lang=de&x=1").text
    assert 'name="next" value="/?x=1"' in page


# -- a board drawn per language

def test_two_phones_of_one_view_each_get_the_board_in_their_own_language(pseudo_app):
    """Anna and Ada sit on the same side (one view): Ada reads the pseudo-language, Anna English.
    A board is drawn once per view and shared, so the language must be part of the view."""
    anna = TableActions(pseudo_app.test_client())
    anna.create(seat="Anna", side="Red", sides="Red,Blue")
    anna.act(do="add-unit", name="Falcon", side="Red", hp=10)
    player, _ = anna.secrets()
    ada = Phone(pseudo_app.test_client()).join(anna.code, player, "Ada", "Red")
    assert switch(ada, i18n.PSEUDO).status_code == 303
    for _ in range(2):  # drawn, then served from what was kept
        english, pseudo = poll(anna), poll(ada)
        assert "[[" not in english
        assert "[[" in pseudo
    seq = int(re.search(r'data-seq="(\d+)"', english).group(1))
    anna.act(do="adjust unit=u1 tracker=hp by=-1")  # the step from the board each phone holds
    step_en, step_pseudo = poll(anna, seq), poll(ada, seq)
    assert "[[" not in step_en and "[[" in step_pseudo


# -- what a game keeps, and what a take-back names, in each reader's words

def test_a_reminder_kept_in_the_state_reads_in_each_phones_language(pseudo_app):
    """A phase reminder is written into the state by next-phase: it is kept as its message, so the
    pseudo phone reads it wrapped and the English one as it was always said."""
    anna = TableActions(pseudo_app.test_client())
    code = anna.create(seat="Anna")
    anna.act(do="add-tracker unit=table", **{"spec.kind": "cooldown", "spec.every": "1", "spec.label": "FTL",
                                             "spec.id": "ftl"})
    anna.act(do="tracker unit=table tracker=ftl op=use")
    while anna.state()["phase"] != 0 or anna.state()["round"] != 2:
        anna.act(type="next-phase")
    assert "Table: FTL is ready again" in anna.client.get(f"/t/{code}").text
    assert switch(anna, i18n.PSEUDO).status_code == 303
    board = anna.client.get(f"/t/{code}").text
    assert "[[[[Table]]: [[FTL is ready again]]]]" in board


def test_a_take_back_names_the_move_it_withdrew_in_each_readers_words(pseudo_app):
    anna = TableActions(pseudo_app.test_client())
    code = anna.create(seat="Anna")
    anna.act(do="add-tracker unit=table", **{"spec.kind": "cooldown", "spec.every": "2", "spec.label": "FTL",
                                             "spec.id": "ftl"})
    anna.act(do="tracker unit=table tracker=ftl op=use")  # #3
    resp = anna.client.post(f"/t/{code}/take-back", data={"csrf_token": anna.csrf, "targets": "3", "_control": "tb-3"})
    assert resp.status_code == 303
    assert "took back #3: Table FTL used; ready again at round 3" in anna.client.get(f"/t/{code}/log").text
    assert switch(anna, i18n.PSEUDO).status_code == 303
    log = anna.client.get(f"/t/{code}/log").text
    # the frame, the number and the move named: each in the reader's words (the move: as its own message)
    assert "[[took back [[#3: [[Table]] [[FTL used; ready again at round 3]]]]]]" in log


def test_a_packs_own_translation_is_read_by_a_phone_of_its_language_and_no_other(table):
    """Astral Action's pack carries German and French words for its readings of the draft rules
    (content/astral-action/system.de.toml): a German phone reads them, an English one reads the pack as
    printed, and a quoted rule stays in the rulebook's English inside the German sentence."""
    code = table.create(system="astral-action", seat="Anna", side="Blue", sides="Blue,Red")
    english = table.client.get(f"/t/{code}/tools/game").text
    assert "Damage order</b>: Shields, Armor, Health" in english
    assert switch(table, "de").status_code == 303
    german = table.client.get(f"/t/{code}/tools/game").text
    assert "Schadensreihenfolge</b>: Shields, Armor, Health" in german
    assert "&#39;The Damage Track represents the Shields, Armor and Health&#39;" in german
    assert "Damage order</b>" not in german
    # the phase's reminder, kept in the table's state as printed: on the board in the pack's own German
    import html
    import tomllib
    printed = table.state()["reminders"][0]
    theirs = tomllib.loads((ROOT / "content/astral-action/system.de.toml").read_text())["words"][printed]
    board = table.client.get(f"/t/{code}").text
    assert printed.startswith("For each ship") and html.escape(theirs) in board and html.escape(printed) not in board



def test_the_turn_line_reads_the_packs_round_and_phases_in_the_readers_language(table):
    """Talon's pack names its round and phases ("Round", "A · initiative player") and carries their German
    and French (content/talon/system.de.toml): the turn line and the dock's next phase read them; a
    sentence of the app's naming the round writes it as its language does ("Runde 3", "tour 3")."""
    code = table.create(system="talon", seat="Anna", side="Terran", sides="Terran,Talon")
    english = table.client.get(f"/t/{code}").text
    assert 'Round 1</span> · <strong class="phase" data-phase>A · initiative player</strong>' in english
    german = table.client.get(f"/t/{code}?lang=de").text
    assert 'Runde 1</span> · <strong class="phase" data-phase>A · Initiativespieler</strong>' in german
    assert "<small>A · anderer Spieler</small>" in german and "initiative player" not in german
    french = table.client.get(f"/t/{code}?lang=fr").text
    assert 'Tour 1</span> · <strong class="phase" data-phase>A · joueur à l&#39;initiative</strong>' in french
    # a cooldown on the table: "ready again in round 3", in the reader's words for a round
    table.act(do="add-tracker unit=table", **{"spec.kind": "cooldown", "spec.every": "2", "spec.label": "FTL",
                                              "spec.id": "ftl"})
    table.act(do="tracker unit=table tracker=ftl op=use")
    assert "ready again in round 3" in table.client.get(f"/t/{code}").text
    assert "wieder bereit: Runde 3" in table.client.get(f"/t/{code}?lang=de").text
    assert "de nouveau prêt : tour 3" in table.client.get(f"/t/{code}?lang=fr").text


# -- the catalogs

def _extracted() -> dict[str, str | None]:
    """Every message the app marks (babel.cfg, as scripts/i18n extracts them): id -> its plural id."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "Said": None, "message": None, "N_": None, "word": None}
    found = {}
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map, options_map,
                                                                      keywords=keywords):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        else:
            found.setdefault(message, None)
    return found


def test_every_word_of_every_template_is_marked():
    left = [f"{path.relative_to(ROOT)}:{line}: {text}" for path in TEMPLATES for line, text in unmarked(path.read_text())]
    assert not left, f"{len(left)} unmarked:\n" + "\n".join(left[:60])


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_message_has_its_translation(lang):
    with (i18n.CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=lang)
    problems = []
    for msgid, plural in _extracted().items():
        entry = catalog.get(msgid)
        if entry is None:
            problems.append(f"missing: {msgid!r}")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy or not all(strings):
            problems.append(f"{'fuzzy' if entry.fuzzy else 'untranslated'}: {msgid!r}")
            continue
        wanted = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
        for text in strings:
            # a value may be said twice; a plural's forms may each say the number or not
            got = set(PLACEHOLDER.findall(text))
            if got != wanted and not (plural and got <= wanted):
                problems.append(f"placeholders differ: {msgid!r} -> {text!r}")
            if '"' in text:
                problems.append(f'a straight " (it lands in an attribute): {text!r}')
    assert not problems, f"{len(problems)} in {lang}:\n" + "\n".join(problems[:60])


def test_no_message_is_an_f_string():
    """An f-string's values are in it before gettext sees it: no catalog could hold it (Babel skips it)."""
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "companion").rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"""(?<![\w.])(_|N_|Said|message)\(\s*f["']""", line)]
    assert not found, "a message built as an f-string: " + ", ".join(found)


def test_no_template_hides_gettext_behind_a_variable():
    """``{% set _ = … %}`` (a throwaway) would make every later ``_()`` of that scope call the value."""
    found = [f"{path.relative_to(ROOT)}:{n}" for path in TEMPLATES
             for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"\{%-?\s*set\s+_\s*=", line)]
    assert not found, ", ".join(found)


# -- numbers inside a move's sentence

def test_a_number_inside_a_moves_sentence_is_written_as_its_reader_writes_it(app):
    """A move's label keeps its values (companion/said.py): the numbers its message formats are written
    in the reader's way ("7,00" in German and French), and read in English exactly as stored."""
    from companion.said import Said, spoken
    roll = Said("%(roll)s (expected %(mean).2f)", roll="[6 5 1]", mean=3.5)
    with app.test_request_context("/?lang=de"):
        assert spoken(roll) == "[6 5 1] (erwartet 3,50)"
        assert spoken(Said("%(actual)s %(what)s · %(expected).1f expected", actual=12345, what="x",
                           expected=1234.25)) == "12345 x · 1.234,2 erwartet"  # (%s: a number as it is)
    with app.test_request_context("/?lang=fr"):
        assert spoken(roll) == "[6 5 1] (attendu 3,50)"
    with app.test_request_context("/?lang=en"):
        assert spoken(roll) == str(roll) == "[6 5 1] (expected 3.50)"


def test_a_kept_sentence_said_again_in_a_label_keeps_pythons_numbers_whoever_asks(app):
    """A move made from a German phone that names a kept sentence again (``recalled``: Empires of Dust's
    phase notes) stores its English label as Python writes it: the reader's way is for drawing only."""
    from companion.said import Said, english, kept, recalled
    note = kept(Said("%(roll)s (expected %(mean).2f)", roll="[6 5 1]", mean=3.5))
    with app.test_request_context("/?lang=de"):
        assert english(note) == "[6 5 1] (expected 3.50)"
        assert str(recalled(note)) == "[6 5 1] (expected 3.50)"
    with app.app_context():  # (no request: a command, a replay at start) English, no error
        assert i18n.current() == "en" and english(note) == "[6 5 1] (expected 3.50)"


def test_a_pool_rolled_by_an_english_phone_reads_with_a_decimal_comma_in_german(table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    assert table.act(type="pool", dice="3", target="4", rolled="6 5 1").status_code in (200, 303)
    english = table.client.get(f"/t/{table.code}/log").text
    german = table.client.get(f"/t/{table.code}/log?lang=de").text
    assert "(expected 1.50)" in english and "(erwartet 1,50)" in german and "(erwartet 1.50)" not in german
