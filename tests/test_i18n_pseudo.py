"""The check that nothing was forgotten (issue 42): every page of a busy table of each game, drawn in
the pseudo-language (every message of the app wrapped in [[ ]]), says no word of its own outside the
wraps.  What may stand unwrapped is the game's and the players' own words: every word of the game's
content pack (its rulebook's names, tables, phases) and of the table's state (ships, seats, sides,
cards as the players entered them)."""
from __future__ import annotations

import json
import random
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import create_app, i18n
from html_forms import thorough
from random_play import SYSTEMS, Table
from tests.test_random_play import MOMENTS

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
SPOKEN = ("title", "aria-label", "placeholder", "alt")
PAGES = ("", "?open=*", "/log", "/report", "/display", "/tools/game", "/tools/add", "/tools/rosters", "/invite")
# not words of a language: units and marks the same on every page
SAME_EVERYWHERE = ({"companion", "px", "ms", "HP", "D6", "D10", "D20", "d6", "d10", "d20"}
                   | set(i18n.LANGUAGES.values()) | {code.upper() for code in (*i18n.LANGUAGES, i18n.PSEUDO)})


# rulebook names a game's own code holds (not its content pack), shown as printed: Astral Action's Commands
# are the seed's names (companion/games/astral_action/rules/turn.py, L275), "Reroll a die" among them;
# Empires of Dust's ship classes (its designer's "+ Star Port", seed 001)
RULEBOOK_IN_CODE = {"astral-action": {"Reroll", "die", "Attack", "with", "an", "unused", "weapon", "Replace", "Condition",
                                      "Dodge", "Change", "Velocity", "Enhance", "Sensors"},
                    "empires-of-dust": {"Star", "Port"}}


@pytest.fixture
def pseudo_app(db_target):
    return create_app({"TESTING": True, "DATABASE": db_target, "SECRET_KEY": "test-key", "PSEUDO_LOCALE": True,
                       "LIVE_SECONDS": 0.3, "FEED_SECONDS": 0.3})


def _leaves(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, str):
        yield value


def _names_in_state(value):
    """The state's words but a kept sentence's message (companion/said.py ``kept``: {"m", "a"} or {"j", "p"}):
    only its values (names) are the table's own; the message itself must be drawn in the reader's words."""
    if isinstance(value, dict) and "m" in value and set(value) <= {"m", "a"}:
        for v in value.get("a", {}).values():
            yield from _names_in_state(v)
    elif isinstance(value, dict) and set(value) == {"j", "p"}:
        for v in value["p"]:
            yield from _names_in_state(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _names_in_state(v)
    elif isinstance(value, list):
        for v in value:
            yield from _names_in_state(v)
    elif isinstance(value, str):
        yield value


def own_words(system: str, state: dict) -> set[str]:
    """The game's and the table's own words: its content pack and the table's state."""
    found = set(SAME_EVERYWHERE) | RULEBOOK_IN_CODE.get(system, set())
    for path in (ROOT / "content" / system).rglob("*"):
        if path.suffix == ".toml":
            texts = _leaves(tomllib.loads(path.read_text()))
        elif path.suffix == ".json":
            texts = _leaves(json.loads(path.read_text()))
        elif path.suffix in (".csv", ".txt", ".md"):
            texts = [path.read_text()]
        else:
            continue
        for text in texts:
            found.update(WORD.findall(text))
    for text in _names_in_state(state):
        found.update(WORD.findall(text))
    return found


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "svg", "code", "pre"):  # (code: the API's own words, as typed)
            self._skip += 1
        self.texts += [v for k, v in attrs if k in SPOKEN and v]

    def handle_endtag(self, tag):
        if tag in ("script", "style", "svg", "code", "pre") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.texts.append(data)


def unwrapped(text: str) -> str:
    """The text outside every [[ ]] (wraps may hold wraps: a message's values)."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("[[", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("]]", i) and depth:
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return "".join(out)


LINK = re.compile(r"\S*://\S*|(?<!\w)/[\w/.#?=&%-]+|\b\w+/[\w/]+\.\w+")  # an address shown as text (the invite's links)


def english_left(body: str, allowed: set[str]) -> set[str]:
    reader = _Text()
    reader.feed(body)
    # in the page's order: a message with an element inside (<code>, <a>) wraps the text on both sides of it
    return {w for w in WORD.findall(LINK.sub(" ", unwrapped(" ".join(reader.texts)))) if w not in allowed}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_page_of_a_busy_table_is_in_the_readers_words(pseudo_app, system):
    table = Table(pseudo_app, system, random.Random(0).choice, MOMENTS[system])
    try:
        for client in table.phones.values():
            with client.session_transaction() as session:
                session["lang"] = i18n.PSEUDO
        table.pages = ()
        table.sweep(thorough)  # every control pressed once: the log holds each kind of move
        allowed = own_words(system, table.row()["state"]) | set(table.phones) | set(WORD.findall(table.code))
        found = {}
        for who, client in table.phones.items():
            for page in PAGES:
                resp = client.get(f"/t/{table.code}{page}")
                assert resp.status_code == 200, (page, resp.status_code)
                for word in english_left(resp.get_data(as_text=True), allowed):
                    found.setdefault(word, f"{who} {page or '/'}")
        assert not found, f"{len(found)} words not in the reader's language: " + ", ".join(
            f"{w} ({where})" for w, where in sorted(found.items())[:80])
        # every message the pages asked for is in the catalogs (one no extraction found stays English)
        with (i18n.CATALOGS / "de" / "LC_MESSAGES" / "messages.po").open("rb") as po:
            known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(po)}
        # (a sentence already said, passed on to be said again, e.g. a game's ``what=`` to a core refusal:
        # its second lookup finds nothing and leaves it as it is, in every language)
        unknown = sorted(m for m in i18n.translations(i18n.PSEUDO).asked if m not in known and not m.startswith("[["))
        assert not unknown, f"{len(unknown)} messages said but in no catalog: {unknown[:40]}"
    finally:
        table.db.close()
