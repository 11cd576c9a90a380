"""The OpenAPI document for /api (built from the registered action types, so it cannot drift)."""
from __future__ import annotations

from companion import dice, export_signature
from companion.replay import EXPORT_FORMAT, MAX_EVENTS_IMPORT
from companion.roster import MAX_SEAT_NAME
from companion.schema import request_schema
from companion.take_back import MAX_TARGETS
from companion.validate import MAX_DEPTH, MAX_INT, MAX_TEXT

LIMITS = (f" Every JSON body: strict JSON (no NaN or Infinity), at most {MAX_DEPTH} levels deep, every "
          f"number (declared or not) within ±{MAX_INT}, a field declared integer written as a whole number "
          f"(2, not 2.0), text valid Unicode of at most {MAX_TEXT} characters; otherwise 400 naming "
          "the field (see docs/api.md).")

ERROR = {"type": "object", "properties": {"error": {"type": "string"}, "field": {"type": "string"}},
         "required": ["error"]}


# one message of the event feed as an SSE parser reads it (companion/feed.py): ``event: state`` first,
# then one per event ("message", the default) with its seq as ``id``; ``data`` is JSON
FEED_EVENT = {"type": "object", "properties": {
    "event": {"type": "string", "enum": ["state", "message"]}, "id": {"type": "string", "pattern": "^[0-9]+$"},
    "data": {"type": "string", "contentMediaType": "application/json"}, "retry": {"type": "integer"}}}


def _resp(desc: str, schema: dict | None = None) -> dict:
    out = {"description": desc}
    if schema:
        out["content"] = {"application/json": {"schema": schema}}
    return out


def _json_body(schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def action_schemas(registry: dict) -> dict:
    """Each action type's request, from the fields it declares (companion.schema): the
    same declaration the request is checked against before the action runs."""
    return {f"action-{t}": request_schema(t, registry[t].fields or {}, registry[t].doc + (
        f" (only {', '.join(sorted(registry[t].systems))})" if registry[t].systems else ""))
            for t in sorted(registry) if t != "create-table"}


def _undo_op(kind: str, seq: dict, write_errors: dict) -> dict:
    """Undo or redo, optionally naming the event it means (409 with the current ``top`` if another
    move came in since: the check is in the same locked write as the undo)."""
    top = {"anyOf": [{"type": "null"}, {"type": "object", "required": ["seq", "label"], "properties": {
        "seq": {"type": "integer"}, "label": {"type": "string"}}}]}
    return {"post": {"parameters": [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}],
                     "security": [{"secret": []}],
                     "requestBody": {"required": False, "content": {"application/json": {"schema": {
                         "type": "object", "properties": {"target": {**seq, "description": (
                             f"the seq of the event you mean to {kind} (the answer's target); 409 with the "
                             f"current top if it is no longer the one {kind} acts on")}}}}}},
                     "responses": {"200": _resp(f"{kind.capitalize()}ne", {
                         "type": "object", "required": ["seq", "label", "target"]}), **write_errors,
                         "409": _resp("Another move came in since (with the event it would act on now), or the "
                                      "table is finished", {**ERROR, "properties": {**ERROR["properties"], "top": top}})}}}


def _export_document(systems: dict) -> dict:
    """A table export (what /export answers and /tables/import takes), its signature included."""
    return {"type": "object", "required": ["format", "system", "events"], "properties": {
        "format": {"const": EXPORT_FORMAT}, "system": {"type": "string", "enum": sorted(systems)},
        "events": {"type": "array", "minItems": 1, "maxItems": MAX_EVENTS_IMPORT, "items": {"type": "object"}},
        export_signature.IMPORTED: {"enum": [None, export_signature.OWN, export_signature.OTHER], "description": (
            "where the exported table came from: null, made on that server; else imported from a file "
            "signed by it, or not (a table imported from an edited file stays not signed when exported again)")},
        export_signature.FIELD: {"type": "object", "required": ["alg", "value"], "description": (
            f"{export_signature.ALG} over the document without this field (sorted keys, no spaces, UTF-8), "
            "keyed from the server's secret key: an import says whether it still holds (docs/api.md)"),
            "properties": {"alg": {"const": export_signature.ALG}, "value": {"type": "string"}}}}}


