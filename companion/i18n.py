"""Each phone in its player's language (issue 42): which language a request is drawn in, and the app's
words in it.

- The words are written in English where they are used (templates' ``_()``, Python's ``gettext``):
  English is the message ids themselves.  German and French come from
  ``companion/translations/<lang>/LC_MESSAGES/messages.po``, read by Babel once per process: the
  ``.po`` is the one place a translation lives (no compiled ``.mo`` beside it to drift).
- Which language: ``?lang=`` (the big screen's link), else the phone's own choice (the menu's switch,
  kept in the seat cookie beside its seats), else the browser's ``Accept-Language``, else English.
- The board is drawn once per view and shared by every phone of it (companion/board), so a view
  carries its language (``seat.View.lang``) and a board is drawn in it (``drawn_in``).
- The rulebooks' own words (a table's name, a ship's, a quoted rule) are not the app's: they are
  data in ``content/`` and are never passed through gettext.
"""
from __future__ import annotations

import io
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from urllib.parse import urlencode

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations
from flask import Blueprint, abort, current_app, g, has_request_context, redirect, request, session, url_for
from flask_babel import Babel, Domain
from jinja2 import pass_eval_context
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from companion import content, said
from companion.said import spoken as said_now
from companion.template_words import filled

# the languages a player can choose, each in its own words (the menu shows them so)
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français"}
DEFAULT = "en"
PSEUDO = "xx"  # the tests' pseudo-language: every message wrapped, so an unmarked word shows (tests/test_i18n.py)
_PSEUDO_AS = "eo"
CATALOGS = Path(__file__).parent / "translations"


def valid(lang: str | None) -> str | None:
    """``lang`` if the app speaks it (the pseudo-language only where the app is told to), else None."""
    if lang in LANGUAGES:
        return lang
    if lang == PSEUDO and current_app.config.get("PSEUDO_LOCALE"):
        return lang
    return None


def choose() -> str:
    """The language this request is drawn in (Flask-Babel asks once per request and keeps it)."""
    if not has_request_context():
        return DEFAULT
    asked = valid(request.args.get("lang"))
    if asked:
        return asked
    chosen = valid(session.get("lang"))
    if chosen:
        return chosen
    return _from_header(request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=512)
def _from_header(header: str) -> str:
    """The language a browser's Accept-Language asks for, parsed once per header a server sees (a
    table's phones send a handful)."""
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES, DEFAULT) or DEFAULT


def current() -> str:
    """The language in force now (a forced one while a board is drawn for a view), chosen once per
    request and kept with it: a board's parts ask for it hundreds of times (issue 42's bound)."""
    try:
        return g._lang
    except AttributeError:
        pass
    except RuntimeError:  # (no app context: a script, a pure test)
        return DEFAULT
    try:
        lang = choose()
    except RuntimeError:  # (an app context without a request: a command, a replay at start)
        return DEFAULT
    g._lang = lang
    return lang


def catalog() -> NullTranslations:
    """The catalog in force now, found once per request (and per board drawn in another language):
    every message of a render is one dictionary lookup in it (issue 42's bound on a board's time)."""
    try:
        return g._catalog
    except AttributeError:
        found = g._catalog = translations(current())
        return found


@contextmanager
def drawn_in(lang: str):
    """Draw in ``lang`` whatever the request's own is: a view's board is drawn once for every phone of it."""
    before = current()
    if lang == before:
        yield
        return
    catalog_before = g.pop("_catalog", None)
    g._lang, g._catalog = lang, translations(lang)
    try:
        yield
    finally:
        g._lang = before
        g.pop("_catalog", None)
        if catalog_before is not None:
            g._catalog = catalog_before


def _babel_name(lang: str) -> str:
    # Babel knows no "xx": the pseudo-language borrows Esperanto's locale, which the app never offers
    return _PSEUDO_AS if lang == PSEUDO else lang


