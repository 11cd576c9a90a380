"""A template's words translated once, when it is compiled for a language, not at each render (issue 42's
bound: a board step draws some thirty parts, and every word of them was a catalog lookup).

- Each language has its own compiled templates: the app's Jinja environment hands a template to the
  overlay of the language in force (``i18n.current()``), whose cache is its own.
- A fixed message, ``_("Hull")``, becomes its translation as a constant of the compiled template: Jinja
  folds it into the template's text, so a render makes no call for it.
- A message with values, ``_("%(n)s hits", n=x)``, is looked up once at compile time too; only its
  values are filled in at render.
- ``ngettext`` stays a call (the number chooses the form at render), and so does a message Jinja cannot
  read as one string literal.
What a message becomes is exactly what the render-time ``_()`` made of it (companion/i18n.py): trusted
text, %-formatted with its values escaped, so "100%%" reads "100%" either way.
"""
from __future__ import annotations

import threading

from jinja2 import pass_eval_context
from jinja2.ext import Extension
from jinja2.lexer import Token
from markupsafe import Markup

GETTEXT = frozenset({"_", "gettext"})  # the names a template calls for a message (i18n.init_app)
FILLED = "_words_filled"  # a translated message's values filled in at render


@pass_eval_context
def fixed(eval_ctx, text: str):
    """A translated fixed message as the render-time ``_()`` returns it (trusted in an escaping
    template). A filter Jinja runs when it compiles the template: its argument is a constant."""
    return Markup(text) if eval_ctx.autoescape else text


@pass_eval_context
def filled(eval_ctx, text: str, **values):
    """A message's words (translated when its template was compiled, or by ``_()`` now) with its values
    filled in: trusted text in an escaping template, its values escaped; %-formatted whenever it holds a
    "%", so "%%" reads "%"."""
    if eval_ctx.autoescape:
        text = Markup(text)
    return text % values if "%" in text else text


class CompiledWords(Extension):
    """Rewrites ``_("…")`` in a template's tokens to the words of the environment's language."""

    def filter_stream(self, stream):
        translate = getattr(self.environment, "translate", None)
        if translate is None:
            yield from stream
            return
        tokens = list(stream)
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if (tok.type == "name" and tok.value in GETTEXT and i + 3 < len(tokens)
                    and (i == 0 or tokens[i - 1].type != "dot")
                    and tokens[i + 1].type == "lparen" and tokens[i + 2].type == "string"):
                text, end = translate(tokens[i + 2].value), tokens[i + 3]
                if end.type == "rparen":
                    try:
                        done = text % {} if "%" in text else text  # as _() with no values does
                    except (KeyError, TypeError, ValueError):
                        pass  # a message that needs values it was not given fails at render, as before
                    else:
                        yield Token(tok.lineno, "string", done)
                        yield Token(tok.lineno, "pipe", "|")
                        yield Token(tok.lineno, "name", "_words_fixed")
                        i += 4
                        continue
                elif end.type == "comma":
                    yield Token(tok.lineno, "name", FILLED)
                    yield tokens[i + 1]
                    yield Token(tokens[i + 2].lineno, "string", text)
                    i += 3
                    continue
            yield tok
            i += 1


class ByLanguage:
    """An environment (mixed into the app's) whose templates are compiled once per language: ``language``
    says the one in force now, ``catalog(lang)`` its translations."""

    words_language: str | None = None  # an overlay's own language; None on the app's environment itself
    translate = None

    def words_in(self, language, catalog) -> None:
        """Take the language in force from ``language()`` and each language's words from ``catalog``."""
        self._language, self._catalog = language, catalog
        self._overlays: dict[str, object] = {}
        self._overlays_lock = threading.Lock()
        self.add_extension(CompiledWords)
        self.filters["_words_fixed"] = fixed
        self.globals[FILLED] = filled

    def _for_now(self):
        if self.words_language is not None or not hasattr(self, "_language"):
            return None  # an overlay compiles its own templates; before words_in, as Jinja does
        lang = self._language()
        found = self._overlays.get(lang)
        if found is None:
            with self._overlays_lock:
                found = self._overlays.get(lang)
                if found is None:
                    found = self.overlay(cache_size=400)
                    found.words_language = lang
                    found.translate = self._catalog(lang).gettext
                    self._overlays[lang] = found
        return found

    def get_template(self, name, parent=None, globals=None):
        env = self._for_now()
        return (env or super()).get_template(name, parent, globals)

    def select_template(self, names, parent=None, globals=None):
        env = self._for_now()
        return (env or super()).select_template(names, parent, globals)

    def get_or_select_template(self, template_name_or_list, parent=None, globals=None):
        env = self._for_now()
        return (env or super()).get_or_select_template(template_name_or_list, parent, globals)
