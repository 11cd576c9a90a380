"""The refusals a player reads: one sentence, and the control it concerns (``field``).

Every error here is answered with its sentence and changes nothing (the caller throws the copy of
the state away).  How each is answered:

- ``RuleError``: a move the rules (or the input's limits) forbid: 400, the sentence next to the control.
- ``InputError``: input refused by the gate (``companion.validate``, the action schema): 400.
- ``CrashShielded``: action code crashed on odd input; 400 all the same, but a bug to mend.
- ``Stale``: the move was made against a view that is no longer current: 409.
- ``Moved``: undo or redo named a move that is no longer the one it would take back: 409.
- ``Finished``: the table is finished: browsable, no longer changeable: 409.
- ``Conflict``: a later move no longer applies without the one taken back: 409.

Pure: no Flask, no database.
"""
from __future__ import annotations


class RuleError(ValueError):
    """A move the rules (or the input's limits) forbid; ``field`` names the control it concerns."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class InputError(RuleError):
    """Input refused by the gate (answered 400)."""


class CrashShielded(InputError):
    """Action code crashed on odd input; answered 400 all the same, but it is a bug to mend where the
    input is read (the games' property tests fail on it)."""


class Stale(RuleError):
    """The move was made against a view that is no longer current (answered 409)."""


class Moved(Stale):
    """Undo (or redo) named a move that is no longer the one it would take back (answered 409);
    ``top`` is what it would take back now: {"seq", "label"} (None: nothing)."""

    def __init__(self, message: str, field: str, top: dict | None):
        super().__init__(message, field)
        self.top = top


class Finished(RuleError):
    """The table is finished: browsable, no longer changeable (409)."""


class Conflict(RuleError):
    """A later move no longer applies without the one taken back: nothing changed (409).
    ``failed`` is that move's seq, ``targets`` what was asked, so the answer can offer both."""

    def __init__(self, message: str, failed: int, targets: list[int]):
        super().__init__(message, "take-back")
        self.failed, self.targets = failed, targets
        self.offer = sorted(set(targets) | {failed})  # "take back both": what to send next
