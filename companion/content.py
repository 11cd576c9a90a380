"""Content packs: one folder of TOML per system, validated when loaded.

Layout of ``content/<slug>/`` (see docs/content.md):
  system.toml          the system: name, sides, turn sequence, unit templates, decks, gauges
  tables/<table>.toml  lookup tables (title, source, columns, rows)
  decks/<deck>.toml    deck definitions (cards); example decks say so
  fleets/<fleet>.toml  ready-made fleets or rosters (free-form, checked by the rules module)
  data/<name>.toml     other data a rules module reads (free-form)

Every error names the file, the key path and what was expected.  Pure: no Flask, no database.
"""
from __future__ import annotations

import hashlib
import os
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from companion.assets import asset_dir

CONTENT_DIR = asset_dir("content")

TRACKER_KINDS = ("counter", "boxes", "arcs", "charge", "cooldown", "conditions", "gauge")


class ContentError(ValueError):
    """A content file does not match the schema; the message names file, key path and expectation."""


@dataclass
class System:
    slug: str
    name: str
    source: str
    sides: list[str]
    phases: list[str]
    round_label: str = "Round"
    phase_reminders: dict = field(default_factory=dict)
    templates: dict = field(default_factory=dict)
    decks: dict = field(default_factory=dict)
    gauges: dict = field(default_factory=dict)
    table_trackers: list = field(default_factory=list)
    tables: dict = field(default_factory=dict)
    fleets: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    add_units: bool = True  # false: units come only from the game's own set-up (the generic form hides)
    activation: bool = True  # false: the game has no unit activations (no Activate button)
    stats_line: bool = True  # false: the game's own unit panel shows the stats (no generic line)
    # the helper a side with no units yet is sent to ("Go to the helpers"): the id of the element in the
    # game's helpers where units are made (a ship designer, say); empty: the helpers' top
    setup_helper: str = ""
    version: str = ""
    # the pack's own translations (``*.de.toml`` beside a file, docs/content.md): language -> the
    # words as printed -> that language's; what no file translates reads as printed
    words: dict = field(default_factory=dict)

    def summary(self) -> dict:
        return {"slug": self.slug, "name": self.name}

    def drawn_from(self) -> tuple:
        """What a board part drawn from this pack depends on, for companion/board/reads.py to compare
        between draws: the digest of the pack's files (a pack is loaded once per process and never
        changed), not its whole text (printing that took about 1 % of a busy server's CPU)."""
        return (self.slug, self.version) if self.version else (self.slug, repr(self))


# --- a tiny schema checker -------------------------------------------------------------------

def _fail(path: Path, key: str, expected: str, got) -> None:
    raise ContentError(f"{path}: {key or '(top level)'}: expected {expected}, got {got!r}.")


def _check(path: Path, key: str, value, kind, *, allow_empty=True):
    """Check one value's type; ``kind`` is a type, a tuple of types, or 'list[str]'-style text."""
    names = {str: "a string", int: "an integer", bool: "true or false", float: "a number",
             list: "a list", dict: "a table"}
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            _fail(path, key, "a number", value)
        return value
    if isinstance(kind, str) and kind.startswith("list["):
        inner = {"list[str]": str, "list[int]": int, "list[dict]": dict, "list[list]": list}[kind]
        if not isinstance(value, list):
            _fail(path, key, f"a list of {names[inner]}s", value)
        for i, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, inner):
                _fail(path, f"{key}[{i}]", names[inner], item)
        if not allow_empty and not value:
            _fail(path, key, "a non-empty list", value)
        return value
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        _fail(path, key, names.get(kind, str(kind)), value)
    if kind is str and not allow_empty and not value.strip():
        _fail(path, key, "a non-empty string", value)
    return value


def _keys(path: Path, key: str, table: dict, required: dict, optional: dict) -> dict:
    """Check required and optional keys of one TOML table and reject unknown ones (typos)."""
    prefix = f"{key}." if key else ""
    for name, kind in required.items():
        if name not in table:
            _fail(path, prefix + name, f"this key ({_describe(kind)})", "nothing")
        _check(path, prefix + name, table[name], kind, allow_empty=False)
    for name, kind in optional.items():
        if name in table:
            _check(path, prefix + name, table[name], kind)
    unknown = set(table) - set(required) - set(optional)
    if unknown:
        allowed = ", ".join(sorted(set(required) | set(optional)))
        _fail(path, prefix + sorted(unknown)[0], f"one of the known keys ({allowed})", "an unknown key")
    return table


def _describe(kind) -> str:
    return kind if isinstance(kind, str) else getattr(kind, "__name__", str(kind))


