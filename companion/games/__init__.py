"""Games: one package per game, found by the core, so a new game is files only.

A game's package (``companion/games/<package>/``, or a folder on ``COMPANION_GAMES``) holds its rules
(pure functions), its action types (registered with ``@action(..., systems={slug})`` when the module
is imported), its views (a Flask blueprint, if it has pages of its own) and its phase hook.  Its
``__init__.py`` declares it in one object and nothing else::

    from companion.games import Game
    GAME = Game(slug="dreadfleet", name="Dreadfleet", blueprint="views:bp", phase_hook="game_turn:reminders")

``blueprint`` and ``phase_hook`` name ``module:attribute`` inside the package, so declaring a game
imports nothing.  The core imports every module of every game package (that is how action types
register), except the blueprint's module, which only ``create_app`` loads (it needs Flask).
Its content is ``content/<slug>/``, its markup ``templates/games/<slug>/`` (or, for a game kept outside
this repository, ``<its package>/templates/games/<slug>/``), its styles and scripts
``static/games/<slug>.css`` / ``.js`` (declared: ``Game(styles=..., scripts=...)``); see docs/adding-a-game.md.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Game:
    slug: str  # the content pack's folder name: content/<slug>/
    name: str
    blueprint: str | None = None  # "module:attribute" of a flask Blueprint in the package
    phase_hook: str | None = None  # "module:function"; state -> reminders, runs inside next-phase
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

    def blueprint(self):
        return self._resolve(self.game.blueprint) if self.game.blueprint else None

    def phase_hook(self) -> Callable[[dict], list[str]] | None:
        return self._resolve(self.game.phase_hook) if self.game.phase_hook else None

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
        skip = entry.game.blueprint.partition(":")[0] if entry.game.blueprint else None
        pkg = importlib.import_module(entry.package)
        for mod in pkgutil.walk_packages(pkg.__path__, prefix=f"{entry.package}."):
            if mod.name.rpartition(".")[2] != skip:
                importlib.import_module(mod.name)
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
