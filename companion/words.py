"""Words a player reads: a rule's sentence without our source notes.

The games' sentences name where a rule comes from, e.g. "Only a single Ready card may be played
(seed 000, Power Management)." or "... to the same target (L132).". The source stays in the log and
the API (it is how we check a rule); on the screen a player reads the rulebook's section name, or
nothing where the note is only a line number of our notes.
"""
from __future__ import annotations

import re

# "(L132)", "(L132-L140)", "(L12, L40-42)": line numbers of our seed notes, nothing a player can open
_LINES = re.compile(r"\s*\(L\d+(?:\s*[-–,]\s*L?\d+)*\)")
# "(seed 000)" or "(seed 001 4.2)" alone
_SEED_ONLY = re.compile(r"\s*\(seed \d{3}(?:[ §]+[\d.]+)?\)")
# "(seed 000, Power Management)" -> "(Power Management)": the section name is the rulebook's own
_SEED_NAMED = re.compile(r"\(seed \d{3}(?:[ §]+[\d.]+)?,\s*")


def for_players(sentence: str) -> str:
    """The sentence as the screen shows it."""
    text = _LINES.sub("", sentence)
    text = _SEED_ONLY.sub("", text)
    return _SEED_NAMED.sub("(", text)