class Pseudo(NullTranslations):
    """Every message wrapped in [[ ]]: a page drawn in it shows any word that was not marked.  It keeps
    what it was asked (``asked``): the tests check that each is in the catalogs (a message no
    extraction found would stay English in German)."""

    def __init__(self):
        super().__init__()
        self.asked: set[str] = set()

    def gettext(self, message):
        self.asked.add(message)
        return f"[[{message}]]"

    def ngettext(self, singular, plural, n):
        self.asked.add(singular)
        return f"[[{singular if n == 1 else plural}]]"

    def pgettext(self, context, message):
        return self.gettext(message)

    def npgettext(self, context, singular, plural, n):
        return self.ngettext(singular, plural, n)

    ugettext, ungettext, upgettext, unpgettext = gettext, ngettext, pgettext, npgettext


@cache
def translations(lang: str) -> NullTranslations:
    """The catalog of ``lang``, read once: English is the ids themselves."""
    if lang == PSEUDO:
        return Pseudo()
    path = CATALOGS / lang / "LC_MESSAGES" / "messages.po"
    if lang == DEFAULT or not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, as gettext does
    compiled.seek(0)
    return Translations(compiled)


class _Catalogs(Domain):
    def get_translations(self):
        return catalog() if g else NullTranslations()


_DOMAIN = _Catalogs()
_ENGLISH = translations(DEFAULT)  # (the ids themselves: a label reads as it was stored)


class _Babel(Babel):
    @property
    def domain_instance(self):
        return _DOMAIN


bp = Blueprint("i18n", __name__)


@bp.post("/lang")
def switch():
    """The menu's switch: the phone's language, kept in its seat cookie (every table it sits at), and
    back to the page it was on, drawn anew in it."""
    lang = valid(request.form.get("lang"))
    if lang is None:
        abort(400, said._("Choose one of: %(langs)s.", langs=", ".join(LANGUAGES)))
    session["lang"] = lang
    back = request.form.get("next", "")
    # only a path of this site: never a redirect elsewhere
    return redirect(back if back.startswith("/") and not back.startswith("//") else url_for("lobby.home"), 303)


def in_words(label: str | None, said: dict | None) -> str | None:
    """A stored label in the reader's language: its message (companion/said.py) drawn in it, else the
    English it was stored in (an event from before messages were kept)."""
    if said is None or label is None:
        return label
    return label if catalog() is _ENGLISH else said_now(said)


def say(kept) -> str:
    """A sentence a game kept in its state (``said.kept``) in the reader's language; a plain ``str`` (a
    name, or an older table's English) as it is."""
    if not isinstance(kept, dict):
        return "" if kept is None else own(kept)
    return said_now(kept)


def own(printed: str) -> str:
    """A content pack's text (a setting's label, a stat's name, a phase's reminder) in the reader's
    language where the pack carries its own translation (``*.de.toml``, docs/content.md); else as
    printed.  The app never translates a pack's words itself."""
    lang = current()
    if lang == DEFAULT or not isinstance(printed, str):
        return printed
    return content.words(lang).get(printed, printed)


def inside(word: str) -> str:
    """A pack's word (a round's name, "Turn") inside a sentence of the app's: in the reader's language
    (``own``), lower case as English and French write it there; German keeps a noun's capital."""
    theirs = own(word)
    return theirs if current() == "de" else theirs.lower()


