"""Games: one package per game, found by the core, so a new game is files only.

A game's package (``companion/games/<package>/``, or a folder on ``COMPANION_GAMES``) holds its rules
(pure functions), its action types (registered with ``@action(..., systems={slug})`` when the module
is imported), its views (a Flask blueprint, if it has pages of its own) and its phase hook.  Its
``__init__.py`` declares it in one object and nothing else::

    from companion.games import Game
    GAME = Game(slug="dreadfleet", name="Dreadfleet")

The rest is found by name, the same in every game (tests/test_game_layout.py): the phase hook is
``phase.py``'s ``on_phase(state) -> reminders``, the blueprint ``views``' ``bp``.  The core imports
every module of every game package (that is how action types register), except ``views`` (a module
or a package), which only ``create_app`` loads (it needs Flask).
Its content is ``content/<slug>/``, its markup ``templates/games/<slug>/`` (or, for a game kept outside
this repository, ``<its package>/templates/games/<slug>/``), its styles and scripts
``static/games/<slug>.css`` / ``.js`` (declared: ``Game(styles=..., scripts=...)``); see docs/adding-a-game.md.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

VIEWS, PHASE = "views", "phase"  # the two modules the core finds by name in every game package


@dataclass(frozen=True)
class Game:
    slug: str  # the content pack's folder name: content/<slug>/
    name: str
    # its own stylesheets and scripts, paths under static/ ("games/talon.css"): the page head links
    # them once (templates/_macros.html game_head), never the board's swapped parts
    styles: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    # rolls applied by a later move of the game's, as pairs (("aa-attack", "aa-apply-attack"),): the TV
    # says whether each has been applied yet, in place of the words its label ends with while it was
    # not (``pending_words``, e.g. " (not yet applied)")
    applied_by: tuple[tuple[str, str], ...] = ()
    pending_words: str = ""
    # its own hit actions, as (action type, its unit field, its amount field): ("aa-damage", "unit",
    # "amount").  Two seats entering the same one a moment apart are asked "Same hit?"
    # (companion/same_hit.py), and the log offers Correct for it: the same hit on another unit or
    # for another amount (companion/take_back.py), as for a tracker's -/+ (issue 40 §4)
    hits: tuple[tuple[str, str, str], ...] = ()


@dataclass
class Found:
    """A discovered game: its declaration and the package it lives in."""
    game: Game
    package: str

    def _resolve(self, ref: str):
        module, _, attr = ref.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), attr)

    def _has(self, module: str) -> bool:
        return importlib.util.find_spec(f"{self.package}.{module}") is not None

    def blueprint(self):
        """``views.bp``: the game's pages, if it has a ``views`` module."""
        return self._resolve(f"{VIEWS}:bp") if self._has(VIEWS) else None

    def phase_hook(self) -> Callable[[dict], list[str]] | None:
        """``phase.on_phase``: run inside next-phase as each phase starts, if the game has one."""
        return self._resolve(f"{PHASE}:on_phase") if self._has(PHASE) else None

    def modules(self) -> list[str]:
        """Every module of the package but its views (and their submodules): the ones that register."""
        names, folders = [], [(self.package, importlib.import_module(self.package).__path__)]
        while folders:
            prefix, path = folders.pop()
            for info in pkgutil.iter_modules(path):
                if prefix == self.package and info.name == VIEWS:
                    continue
                name = f"{prefix}.{info.name}"
                names.append(name)
                if info.ispkg:
                    folders.append((name, importlib.import_module(name).__path__))
        return sorted(names)

    def templates(self) -> Path | None:
        """The package's own ``templates/`` folder, if it has one (a game kept outside the repository
        brings its markup along: ``templates/games/<slug>/_row.html`` inside its package)."""
        folder = Path(importlib.import_module(self.package).__file__).parent / "templates"
        return folder if folder.is_dir() else None


_found: dict[str, Found] | None = None
_hooks: dict[str, Callable | None] = {}


def games_dirs() -> list[Path]:
    """Extra folders of game packages, from ``COMPANION_GAMES`` (os.pathsep-separated)."""
    extra = os.environ.get("COMPANION_GAMES", "")
    return [Path(p).resolve() for p in extra.split(os.pathsep) if p]


def discover() -> dict[str, Found]:
    """Every game package, by slug, with all its modules imported (their action types registered)."""
    global _found
    if _found is not None:
        return _found
    for folder in games_dirs():
        if str(folder) not in __path__:
            __path__.append(str(folder))  # a game from elsewhere is companion.games.<its folder>
    found: dict[str, Found] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        package = f"{__name__}.{info.name}"
        game = getattr(importlib.import_module(package), "GAME", None)
        if not isinstance(game, Game):
            raise TypeError(f"{package}: its __init__.py must declare GAME = Game(...)")
        if game.slug in found:
            raise ValueError(f"{package}: game {game.slug!r} is already declared by {found[game.slug].package}")
        found[game.slug] = Found(game, package)
    _found = found  # set before importing modules: they may ask for the registry while loading
    for entry in found.values():
        for name in entry.modules():
            importlib.import_module(name)
    return found


def hit_actions() -> dict[str, tuple[str, str]]:
    """Every game's hit actions: action type -> (its unit field, its amount field)."""
    return {kind: (unit, amount) for found in discover().values() for kind, unit, amount in found.game.hits}


def declared(slug: str) -> Game | None:
    """The game's declaration, or None (Freeform)."""
    found = discover().get(slug)
    return found.game if found else None


def phase_hook(slug: str) -> Callable[[dict], list[str]] | None:
    """The game's phase hook, or None (Freeform and games without one)."""
    if slug not in _hooks:
        entry = discover().get(slug)
        _hooks[slug] = entry.phase_hook() if entry else None
    return _hooks[slug]


def template_dirs(app_templates: Path) -> list[Path]:
    """Where templates are found: the app's folder first, then each game package's own."""
    return [app_templates, *(t for t in (f.templates() for f in discover().values()) if t is not None)]


def blueprints() -> list:
    """Each game's blueprint, for create_app."""
    return [bp for bp in (f.blueprint() for f in discover().values()) if bp is not None]
