"""A template's words translated when it is compiled for a language (companion/template_words.py): the
page reads as the render-time ``_()`` made it, in each language, with no lookup left at render."""
from __future__ import annotations

import pytest
from jinja2 import DictLoader, Environment

from companion import create_app
from companion.i18n import PSEUDO, Pseudo, _template_gettext, _template_ngettext, current, translations
from companion.template_words import ByLanguage


class Env(ByLanguage, Environment):
    pass


PAGE = ('<b>{{ _("Next phase") }}</b>|{{ _("Join %(table)s", table=name) }}|{{ _("100%%") }}'
        '|{{ ngettext("%(num)d box", "%(num)d boxes", n) }}|{{ _(dynamic) }}|{{ _("a" "b") }}')


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({"TESTING": True, "PSEUDO_LOCALE": True,
                       "DATABASE": str(tmp_path_factory.mktemp("words") / "t.sqlite")})


def env_in(catalog=translations):
    """Templates of our own in an environment as the app's: the language in force is the request's."""
    env = Env(loader=DictLoader({"page.html": PAGE, "plain.txt": '{{ _("Next phase") ~ name }}',
                                 "fixed.html": '{{ _("Next phase") }}|{{ _("Join %(table)s", table=name) }}'}),
              autoescape=lambda name: name.endswith(".html"))
    env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)
    env.words_in(current, catalog)
    return env


def test_each_language_reads_its_own_words_from_its_own_compiled_template(app):
    env = env_in()
    values = {"name": "<Nimitz & co>", "n": 2, "dynamic": "Next phase"}
    de = translations("de")
    with app.test_request_context("/?lang=de"):
        german = env.get_template("page.html")
        assert german.render(values) == (
            "<b>Nächste Phase</b>|" + de.gettext("Join %(table)s") % {"table": "&lt;Nimitz &amp; co&gt;"}
            + "|100%|" + de.ngettext("%(num)d box", "%(num)d boxes", 2) % {"num": 2} + "|Nächste Phase|ab")
    with app.test_request_context("/?lang=en"):
        english = env.get_template("page.html")
        assert english is not german and env.get_template("page.html") is english  # one compiled template each
        assert english.render(values) == "<b>Next phase</b>|Join &lt;Nimitz &amp; co&gt;|100%|2 boxes|Next phase|ab"
    with app.test_request_context("/?lang=de"):
        assert env.get_template("page.html") is german


def test_a_fixed_message_is_text_of_the_compiled_template_not_a_call(app):
    with app.test_request_context("/?lang=de"):
        env = env_in().get_template("page.html").environment
    code = env.compile(env.loader.get_source(env, "page.html")[0], "page.html", raw=True)
    assert "<b>Nächste Phase</b>|" in code and "Next phase'" not in code  # folded into the template's text
    assert "|100%|" in code  # "%%" read as _() reads it


def test_a_template_that_does_not_escape_gets_plain_text_as_before(app):
    with app.test_request_context("/?lang=de"):
        assert env_in().get_template("plain.txt").render(name=" & <b>") == "Nächste Phase & <b>"


def test_the_pseudo_language_still_learns_every_message_it_was_asked(app):
    # (a pseudo-language of its own: the app's keeps what every page asked, which tests/test_i18n_pseudo.py
    # checks against the catalogs, and these messages are not all there)
    pseudo = Pseudo()
    with app.test_request_context(f"/?lang={PSEUDO}"):
        page = env_in(lambda lang: pseudo if lang == PSEUDO else translations(lang)).get_template("fixed.html")
        assert page.render(name="N") == "[[Next phase]]|[[Join N]]"
    assert pseudo.asked == {"Next phase", "Join %(table)s"}  # asked when the template was compiled
