"""A table as a document: the export, and the import that replays it through the live path."""
from __future__ import annotations

import json

from companion import actions, export_signature, hidden, import_check, take_back
from companion.actions import TAKE_BACK
from companion.errors import RuleError
from companion.roster import JOIN
from companion.said import _
from companion.store import _append_join, _insert_table, _row, delete_table, events, mark_imported, table, write_lock
from companion.store.chain import _append_action

EXPORT_FORMAT = "companion-table"
MAX_EVENTS_IMPORT = 20_000
IMPORT_SLICE = 250  # events replayed in one write transaction (~25 ms of the write lock)


def export_for(db, code: str, viewer: str | None, server_key: str) -> dict:
    """An export made by a seat of side ``viewer``: its own side's sealed parts in clear, every
    other side's boxed with the server's key (re-importable here, exactly; unreadable elsewhere),
    and the whole signed with it (companion/export_signature.py: an import tells this server's own
    file, unchanged, from an edited one).  See companion/hidden.py and docs/hidden-information.md."""
    # the side it was exported by: an import seats its importer there (importer_side); every other
    # side's boxes stay shut to the new table's seats (hidden.py, "locked")
    return export_signature.sign({**hidden.for_export(export(db, code), viewer, server_key), "side": viewer}, server_key)


def export(db, code: str) -> dict:
    """The full export, sealed parts in clear: only for the host's own use and tests."""
    row = _row(db, code)
    return {"format": EXPORT_FORMAT, "version": 1, "system": row["system"], "table": row["code"], "name": row["name"],
            "content_version": row["content_version"], "created": row["created"],
            "finished": bool(row["finished"]),
            # where the table came from, under the signature: a table imported from an edited file
            # and exported again is still not this server's own (export_signature.origin)
            export_signature.IMPORTED: row["imported"],
            # "label": the move in English, as the file's reader without the app reads it; "said": its
            # message and values (companion/said.py), for a reader that draws it in its own language; an
            # import takes neither: both are the app's own again as each move replays
            "events": [{k: e[k] for k in ("seq", "ts", "seat", "side", "type", "label", "said", "payload")}
                       for e in events(db, code)]}


