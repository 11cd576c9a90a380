"""What a board render costs besides the templates themselves (scripts/benchmark.py --profile):
a game's optional templates that are not there are looked for once, and button values are the same
text whether quoted afresh or remembered."""
from __future__ import annotations

from urllib.parse import quote, unquote

import pytest
from jinja2 import TemplateNotFound

from companion.play import parse_do
from companion.web import do_value


class Counting:
    """Stands in for the folder loader: counts the look-ups that reach it."""

    def __init__(self, inner):
        self.inner, self.calls = inner, []

    def get_source(self, environment, template):
        self.calls.append(template)
        return self.inner.get_source(environment, template)

    def list_templates(self):
        return self.inner.list_templates()


def test_a_missing_optional_template_is_looked_for_once(app):
    env = app.jinja_env
    env.loader.inner = counting = Counting(env.loader.inner)
    name = "games/freeform/_unit.html"  # freeform has no unit part of its own
    for _ in range(5):
        with pytest.raises(TemplateNotFound):
            env.get_template(name)
    assert counting.calls.count(name) == 1
    env.get_template("board/turn.html")  # found templates still load (and Jinja caches them itself)
    assert "board/turn.html" in counting.calls


def test_with_auto_reload_a_missing_template_is_looked_for_again(app):
    env = app.jinja_env
    env.auto_reload = True  # a developer adding a game's template sees it without a restart
    env.loader.inner = counting = Counting(env.loader.inner)
    for _ in range(3):
        with pytest.raises(TemplateNotFound):
            env.get_template("games/freeform/_panel.html")
    assert counting.calls.count("games/freeform/_panel.html") == 3


@pytest.mark.parametrize("value", ["u1", -1, 0, "Side A", "a=b&c", "ünï", "100%", "x y", True])
def test_button_values_quote_as_before_and_parse_back(value):
    text = do_value("tracker", unit=value, by=value)
    assert text == f"tracker unit={quote(str(value), safe='')} by={quote(str(value), safe='')}"
    assert parse_do(text) == {"type": "tracker", "unit": str(value), "by": str(value)}
    assert unquote(text.split("=", 1)[1].split()[0]) == str(value)


def test_templates_build_each_url_once_per_request_with_flasks_answer(app, monkeypatch):
    from companion.web import url_for_once
    built = []
    real = app.url_for
    monkeypatch.setattr(app, "url_for", lambda endpoint, **values: built.append(endpoint) or real(endpoint, **values))
    with app.test_request_context("/t/ABCDEF"):
        first = [url_for_once("play.act", code="ABCDEF") for _ in range(5)]
        other = url_for_once("play.poll", code="ABCDEF", seq=3)
        assert first == [real("play.act", code="ABCDEF")] * 5 and other == real("play.poll", code="ABCDEF", seq=3)
        assert built == ["play.act", "play.poll"]
        assert url_for_once("play.poll", code="ABCDEF", seq=4).endswith("seq=4")  # other values, built anew
    with app.test_request_context("/"):
        url_for_once("play.act", code="ABCDEF")
    assert built.count("play.act") == 2  # a new request builds again
    assert app.jinja_env.globals["url_for"] is url_for_once


def test_a_dicts_items_are_read_without_the_failed_attribute_lookup(app, monkeypatch):
    """companion.web.BoardEnvironment reads ``unit.name`` on a plain dict as the item first; what a
    template gets is what Jinja's own lookup gives, dict methods and missing names included."""
    from jinja2 import Environment

    env = app.jinja_env
    unit = {"name": "Falcon", "items": "not the method", "hp": 0}
    template = env.from_string("{{ u.name }}|{{ u.hp }}|{{ u.missing is undefined }}|{{ u.get('name') }}|"
                               "{{ u.items is callable }}|{{ s.upper() }}|{{ o.real }}")
    assert template.render(u=unit, s="ab", o=3) == "Falcon|0|True|Falcon|True|AB|3"
    tried = []
    real = Environment.getattr
    monkeypatch.setattr(Environment, "getattr", lambda self, obj, name: tried.append(name) or real(self, obj, name))
    template.render(u=unit, s="ab", o=3)
    assert "name" not in tried and "hp" not in tried  # items of a plain dict: no attribute tried first
    assert "items" in tried and "upper" in tried  # dict methods and other objects: Jinja's own way


def test_a_templates_context_is_made_without_walking_its_globals_chain(app, monkeypatch):
    """companion.board.reads.FlatGlobalsTemplate: Jinja walked each template's ChainMap of globals in
    Python twice per render and include (~2 % of a worker at 2,000 live phones); the context it makes
    now holds the same names, a template's own over the environment's, and a global set later."""
    from collections import ChainMap

    def walked(self):
        raise AssertionError("a ChainMap of globals walked in Python")
    env = app.jinja_env
    template = env.from_string("{{ shown }} {{ own }} {% include 'board/open.html' %}", globals={"own": "mine"})
    assert isinstance(template.globals, ChainMap)
    env.globals.update(shown="later", own="the environment's")
    monkeypatch.setattr(ChainMap, "__iter__", walked)
    with app.test_request_context("/"):
        html = template.render(row={"code": "ABCDEF", "seq": 3}, poll_seconds=2)
        context = template.new_context({"x": 1})
    assert html.startswith("later mine ") and 'hx-get="/t/ABCDEF/poll?seq=3"' in html  # (the include's url_for)
    assert context.parent["url_for"] is env.globals["url_for"] and context.parent["x"] == 1
    assert {"url_for", "shown", "own"} <= context.globals_keys
