"""The contract every game package keeps, checked over every game the core discovers.

Its content pack validates and carries its name; a table of it can be created and its pages render
on an empty table; every action type it registers has a doc line and is exercised by a test; its
rules are pure; and the core names no game at all.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import actions, games
from companion.content import CONTENT_DIR, load_systems

REPO = Path(__file__).resolve().parent.parent
FOUND = games.discover()
SLUGS = sorted(FOUND)
TEST_SOURCES = "\n".join(p.read_text() for p in (REPO / "tests").rglob("*.py"))


def test_the_three_games_and_any_new_one_are_discovered():
    assert {"dreadfleet", "empires-of-dust", "dreadnaught"} <= set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_content_pack_validates_and_matches_the_declaration(slug):
    system = load_systems([CONTENT_DIR])[slug]
    assert system.name == FOUND[slug].game.name
    assert (CONTENT_DIR / slug / "system.toml").exists()


@pytest.mark.parametrize("slug", SLUGS)
def test_every_action_type_has_a_doc_line_and_a_test(slug):
    own = {t: a for t, a in actions.available(slug).items() if a.systems and slug in a.systems}
    assert own, f"{slug} registers no action type of its own"
    for type_, entry in own.items():
        assert entry.doc, f"{type_} has no doc line (the first line of its apply's docstring)"
        assert re.search(rf"""["']{re.escape(type_)}["' ]""", TEST_SOURCES), f"no test names {type_}"


@pytest.mark.parametrize("slug", SLUGS)
def test_hooks_found_by_name_resolve(slug):
    found = FOUND[slug]
    bp, hook = found.blueprint(), found.phase_hook()
    assert bp is None or bp.name  # a flask Blueprint, views.bp
    assert hook is None or callable(hook)  # phase.on_phase


@pytest.mark.parametrize("slug", SLUGS)
def test_rules_are_pure(slug):
    package = REPO / "companion" / "games" / FOUND[slug].package.rpartition(".")[2]
    rules = [package / "rules.py"] if (package / "rules.py").exists() else sorted((package / "rules").glob("*.py"))
    assert rules, f"{slug} has no rules module"
    for path in rules:
        source = path.read_text().lower()
        for word in ("flask", "companion.store", "sqlite", "import requests"):
            assert word not in source, f"{path} mentions {word}"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_table_can_be_created_and_its_pages_render_empty(slug, app, client, table):
    code = table.create(system=slug, name=f"Contract {slug}")
    board = client.get(f"/t/{code}")
    assert board.status_code == 200
    assert client.get(f"/t/{code}", headers={"HX-Request": "true"}).status_code == 200  # the poll fragment
    assert client.get(f"/t/{code}/tools/game").status_code in (200, 204)
    assert client.get(f"/t/{code}/log").status_code == 200
    assert client.get(f"/t/{code}/report").status_code == 200
    bp = FOUND[slug].blueprint()
    if bp:
        pages = [r for r in app.url_map.iter_rules() if r.endpoint.startswith(bp.name + ".")
                 and "GET" in r.methods and set(r.arguments) == {"code"}]
        for rule in pages:
            resp = client.get(rule.rule.replace("<code>", code))
            assert resp.status_code == 200, (rule.rule, resp.status_code)


def test_core_names_no_game():
    """The issue's check: no game's name outside the games' own folders."""
    words = set()
    for slug, found in FOUND.items():
        words |= {slug, found.game.name.lower(), found.package.rpartition(".")[2]}
    core = [p for p in (REPO / "companion").glob("*.py")] + list((REPO / "companion" / "actions").glob("*.py")) \
        + list((REPO / "companion" / "rules").glob("*.py")) + list((REPO / "companion" / "trackers").glob("*.py")) \
        + list((REPO / "templates").glob("*.html")) + list((REPO / "static").glob("*.js")) \
        + list((REPO / "static" / "js").glob("*.js"))  # the phone's modules
    for path in core:
        text = path.read_text().lower()
        for word in words:
            assert word not in text, f"{path} names {word}"


WEB_LAYER = ("play", "web", "db", "store", "lobby", "api", "drawn", "serving")  # the core's pages and storage


@pytest.mark.parametrize("slug", SLUGS)
def test_a_games_pages_reach_the_core_only_through_game_pages(slug):
    """Issue 29: a game's modules import the core's pages and storage only through
    ``companion.game_pages`` (its one door), so the core can move them without touching a game."""
    package = Path(__import__(FOUND[slug].package, fromlist=["x"]).__file__).parent
    found = []
    for path in package.rglob("*.py"):
        for m in re.finditer(r"^\s*(?:from companion(?:\.(\w+))? import ([\w, ()]+)|import companion\.(\w+))",
                             path.read_text(), re.M):
            module = m.group(1) or m.group(3)
            names = [] if module else [n.strip() for n in m.group(2).strip("()").split(",")]
            if module in WEB_LAYER or any(n in WEB_LAYER for n in names):
                found.append(f"{path.relative_to(REPO)}: {m.group(0).strip()}")
    assert found == []


@pytest.mark.parametrize("slug", SLUGS)
def test_a_games_styles_and_scripts_are_declared_and_linked_once_in_the_page_head(slug, client, table):
    """Issue 29: a game declares its stylesheets and scripts (``Game(styles=..., scripts=...)``); the
    board page, its tools page and the report link them once in the head, and the board's swapped
    parts (the poll's fragment) never carry them."""
    game = FOUND[slug].game
    assert game.styles, f"{slug} declares no stylesheet"
    for path in (*game.styles, *game.scripts):
        assert (REPO / "static" / path).is_file(), path
    code = table.create(system=slug, name=f"Assets {slug}")
    board = client.get(f"/t/{code}").data.decode()
    head, body = board.split("</head>", 1)
    for path in (*game.styles, *game.scripts):
        assert head.count(f"/static/{path}?v=") == 1 and f"/static/{path}" not in body, path
    fragment = client.get(f"/t/{code}", headers={"HX-Request": "true"}).data.decode()
    assert "/static/games/" not in fragment
    tools = client.get(f"/t/{code}/tools/game")
    if tools.status_code == 200:
        head, body = tools.data.decode().split("</head>", 1)
        assert all(head.count(f"/static/{p}?v=") == 1 for p in (*game.styles, *game.scripts))
        assert "/static/games/" not in body
    head = client.get(f"/t/{code}/report").data.decode().split("</head>", 1)[0]
    assert all(head.count(f"/static/{p}?v=") == 1 for p in game.styles)