TRACKER_PARAMS = {
    "counter": ({}, {"min": int, "max": int, "start": int, "max_stat": str, "start_stat": str}),
    "boxes": ({"count": int}, {"flagged": "list[int]", "rows": int, "flag_label": str, "count_stat": str}),
    "arcs": ({"arcs": "list[dict]"}, {}),
    "charge": ({"red": int}, {"yellow": int}),
    "cooldown": ({"every": int}, {"per": str}),
    "conditions": ({}, {"options": "list[str]", "ends": dict, "blocked_by": dict}),
    "gauge": ({}, {"positions": "list[int]", "min": int, "max": int, "start": int, "ring": bool}),
}


# What a tracker can hold at all (input limits, not rules: no game's card needs more); a spec
# outside them (a box track of -1 boxes, a cooldown every 0 rounds) could never be played.
TRACKER_BOUNDS = {
    "counter": {"min": (-100_000, 100_000), "max": (-100_000, 100_000), "start": (-100_000, 100_000)},
    "boxes": {"count": (1, 200), "rows": (1, 20)},
    "charge": {"red": (0, 50), "yellow": (0, 50)},
    "cooldown": {"every": (1, 100)},
    "gauge": {"min": (-1000, 1000), "max": (-1000, 1000), "start": (-1000, 1000)},
}
MAX_TRACKER_TEXT = 60
MAX_OPTIONS = 30
MAX_ARCS = 12


def _check_bounds(path: Path, key: str, spec: dict) -> None:
    kind = spec["kind"]
    for name, (lo, hi) in TRACKER_BOUNDS.get(kind, {}).items():
        if name in spec and not lo <= spec[name] <= hi:
            _fail(path, f"{key}.{name}", f"a whole number from {lo} to {hi}", spec[name])
    for name in ("id", "label", "flag_label"):
        if name in spec and len(spec[name]) > MAX_TRACKER_TEXT:
            _fail(path, f"{key}.{name}", f"at most {MAX_TRACKER_TEXT} characters", spec[name][:20] + "...")
    if kind == "charge" and spec["red"] + spec.get("yellow", 0) < 1:
        _fail(path, f"{key}.red", "at least one red or yellow box", spec["red"])
    if kind == "gauge":
        if "min" in spec and "max" in spec and spec["min"] > spec["max"]:
            _fail(path, f"{key}.max", f"a number >= min ({spec['min']})", spec["max"])
        positions = spec.get("positions", [])
        if len(positions) > 200 or any(not -1000 <= p <= 1000 for p in positions):
            _fail(path, f"{key}.positions", "at most 200 positions from -1000 to 1000", positions[:5])
        if "positions" in spec and not positions:
            _fail(path, f"{key}.positions", "at least one position", positions)
    if kind == "conditions":
        options = spec.get("options", [])
        if len(options) > MAX_OPTIONS or any(len(o) > 40 for o in options):
            _fail(path, f"{key}.options", f"at most {MAX_OPTIONS} options of at most 40 characters", options[:3])
    if kind == "arcs":
        if not 1 <= len(spec["arcs"]) <= MAX_ARCS:
            _fail(path, f"{key}.arcs", f"1 to {MAX_ARCS} arcs", len(spec["arcs"]))
        for i, arc in enumerate(spec["arcs"]):
            if isinstance(arc, dict) and isinstance(arc.get("boxes"), int) and not 1 <= arc["boxes"] <= 200:
                _fail(path, f"{key}.arcs[{i}].boxes", "a whole number from 1 to 200", arc["boxes"])
            if isinstance(arc, dict) and isinstance(arc.get("name"), str) and len(arc["name"]) > 30:
                _fail(path, f"{key}.arcs[{i}].name", "at most 30 characters", arc["name"][:20] + "...")


def check_tracker(path: Path, key: str, spec: dict) -> dict:
    """Validate one tracker spec (used by content files and by the add-tracker action)."""
    _check(path, key, spec, dict)
    kind = spec.get("kind")
    if kind not in TRACKER_KINDS:
        _fail(path, f"{key}.kind", f"one of {', '.join(TRACKER_KINDS)}", kind)
    required, optional = TRACKER_PARAMS[kind]
    _keys(path, key, spec, {"id": str, "kind": str, **required},
          {"label": str, "help": str, **optional})
    if kind == "arcs":
        for i, arc in enumerate(spec["arcs"]):
            _keys(path, f"{key}.arcs[{i}]", arc, {"name": str, "boxes": int}, {})
    if kind == "counter" and "min" in spec and "max" in spec and spec["min"] > spec["max"]:
        _fail(path, f"{key}.max", f"a number >= min ({spec['min']})", spec["max"])
    if kind == "conditions":
        for rule in ("ends", "blocked_by"):
            for name, others in spec.get(rule, {}).items():
                _check(path, f"{key}.{rule}.{name}", others, "list[str]")
    _check_bounds(path, key, spec)
    if kind == "boxes":
        for i, flagged in enumerate(spec.get("flagged", [])):
            if not 0 <= flagged < spec["count"]:
                _fail(path, f"{key}.flagged[{i}]", f"a box index from 0 to {spec['count'] - 1}", flagged)
    return spec


