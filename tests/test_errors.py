"""The refusals a player reads live in one core module, ``companion.errors`` (issue 29)."""
from __future__ import annotations

import importlib
import pathlib
import re

import pytest

from companion import errors

PLAYER_FACING = ("RuleError", "InputError", "CrashShielded", "Stale", "Moved", "Finished", "Conflict")


def test_every_player_facing_error_is_defined_in_companion_errors():
    for name in PLAYER_FACING:
        assert getattr(errors, name).__module__ == "companion.errors", name
    assert issubclass(errors.Moved, errors.Stale) and issubclass(errors.CrashShielded, errors.InputError)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("companion.rules")  # the near-empty package went, with no shim


def test_no_other_module_defines_a_refusal_of_its_own():
    kinds = "|".join(PLAYER_FACING)
    found = [f"{path}: {m.group(0)}" for path in pathlib.Path("companion").rglob("*.py") if path.name != "errors.py"
             for m in re.finditer(rf"^class \w+\((?:{kinds})\)", path.read_text(), re.M)]
    assert found == []
