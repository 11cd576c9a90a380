"""Words a template says to a player without ``_()`` around them (issue 42): what the pseudo-language
could not wrap and a German phone would read in English.

What counts: text between tags, and the attributes a player reads or hears (``title``, ``aria-label``,
``placeholder``, ``alt``), once Jinja's own parts (``{{ }}``, ``{% %}``, ``{# #}``) and scripts are
taken out.  Text with no two letters in a row ("×", "◐", "d6", "2+") is no word.

Run it on templates to list what is left: ``python tests/i18n_marks.py templates/games/talon/*.html``.
"""
from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

# names, not words of a language: the same in every language's page
NAMES = {"companion"}
SPOKEN = ("title", "aria-label", "placeholder", "alt")
_JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.S)
_WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")


def _is_words(text: str) -> bool:
    text = text.strip()
    return bool(_WORD.search(text)) and text.lower() not in NAMES


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in SPOKEN and value and _is_words(value):
                self.found.append((self.getpos()[0], f'{name}="{value}"'))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and _is_words(data):
            self.found.append((self.getpos()[0], data.strip()))


def unmarked(source: str) -> list[tuple[int, str]]:
    """(line, text) of each unmarked word-bearing text of a template's source."""
    # a Jinja part becomes spaces of its length, newlines kept: the lines stay where they were
    blanked = _JINJA.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)).replace(" ", "\x00"), source)
    reader = _Reader()
    reader.feed(blanked.replace("\x00", ""))
    reader.close()
    return reader.found


def main(paths: list[str]) -> int:
    left = 0
    for path in paths:
        for line, text in unmarked(Path(path).read_text()):
            print(f"{path}:{line}: {text}")
            left += 1
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