def _check_system(path: Path, raw: dict) -> None:
    _keys(path, "", raw,
          {"slug": str, "name": str, "source": str, "sides": "list[str]", "phases": "list[str]"},
          {"round_label": str, "phase_reminders": dict, "templates": "list[dict]",
           "decks": "list[dict]", "gauges": "list[dict]", "table_trackers": "list[dict]",
           "settings": "list[dict]", "add_units": bool, "activation": bool,
           "stats_line": bool, "setup_helper": str})
    for i, tpl in enumerate(raw.get("templates", [])):
        key = f"templates[{i}]"
        _keys(path, key, tpl, {"id": str, "name": str},
              {"stats": "list[dict]", "trackers": "list[dict]", "help": str, "flags": "list[str]"})
        for j, stat in enumerate(tpl.get("stats", [])):
            _keys(path, f"{key}.stats[{j}]", stat, {"id": str, "label": str, "min": int, "max": int},
                  {"help": str, "default": int})
        for j, spec in enumerate(tpl.get("trackers", [])):
            check_tracker(path, f"{key}.trackers[{j}]", spec)
    for i, deck in enumerate(raw.get("decks", [])):
        _keys(path, f"decks[{i}]", deck, {"id": str, "name": str},
              {"types": "list[str]", "help": str, "example": str, "folded": bool})
    for i, gauge in enumerate(raw.get("gauges", [])):
        check_tracker(path, f"gauges[{i}]", {"kind": "gauge", **gauge})
    for i, spec in enumerate(raw.get("table_trackers", [])):
        check_tracker(path, f"table_trackers[{i}]", spec)
    for i, setting in enumerate(raw.get("settings", [])):
        _keys(path, f"settings[{i}]", setting, {"id": str, "label": str},
              {"default": int, "min": int, "max": int, "help": str})
    for phase, text in raw.get("phase_reminders", {}).items():
        if phase not in raw["phases"]:
            _fail(path, f"phase_reminders.{phase}", f"one of the phases {raw['phases']}", phase)
        _check(path, f"phase_reminders.{phase}", text, str)


def _check_table(path: Path, raw: dict) -> None:
    _keys(path, "", raw, {"title": str, "source": str, "columns": "list[str]", "rows": "list[list]"},
          {"note": str, "row_label": str})
    width = len(raw["columns"])
    for i, row in enumerate(raw["rows"]):
        if len(row) != width:
            _fail(path, f"rows[{i}]", f"{width} cells (one per column)", row)
        for j, cell in enumerate(row):
            if not isinstance(cell, (str, int, float)) or isinstance(cell, bool):
                _fail(path, f"rows[{i}][{j}]", "a string or a number", cell)


def _check_deck(path: Path, raw: dict) -> None:
    _keys(path, "", raw, {"name": str, "deck": str, "cards": "list[dict]"},
          {"example": bool, "note": str, "source": str})
    for i, card in enumerate(raw["cards"]):
        if "name" not in card:
            _fail(path, f"cards[{i}].name", "the card's name (a string)", "nothing")
        _check(path, f"cards[{i}].name", card["name"], str, allow_empty=False)
        if "count" in card:
            _check(path, f"cards[{i}].count", card["count"], int)