def number(value, digits: int = 0, signed: bool = False) -> str:
    """A number as the reader writes it (Babel): "1,234.5" in English, "1.234,5" in German; ``signed``
    puts a + before a positive one.  For a figure shown on its own or inside a message."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=f"+{pattern};-{pattern}" if signed else pattern, locale=_locale())


def _numbers_now():
    """How the phone asking now writes the numbers inside a sentence: ``number`` in its language, None
    in English (a move's label reads exactly as it was stored)."""
    return None if current() == DEFAULT else number


def percent(share: float, digits: int = 0) -> str:
    """A share (0.415) as the reader writes a percentage: "41.5%" in English, "41,5 %" in German."""
    locale = _locale()
    pattern = locale.percent_formats[None].pattern  # the locale's own ("#,##0 %" in German: a space)
    return format_percent(share, format=pattern.replace("0", "0." + "0" * digits, 1) if digits else pattern,
                          locale=locale)


def _locale() -> Locale:
    return _locale_of(current())


@lru_cache(maxsize=8)
def _locale_of(lang: str) -> Locale:
    return Locale.parse(_babel_name(lang))


def _now(msg: str) -> str:
    """The words of the phone asking now (companion.said._): English outside a request's app."""
    return catalog().gettext(msg) if g else msg


@cache
def _script_words() -> tuple[str, ...]:
    """The English of every ``word("…")`` in the phone's script (static/js), found once."""
    from babel.messages.extract import extract_from_dir
    folder = Path(current_app.static_folder) / "js"
    return tuple(sorted({m[2] for m in extract_from_dir(str(folder), [("**.js", "javascript")], keywords={"word": None})}))


def phone_words() -> dict[str, str]:
    """What the phone's script says, in this page's language (static/js/words.js): none in English."""
    lang = current()
    if lang == DEFAULT:
        return {}
    found = translations(lang)
    return {w: found.gettext(w) for w in _script_words()}


def lang_next() -> str:
    """Where the switch returns to: this page, without a ``?lang=`` that would outvote the choice."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    return request.path + ("?" + urlencode(args) if args else "")


@pass_eval_context
def _template_gettext(eval_ctx, message: str, **values):
    """A template's ``_("…", name=value)``: as Jinja's newstyle gettext (the message trusted, its values
    escaped; always %-formatted, so "%%" reads "%"), in one call."""
    return filled(eval_ctx, catalog().gettext(message), **values)


@pass_eval_context
def _template_ngettext(eval_ctx, singular: str, plural: str, num, **values):
    """A template's ``ngettext("%(num)d box", "%(num)d boxes", n)``: as Jinja's newstyle ngettext, in one call."""
    values.setdefault("num", num)
    text = catalog().ngettext(singular, plural, num)
    if eval_ctx.autoescape:
        text = Markup(text)
    return text % values


def init_app(app) -> None:
    _Babel(app, locale_selector=lambda: _babel_name(choose()))
    app.context_processor(lambda: {"lang": current(), "languages": LANGUAGES, "lang_next": lang_next,
                                               "phone_words": phone_words})
    app.jinja_env.globals["told"] = in_words  # {{ told(e.label, e.said) }}: a move in the reader's words
    app.jinja_env.filters["own"] = own  # {{ spec.help|own }}: a pack's words, in its own translation if any
    app.jinja_env.filters["inside"] = inside  # {{ state.round_label|inside }}: "until turn 3", "bis Zug 3"
    app.jinja_env.filters["number"] = number  # {{ odds.expected|number(2) }}
    app.jinja_env.filters["percent"] = percent  # {{ p|percent(1) }}
    app.jinja_env.globals["say"] = say  # {{ say(state.reminders[0]) }}: a kept sentence in the reader's words
    said.translate = _now
    said.write_number = number
    said.numbers_now = _numbers_now
    # the templates' _() and ngettext(): one lookup in the catalog found once (Flask-Babel's own would
    # find the locale and the domain again for every message), called straight, not through Jinja's
    # newstyle wrappers and its "_" alias (three calls through the template context for every message)
    app.jinja_env.install_gettext_callables(gettext=lambda s: catalog().gettext(s),
                                            ngettext=lambda s, p, n: catalog().ngettext(s, p, n), newstyle=True)
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)
    # and a message written out in a template is translated when the template is compiled for a language,
    # not at each render (companion/template_words.py); the calls above are for the rest
    app.jinja_env.words_in(current, translations)
    app.register_blueprint(bp)