def document(registry: dict, systems: dict) -> dict:
    action_types = sorted(t for t in registry if t != "create-table")
    code = [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}]
    slug = [{"name": "slug", "in": "path", "required": True, "schema": {"type": "string",
                                                                        "enum": sorted(systems)}}]
    errors = {"400": _resp("Bad input: one readable sentence", ERROR),
              "404": _resp("No such table, or no secret or a wrong one (the same answer: a table's existence "
                           "is not told to whoever lacks its secret)", ERROR),
              "405": _resp("Method not allowed (the Allow header names those that are)", ERROR),
              "413": _resp("Body over 4 MB", ERROR)}
    seq = {"type": "integer", "minimum": 0, "maximum": MAX_INT}
    full = {"507": _resp("The host's disk is full: nothing was stored", ERROR)}
    write_errors = {**errors, "403": _resp("Spectators change nothing", ERROR),
                    "409": _resp("Stale view or finished table", ERROR), **full}
    pool_die = {"type": "integer", "minimum": 2, "maximum": max(dice.POOL_SIDES),
                "description": "a d<sides> result that succeeds (2+ to <sides>+)"}
    urls = {"code": {"type": "string"}, "player_url": {"type": "string"}, "spectator_url": {"type": "string"},
            "seat_token": {"type": "string", "description": "the caller's own seat (the host's): send it as Bearer"}}
    created = _resp("Created", {"type": "object", "required": ["code", "seat_token"], "properties": urls})
    seat_name = {"type": "string", "minLength": 1, "maxLength": MAX_SEAT_NAME}
    asked = {"type": "object", "required": ["seat_token", "status"], "properties": {
        "seat_token": {"type": "string"}, "status": {"enum": ["seated", "waiting"]}}}
    imported = _resp("Created (never refused for its signature)", {
        "type": "object", "required": ["code", "signed", "import_note", "seat_token"], "properties": {
            **urls, "signed": {"type": "boolean", "description": "the file is this server's own export, unchanged"},
            "import_note": {"type": "string", "enum": [export_signature.SIGNED, export_signature.NOT_SIGNED]}}})
    return {
        "openapi": "3.1.0",
        "info": {"title": "companion", "version": "1",
                 "description": "Table-side companion API. Action types: " + "; ".join(
                     f"{t}: {registry[t].doc}" + (f" (only {', '.join(sorted(registry[t].systems))})"
                                                  if registry[t].systems else "") for t in action_types) + LIMITS},
        "components": {"schemas": action_schemas(registry), "securitySchemes": {"secret": {"type": "http", "scheme": "bearer",
                                                      "description": (
            "a seat's own token (seat_token); the player invitation's secret (ending a join URL) is a script "
            "of no side (no sealed part read or acted on, no finish), the spectator's reads as a spectator")}}},
        "paths": {
            "/api/systems": {"get": {"responses": {"200": _resp("Systems", {"type": "array", "items": {
                "type": "object", "properties": {"slug": {"type": "string"}, "name": {"type": "string"}}}})}}},
            "/api/systems/{slug}/tables": {"get": {"parameters": slug, "responses": {
                "200": _resp("Lookup tables", {"type": "array"}), "404": _resp("Unknown system", ERROR)}}},
            "/api/systems/{slug}/tables/{table}": {"get": {"parameters": slug + [
                {"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": _resp("One table", {"type": "object", "required": [
                    "slug", "title", "source", "columns", "rows"]}), "404": _resp("Unknown", ERROR)}}},
            "/api/roll": {"post": {"requestBody": _json_body({"type": "object", "required": ["expr"],
                                                              "properties": {"expr": {"type": "string", "minLength": 1,
                                                                                      "maxLength": dice.MAX_EXPR}}}),
                                   "responses": {"200": _resp("Rolled", {"type": "object",
                                                                         "required": ["expr", "total", "dice"]}),
                                                 "400": _resp("Bad expression", ERROR)}}},
            "/api/odds": {"post": {"requestBody": _json_body({"type": "object", "required": ["dice", "target"], "properties": {
                "dice": {"type": "integer", "minimum": 1, "maximum": dice.MAX_POOL}, "target": pool_die,
                "save": pool_die, "sides": {"type": "integer", "enum": list(dice.POOL_SIDES)}}}),
                "responses": {"200": _resp("Exact odds"),
                              "400": _resp("Bad input (a target or save above the dice's sides)", ERROR)}}},
            "/api/tables": {"post": {"requestBody": _json_body({"type": "object", "required": ["system", "name"], "properties": {
                "system": {"type": "string", "enum": sorted(systems)}, "name": {"type": "string", "maxLength": 60},
                "sides": {"type": "array", "items": {"type": "string", "maxLength": 30}, "maxItems": 8},
                "seat": {**seat_name, "description": "the creator's name at the table (the host)"},
                "side": {"type": "string", "description": "the creator's side (else the first)"}}}),
                "responses": {"201": created, "400": _resp("Bad input", ERROR),
                              "429": _resp("This address made too many tables lately", ERROR), **full}}},
            "/api/tables/{code}/seats": {"post": {
                "parameters": code, "security": [{"secret": []}],
                "description": "Ask for a seat with an invitation's secret (Bearer). A spectator, or a player on a "
                               "side no phone holds, sits at once (201); a held side waits until a seat of that side "
                               "or the host taps Allow (202): GET /api/tables/{code}/seat with the token says.",
                "requestBody": _json_body({"type": "object", "required": ["seat"], "properties": {
                    "seat": seat_name, "side": {"type": "string"}}}),
                "responses": {"201": _resp("Seated", asked), "202": _resp("Waiting to be let in", asked),
                              **errors, "409": _resp("The game is finished", ERROR)}}},
            "/api/tables/{code}/asks": {"post": {
                "parameters": code, "security": [{"secret": []}],
                "description": "Allow or refuse a phone waiting for a side: a seat of that side, or the host.",
                "requestBody": _json_body({"type": "object", "required": ["name", "answer"], "properties": {
                    "name": seat_name, "answer": {"enum": ["allow", "refuse"]}}}),
                "responses": {"200": _resp("Answered", {"type": "object", "required": ["name", "answer"]}),
                              **write_errors}}},
            "/api/tables/{code}/seat": {"get": {
                "parameters": code, "security": [{"secret": []}],
                "responses": {"200": _resp("The caller's seat, or its ask while it waits", {
                    "type": "object", "required": ["status"], "properties": {
                        "status": {"enum": ["seated", "waiting", "refused", "removed"]}, "name": {"type": "string"},
                        "side": {"type": ["string", "null"]}, "role": {"type": "string"}, "host": {"type": "boolean"}}}),
                    **errors}}},
            "/api/tables/import": {"post": {"requestBody": _json_body(_export_document(systems)),
                                            "responses": {"201": imported, "400": _resp("Not a valid export", ERROR),
                                                          "413": errors["413"],
                                                          "429": _resp("Too many tables lately", ERROR), **full}}},
            "/api/tables/{code}": {"get": {
                "parameters": code, "security": [{"secret": []}],
                "responses": {"200": _resp("State", {"type": "object", "required": ["code", "system", "seq", "state"]}),
                              **errors}}},
            "/api/tables/{code}/actions": {"post": {
                "parameters": code, "security": [{"secret": []}],
                "requestBody": _json_body({"type": "object", "required": ["type"], "properties": {
                    "type": {"type": "string", "enum": action_types},
                    "seq": {**seq, "description": "the seq the action was made against; 409 if stale"}},
                    "oneOf": [{"$ref": f"#/components/schemas/action-{t}"} for t in action_types],
                    "discriminator": {"propertyName": "type", "mapping": {
                        t: f"#/components/schemas/action-{t}" for t in action_types}}}),
                "responses": {"200": _resp("Applied", {"type": "object", "required": ["seq", "label"]}),
                              **write_errors}}},
            "/api/tables/{code}/take-back": {"post": {
                "parameters": code, "security": [{"secret": []}],
                "description": "Take back moves in force, or correct a tracker change (issue 27; docs/api.md).",
                "requestBody": _json_body({"type": "object", "required": ["targets"], "additionalProperties": False,
                                           "properties": {
                    "targets": {"type": "array", "items": {"type": "integer", "minimum": 2, "maximum": MAX_INT},
                                "minItems": 1,
                                "maxItems": MAX_TARGETS, "description": "the seqs of the moves to take back"},
                    "instead": {"type": "object", "additionalProperties": False, "description":
                                "a correction of the first target (an adjust, or a tracker op adjust/move): "
                                "the same move with this unit and/or amount in its place",
                                "properties": {"unit": {"type": "string"}, "by": {
                                    "type": "integer", "minimum": -MAX_INT, "maximum": MAX_INT}}},
                    "seq": {**seq, "description": "the seq the take-back was made against; 409 if stale"}}}),
                "responses": {"200": _resp("Taken back", {"type": "object", "required": ["seq", "label", "targets"]}),
                              **write_errors, "409": _resp(
                                  "Stale view, finished table, or a later move no longer applies",
                                  {**ERROR, "properties": {**ERROR["properties"], "failed": {"type": "integer"},
                                                           "offer": {"type": "array", "items": {"type": "integer"}}}})}}},
            "/api/tables/{code}/undo": _undo_op("undo", seq, write_errors),
            "/api/tables/{code}/redo": _undo_op("redo", seq, write_errors),
            "/api/tables/{code}/events": {"get": {"parameters": code, "security": [{"secret": []}],
                                                  "responses": {"200": _resp("The log", {"type": "array"}), **errors}}},
            "/api/tables/{code}/feed": {"get": {
                "parameters": code + [
                    {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0},
                     "description": "send the events after this seq (the whole log: 0); default: from now on"},
                    {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"},
                     "description": "what a reconnecting EventSource sends: the seq of the last event it had"}],
                "security": [{"secret": []}],
                "description": "The table's events as Server-Sent Events, each once (docs/api.md, Event feed).",
                "responses": {"200": {"description": "A stream: event: state, then id: <seq> / data: {seq, type, "
                                                     "label, seat, side, withdrawn, dice, odds, units} per event",
                                      "content": {"text/event-stream": {"schema": FEED_EVENT}}},
                              "400": errors["400"], "404": errors["404"], "405": errors["405"]}}},
            "/api/tables/{code}/export": {"get": {"parameters": code, "security": [{"secret": []}],
                                                  "responses": {"200": _resp("Export document, signed", {
                                                      **_export_document(systems), "required": [
                                                          "format", "system", "events", export_signature.FIELD]}), **errors}}},
        },
    }