def _load_toml(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: not valid TOML: {exc}") from None


WORDS_LANGUAGES = ("de", "fr")  # the languages a pack may carry words for (companion/i18n.py LANGUAGES)


def _translation(path: Path) -> bool:
    """``x.de.toml``: a pack's own words for ``x.toml``, not a file of its own."""
    return len(path.suffixes) >= 2 and path.suffixes[-2][1:] in WORDS_LANGUAGES


def _printed(value) -> set[str]:
    """Every string a content file prints (at any depth): what a translation may translate."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _printed(v)}
    if isinstance(value, list):
        return {s for v in value for s in _printed(v)}
    return set()


def _load_words(folder: Path, system: System, digest) -> None:
    """Each ``x.LANG.toml`` under the pack's folder: ``[words]``, the words of ``x.toml`` as printed ->
    LANG's.  A word ``x.toml`` no longer prints is refused (the translation of an older text)."""
    for path in sorted(p for p in folder.rglob("*.toml") if _translation(p)):
        lang = path.suffixes[-2][1:]
        original = path.with_name(path.name.removesuffix(f".{lang}.toml") + ".toml")
        if not original.exists():
            raise ContentError(f"{path}: translates {original.name}, which is not in the pack")
        raw = _load_toml(path)
        digest.update(path.read_bytes())
        if set(raw) != {"words"} or not isinstance(raw["words"], dict):
            _fail(path, "", "one table, [words]: the words as printed = their translation", sorted(raw))
        printed = _printed(_load_toml(original))
        found = system.words.setdefault(lang, {})
        for word, theirs in raw["words"].items():
            _check(path, f"words.{word!r}", theirs, str, allow_empty=False)
            if word not in printed:
                _fail(path, f"words.{word!r}", f"words {original.name} prints", word)
            found[word] = theirs


def _load_folder(folder: Path, system: System | None, digest) -> System:
    system_file = folder / "system.toml"
    if system_file.exists():
        raw = _load_toml(system_file)
        digest.update(system_file.read_bytes())
        _check_system(system_file, raw)
        if raw["slug"] != folder.name:
            _fail(system_file, "slug", f"the folder's name {folder.name!r}", raw["slug"])
        if system is not None:
            raise ContentError(f"{system_file}: system {raw['slug']!r} is defined twice")
        system = System(
            slug=raw["slug"], name=raw["name"], source=raw["source"], sides=raw["sides"],
            phases=raw["phases"], round_label=raw.get("round_label", "Round"),
            phase_reminders=raw.get("phase_reminders", {}),
            templates={t["id"]: t for t in raw.get("templates", [])},
            decks={d["id"]: {**d, "definitions": {}} for d in raw.get("decks", [])},
            gauges={g["id"]: {"kind": "gauge", **g} for g in raw.get("gauges", [])},
            table_trackers=raw.get("table_trackers", []),
            settings={s["id"]: s for s in raw.get("settings", [])},
            add_units=raw.get("add_units", True), activation=raw.get("activation", True),
            stats_line=raw.get("stats_line", True), setup_helper=raw.get("setup_helper", ""),
        )
    elif system is None:
        raise ContentError(f"{system_file}: expected a system.toml (the folder adds to no known system)")
    for path in sorted(p for p in (folder / "tables").glob("*.toml") if not _translation(p)):
        raw = _load_toml(path)
        digest.update(path.read_bytes())
        _check_table(path, raw)
        system.tables[path.stem] = {"slug": path.stem, **raw}
    for path in sorted(p for p in (folder / "decks").glob("*.toml") if not _translation(p)):
        raw = _load_toml(path)
        digest.update(path.read_bytes())
        _check_deck(path, raw)
        if raw["deck"] not in system.decks:
            _fail(path, "deck", f"one of the system's decks {sorted(system.decks)}", raw["deck"])
        system.decks[raw["deck"]]["definitions"][path.stem] = raw
    for sub, target in (("fleets", system.fleets), ("data", system.data)):
        for path in sorted(p for p in (folder / sub).glob("*.toml") if not _translation(p)):
            digest.update(path.read_bytes())
            target[path.stem] = _load_toml(path)
    _load_words(folder, system, digest)
    return system


def content_dirs() -> list[Path]:
    dirs = [CONTENT_DIR]
    extra = os.environ.get("COMPANION_CONTENT")
    if extra:
        dirs.extend(Path(p) for p in extra.split(os.pathsep) if p)
    return dirs


def load_systems(dirs: list[Path] | None = None) -> dict[str, System]:
    """Load and validate every system under the given content folders (later folders add to earlier)."""
    systems: dict[str, System] = {}
    digests: dict[str, object] = {}
    for root in [Path(d) for d in (dirs or content_dirs())]:
        if not root.is_dir():
            raise ContentError(f"{root}: expected a folder of content packs")
        for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
            digest = digests.setdefault(folder.name, hashlib.sha256())
            systems[folder.name] = _load_folder(folder, systems.get(folder.name), digest)
    for slug, system in systems.items():
        system.version = digests[slug].hexdigest()[:12]
    return systems


@lru_cache(maxsize=1)
def default_systems() -> dict[str, System]:
    """The systems of the configured content folders, loaded once per process."""
    return load_systems()


@lru_cache(maxsize=4)
def words(lang: str) -> dict[str, str]:
    """Every pack's own words in ``lang`` (the words as printed -> theirs), for drawing a pack's text."""
    out: dict[str, str] = {}
    for system in default_systems().values():
        for word, theirs in system.words.get(lang, {}).items():
            if out.setdefault(word, theirs) != theirs:
                raise ContentError(f"content/{system.slug}: {word!r} is translated two ways into {lang!r} by two packs")
    return out


def lookup_table(slug: str, table: str) -> dict:
    """One lookup table of a system, for rules modules that compute from the seed's tables."""
    return default_systems()[slug].tables[table]


def data(slug: str, name: str) -> dict:
    """A free-form data file of a system (content/<slug>/data/<name>.toml)."""
    return default_systems()[slug].data[name]