def import_table(db, doc: dict, systems: dict, server_key: str | None = None) -> dict:
    """Rebuild a table from an export: every event is replayed and checked before anything is stored.
    Boxed sealed parts (an export made by one side's seat) are opened with ``server_key`` first.
    The new row's ``imported`` says whether the file is this server's own export, unchanged (its
    signature holds) or not; neither is refused (companion/export_signature.py)."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise RuleError(_("This is not a companion table export (format must be %(format)r).", format=EXPORT_FORMAT), "file")
    system = systems.get(doc.get("system")) if isinstance(doc.get("system"), str) else None
    if system is None:
        raise RuleError(_("Unknown system %(system)r in the export.", system=str(doc.get("system"))[:40]), "file")
    log = doc.get("events")
    if not isinstance(log, list) or not log or len(log) > MAX_EVENTS_IMPORT:
        raise RuleError(_("The export needs 1 to %(most)s events.", most=MAX_EVENTS_IMPORT), "file")
    boxed = hidden.boxed_sides(log)
    log = hidden.open_export(log, server_key, hidden.table_of(doc))
    version = doc.get("content_version") or system.version
    if not isinstance(version, str) or len(version) > 64:
        raise RuleError(_("The export's content_version is not a version."), "file")
    clean = []
    for i, ev in enumerate(log, start=1):
        if not isinstance(ev, dict) or ev.get("seq") != i or not isinstance(ev.get("payload"), dict) \
                or ev.get("type") != ev["payload"].get("type"):
            raise RuleError(_("Event %(seq)s of the export is damaged (seq, type or payload).", seq=i), "file")
        import_check.check_envelope(ev)
        clean.append({"seq": i, "type": ev["type"], "payload": ev["payload"]})
    if sum(ev["type"] == TAKE_BACK for ev in clean) > take_back.MAX_IN_IMPORT:
        raise RuleError(_("The export holds more than %(most)s take-backs.", most=take_back.MAX_IN_IMPORT), "file")
    if clean[0]["type"] != "create-table" or clean[0]["payload"].get("system") != system.slug:
        raise RuleError(_("The export must start with the table's create-table event."), "file")
    # checked outside the write lock (a long document's HMAC takes a while)
    origin = export_signature.origin(doc, server_key)
    code = None
    try:
        _check_replay(clean)
        # In slices of IMPORT_SLICE events, one write transaction each, so a long import never holds
        # the host's one write lock for long: other tables' taps wait for one slice at most (a
        # whole 20,000-event import held it ~2 s, issue 30 item 6).  The table being built has a
        # fresh code and secrets nobody has yet; a refusal at any slice deletes what was stored.
        with write_lock(db):
            code = _insert_table(db, system.slug, version)
            mark_imported(db, code, origin, {"sides": boxed, "by": doc.get("side") if isinstance(doc.get("side"), str)
                                             else None, "from": hidden.table_of(doc)})
            row = table(db, code)  # kept current by each append
        for start in range(0, len(clean), IMPORT_SLICE):
            with write_lock(db, code=code):
                for ev, raw in zip(clean[start:start + IMPORT_SLICE], log[start:start + IMPORT_SLICE], strict=False):
                    _replay_event(db, row, ev, raw, system)
    except BaseException as exc:
        if code is not None:
            delete_table(db, code)  # an import that did not replay leaves nothing (its slices are committed)
        if isinstance(exc, (RuleError, KeyError, TypeError, IndexError, ValueError, AttributeError,
                            ZeroDivisionError, OverflowError, RecursionError)):
            message = exc.message if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"
            raise RuleError(_("The export does not replay: %(problem)s", problem=message), "file") from None
        raise
    return table(db, code)


def importer_side(row: dict) -> str | None:
    """Where the importer of a table sits: on the side whose export it was (a spectator's export, or
    one that names no side of the table: the first side, whose boxed parts it does not read)."""
    sides = row["state"]["sides"]
    by = json.loads(row["locked"]).get("by") if row.get("locked") else None
    return by if by in sides else (sides[0] if sides else None)


def _replay_event(db, row: dict, ev: dict, raw: dict, system) -> None:
    """One imported event through the same path as live play: checked first as a live action
    would be (companion.import_check), its label the app's own, never the document's, and
    undo/redo through the chain and snapshots (an import costs what the game did)."""
    import_check.check_event(row["state"], ev, system)
    seat, side, ts = str(raw.get("seat", ""))[:40], raw.get("side"), raw.get("ts")
    if ev["type"] in ("undo", "redo"):
        take_back.append_undo(db, row, ev["type"] == "redo", seat, side, ts)
    elif ev["type"] == TAKE_BACK:  # withdrawn again from the moves in force, the later ones applied again
        take_back.withdraw(db, row, ev["payload"], seat, side, ts)
    elif ev["type"] == JOIN:  # a seat: its name and side are the payload's (companion/roster.py)
        _append_join(db, row, ev["payload"], ts)
    else:
        _append_action(db, row, ev["payload"], seat, side, ts)
    import_check.check_state(ev["seq"], ev["type"], row["state"])


def _check_replay(log: list[dict]) -> None:
    """Undo/redo targets must be what the timeline says they are (a hand-edited file is refused)."""
    def check(ev: dict, done: list[int], undone: list[int]) -> None:
        if ev["type"] in ("undo", "redo"):
            stack = done if ev["type"] == "undo" else undone
            if not stack or stack[-1] != ev["payload"].get("target") or (ev["type"] == "undo" and len(done) <= 1):
                raise RuleError(_("event %(seq)s undos the wrong event", seq=ev["seq"]) if ev["type"] == "undo"
                                else _("event %(seq)s redos the wrong event", seq=ev["seq"]), "file")
        elif ev["type"] == "create-table" and ev["seq"] != 1:
            raise RuleError(_("event %(seq)s creates the table again", seq=ev["seq"]), "file")
    actions.timeline(log, check)
