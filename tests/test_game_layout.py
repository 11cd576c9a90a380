"""Every game laid out alike (issue 41): the same file names for the same roles, so a newcomer who has
read one game's package can find their way in any other, and the core finds a game's parts by name.

    companion/games/<package>/
        __init__.py          GAME = Game(slug=..., name=...)  and nothing else
        rules.py | rules/    pure: the rulebook's procedures and numbers (no state, no Flask, no store)
        actions.py | actions/  every action type the game registers (@action), with its deciders
        state.py | state/    (optional) reading and changing a table's state, shared by actions and views
        views.py | views/    (optional) the game's pages: a Flask blueprint ``bp`` and its template globals
        phase.py             (optional) ``on_phase(state) -> reminders``, run inside next-phase
        templates/           (optional, a game kept outside the repository) its markup
"""
from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest
from flask import Blueprint

from companion import actions, games

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "tests" / "tiny_game" / "games" / "tiny_duel"
FOUND = games.discover()
ROLES = {"rules", "actions", "state", "views", "phase"}
REQUIRED = {"rules", "actions"}


def _folder(package: str) -> Path:
    return Path(importlib.import_module(package).__file__).parent


def _packages() -> list[tuple[str, Path]]:
    return [*((slug, _folder(f.package)) for slug, f in sorted(FOUND.items())), ("tiny-duel", TINY)]


PACKAGES = _packages()


def _roles(folder: Path) -> dict[str, Path]:
    """The package's top-level entries by role name: ``x.py`` and ``x/`` are both role ``x``."""
    found = {}
    for entry in folder.iterdir():
        if entry.name in ("__init__.py", "__pycache__", "templates"):
            continue
        if entry.is_dir() and not (entry / "__init__.py").exists():
            continue
        found[entry.name.removesuffix(".py")] = entry
    return found


@pytest.mark.parametrize("slug,folder", PACKAGES, ids=[s for s, _ in PACKAGES])
def test_a_game_holds_only_the_named_roles(slug, folder):
    roles = _roles(folder)
    assert set(roles) <= ROLES, f"{slug}: {sorted(set(roles) - ROLES)} are not one of {sorted(ROLES)}"
    assert REQUIRED <= set(roles), f"{slug} has no {sorted(REQUIRED - set(roles))}"


@pytest.mark.parametrize("slug,folder", PACKAGES, ids=[s for s, _ in PACKAGES])
def test_the_declaration_is_the_game_and_nothing_else(slug, folder):
    """``__init__.py`` holds its docstring, its one import and ``GAME = Game(...)``: no module:attribute
    strings (the core finds ``views.bp`` and ``phase.on_phase`` by name)."""
    tree = ast.parse((folder / "__init__.py").read_text())
    body = [n for n in tree.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    kinds = [type(n).__name__ for n in body]
    assert kinds in (["ImportFrom", "Assign"], ["ImportFrom", "ImportFrom", "Assign"]), (slug, kinds)
    call = body[-1].value
    assert isinstance(call, ast.Call) and getattr(call.func, "id", "") == "Game"
    assert not {k.arg for k in call.keywords} & {"blueprint", "phase_hook"}, f"{slug} names its hooks by string"


@pytest.mark.parametrize("slug", sorted(FOUND))
def test_action_types_live_in_actions(slug):
    found = FOUND[slug]
    own = {t: a for t, a in actions.available(slug).items() if a.systems and slug in a.systems}
    home = f"{found.package}.actions"
    strays = sorted(f"{t} ({a.apply.__module__})" for t, a in own.items()
                    if a.apply.__module__ != home and not a.apply.__module__.startswith(home + "."))
    assert strays == [], f"{slug}: action types registered outside actions: {strays}"


@pytest.mark.parametrize("slug", sorted(FOUND))
def test_the_phase_hook_and_the_pages_are_found_by_name(slug):
    found, folder = FOUND[slug], _folder(FOUND[slug].package)
    roles = _roles(folder)
    hook = found.phase_hook()
    assert (hook is not None) == ("phase" in roles)
    if hook is not None:
        assert hook.__name__ == "on_phase" and hook.__module__ == f"{found.package}.phase"
        assert list(inspect.signature(hook).parameters) == ["state"], "on_phase(state) -> reminders"
    bp = found.blueprint()
    assert (bp is not None) == ("views" in roles)
    if bp is not None:
        assert isinstance(bp, Blueprint)


@pytest.mark.parametrize("slug,folder", PACKAGES, ids=[s for s, _ in PACKAGES])
def test_template_globals_are_registered_one_way_in_views(slug, folder):
    """One way for every game: ``@bp.app_template_global()`` in views (Flask's own), never the app's
    jinja_env reached into from a setup function."""
    for path in folder.rglob("*.py"):
        text = path.read_text()
        assert "jinja_env" not in text, f"{path.relative_to(REPO)} reaches into the app's jinja_env"
        if "app_template_global" in text or "add_app_template_global" in text:
            assert path.relative_to(folder).parts[0] in ("views.py", "views"), path


@pytest.mark.parametrize("slug", sorted(FOUND))
def test_every_action_takes_the_state_and_its_arguments(slug):
    """An action is ``apply(state, p) -> label``; its decider ``(state, args, ctx) -> payload``; its
    dice check ``(state, p)``: the three shapes docs/adding-a-game.md §5 and §7 name."""
    def takes(fn) -> int:  # the arguments it must be given (the core's wrapper adds one with a default)
        return sum(p.default is inspect.Parameter.empty for p in inspect.signature(fn).parameters.values())
    own = {t: a for t, a in actions.available(slug).items() if a.systems and slug in a.systems}
    for type_, entry in own.items():
        assert takes(entry.apply) == 2, type_
        if entry.decide:
            assert takes(entry.decide) == 3, type_
        if entry.dice:
            assert takes(entry.dice) == 2, type_
