"""The Impulse Chart and the round: who moves, who gets Available Power, whose turn it is.

Pure.  Sources: TALON.md section 1 (FAN artifact/Phase.js; BGA tutorial; TT#2; PBF schedules) and
section 3 (rulebook 3.1: Impulses A-F, each the Initiative Player's turn then the Second Player's,
then the Power Phase; seed 003 5.1 "Power Phase: ... occurs after Impulse F").
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import _

# TALON.md section 1: the numbers printed in each impulse box.
IMPULSE_CHART: dict[str, tuple[int, ...]] = {
    "A": (4, 5, 6),
    "B": (3, 5, 6),
    "C": (2, 4, 5, 6),
    "D": (3, 4, 5, 6),
    "E": (6,),
    "F": (1, 2, 3, 4, 5, 6),
}
IMPULSES = tuple(IMPULSE_CHART)
POWER_PHASE = "Power Phase"


def moves(speed: int, impulse: str) -> bool:
    """A ship moves in an impulse whose box contains its Speed (BGA help 1.1.2; seed 003 5.1: at most one hex)."""
    return speed in IMPULSE_CHART[impulse]


def gets_ap(power: int, impulse: str) -> bool:
    """1 AP in an impulse whose box contains its Power ("leftmost digit on Power Curve matches any digit
    in impulse box", BGA help 1.1.2).  Power 0 or less gets none."""
    return power in IMPULSE_CHART[impulse]


def schedule(power: int, speed: int) -> list[dict]:
    """The round as players draw it on paper ("ship / curve / A-F: AP, move", PBF)."""
    return [{"impulse": i, "ap": gets_ap(power, i), "move": moves(speed, i)} for i in IMPULSES]


def phase_names() -> list[str]:
    """The round as the table's phase list: each impulse's two player turns, then the Power Phase."""
    out = []
    for letter in IMPULSES:
        out += [f"{letter} · initiative player", f"{letter} · other player"]
    return out + [POWER_PHASE]


def where(phase_name: str) -> tuple[str | None, int | None]:
    """(impulse letter, 0 for the initiative player's turn / 1 for the other's), or (None, None) in the Power Phase."""
    letter, _sep, half = phase_name.partition(" · ")
    if letter in IMPULSE_CHART and half in ("initiative player", "other player"):
        return letter, 0 if half == "initiative player" else 1
    return None, None


def impulse_key(round_no: int, letter: str) -> str:
    """One impulse of the game, e.g. "3C" (round 3, impulse C): the 'one AP per impulse' books."""
    return f"{round_no}{letter}"


# --- power curve (seed 003 5.4) --------------------------------------------------------------

def parse_row(text: str) -> tuple[int, int, int | None]:
    """'3-3-2' -> (3, 3, 2): Power, Speed, Turn Radius (seed 003 5.4.1); 'n/a' radius -> None (Bases)."""
    parts = str(text).split("-", 2)
    if len(parts) != 3:
        raise RuleError(_("A power curve row is Power-Speed-Turn, like 3-3-2; got %(text)r.", text=text), "curve")
    try:
        power, speed = int(parts[0]), int(parts[1])
        radius = None if parts[2].strip().lower() == "n/a" else int(parts[2])
    except ValueError:
        raise RuleError(_("A power curve row is Power-Speed-Turn, like 3-3-2; got %(text)r.", text=text),
                        "curve") from None
    if not 0 <= power <= 12 or not 0 <= speed <= 6 or (radius is not None and not 0 <= radius <= 9):
        raise RuleError(_("Power 0-12, Speed 0-6, Turn Radius 0-9 or n/a; got %(text)r.", text=text), "curve")
    return power, speed, radius


def row_text(row) -> str:
    power, speed, radius = row
    return f"{power}-{speed}-{'n/a' if radius is None else radius}"


def curve_step(row: int, new_row: int, rows: int) -> None:
    """Seed 003 5.4.3: 'Normally, a ship can only change her Speed by one' in the Power Phase."""
    if not 0 <= new_row < rows:
        raise RuleError(_("That row is not on the ship's power curve."), "row")
    if abs(new_row - row) != 1:
        raise RuleError(_("The power curve moves one row (Speed by one) per Power Phase (rulebook 5.4.3)."), "row")
