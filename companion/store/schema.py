"""The schema and its migrations: one list, run on both engines (companion/store/engine.py).

SQLite keeps its record of what ran in sqlite-utils' own table (``_sqlite_migrations``), as it always
did, so a file of before carries on; PostgreSQL in ``companion_migrations``.  A migration speaks to the
tables through ``table_of`` (sqlite-utils' ``Table`` on SQLite; on PostgreSQL the few of its methods a
migration uses, as DDL) and to the rows through the store's SQL, so the same steps give the same
schema on both (tests/test_store_engines.py compares them).
"""
from __future__ import annotations

import json

from sqlite_utils.migrations import Migrations

from companion import actions, roster
from companion.store import engine, tables
from companion.store.chain import now
from companion.store.engine import Postgres
from companion.store.seats import SEATED

migrations = Migrations("companion")

@migrations()
def m001_tables_and_events(db) -> None:
    table_of(db, "tables").create({
        "id": int, "code": str, "system": str, "name": str, "created": str,
        "player_secret": str, "spectator_secret": str, "state": str, "seq": int,
        "finished": int, "content_version": str,
    }, pk="id", not_null={"code", "system", "state", "seq"}, defaults={"finished": 0, "seq": 0})
    table_of(db, "tables").create_index(["code"], unique=True)
    table_of(db, "events").create({
        "table_id": int, "seq": int, "ts": str, "seat": str, "side": str, "type": str,
        "label": str, "payload": str, "chance": int, "target": int,
    }, pk=("table_id", "seq"), foreign_keys=[("table_id", "tables", "id")])
    table_of(db, "events").create_index(["table_id", "chance", "seq"])


@migrations()
def m002_library(db) -> None:
    table_of(db, "library").create({
        "id": int, "system": str, "kind": str, "name": str, "data": str, "created": str, "updated": str,
    }, pk="id", not_null={"system", "kind", "name", "data"})
    table_of(db, "library").create_index(["system", "kind", "name"], unique=True)


@migrations()
def m003_undo_chain(db) -> None:
    """Undo without the whole log: the done stack as links between events, withdrawn marks kept on
    the events, and periodic snapshots of the folded state (see _state_at).  Existing logs are
    linked here once, from their undo/redo events."""
    table_of(db, "events").add_column("link", int)
    table_of(db, "events").add_column("withdrawn", int, not_null_default=0)
    table_of(db, "events").add_column("since_snap", int, not_null_default=0)
    table_of(db, "tables").add_column("done_top", int)
    table_of(db, "tables").add_column("undone_event", int)
    table_of(db, "snapshots").create({"table_id": int, "seq": int, "state": str}, pk=("table_id", "seq"))
    for (table_id,) in db.execute("select id from tables").fetchall():
        undo_of: dict[int, int] = {}  # an undone move -> the undo event that took it back
        since: dict[int, int] = {}

        def link(ev: dict, done: list[int], undone: list[int], table_id=table_id, undo_of=undo_of, since=since) -> None:
            """Each event's link, withdrawn mark and distance from a snapshot, from the undo stack
            (actions.timeline) as it stands before the event takes effect."""
            seq = ev["seq"]
            if ev["type"] == "undo":
                undo_of[done[-1]] = seq
                db.execute("update events set withdrawn = 1 where table_id = ? and seq = ?", [table_id, done[-1]])
                db.execute("update events set link = ? where table_id = ? and seq = ?",
                           [undo_of[undone[-1]] if undone else None, table_id, seq])
            elif ev["type"] == "redo":
                db.execute("update events set withdrawn = 0 where table_id = ? and seq = ?", [table_id, undone[-1]])
            else:
                parent = done[-1] if done else None
                since[seq] = since[parent] + 1 if parent is not None else 0
                db.execute("update events set link = ?, since_snap = ? where table_id = ? and seq = ?",
                           [parent, since[seq], table_id, seq])
        log = [{"seq": seq, "type": type_} for seq, type_ in
               db.execute("select seq, type from events where table_id = ? order by seq", [table_id]).fetchall()]
        done, undone = actions.timeline(log, link)
        db.execute("update tables set done_top = ?, undone_event = ? where id = ?",
                   [done[-1] if done else None, undo_of[undone[-1]] if undone else None, table_id])


@migrations()
def m004_library_owner(db) -> None:
    """Whose an item is: the code of the table that saved it (empty: anyone's, as before)."""
    table_of(db, "library").add_column("owner", str)


@migrations()
def m005_drawn(db) -> None:
    """Pages drawn for one view of a table at one seq (the board fragment, the battle report):
    rendered once per change and served to every phone with that view (companion/drawn.py)."""
    table_of(db, "drawn").create({"table_id": int, "seq": int, "view": str, "html": str, "meta": str},
                       pk=("table_id", "seq", "view"))


@migrations()
def m006_taken_back(db) -> None:
    """Which take-back withdrew a move still in force (companion/take_back.py): the log marks it."""
    table_of(db, "events").add_column("taken_back", int)


@migrations()
def m007_reveal_labels_without_text(db) -> None:
    """A reveal's label no longer carries the sealed text (issue 30 §2: an undone reveal's line, its
    undo's and the Redo button kept showing it): labels stored before say the part's id instead,
    and the pages drawn with the old labels are dropped."""
    import re
    old = re.compile(r"^(.*?): sealed (\S+) revealed: ")
    for table_id, seq, label in db.execute(
            "select table_id, seq, label from events where type = 'reveal'").fetchall():
        found = old.match(label)
        if not found:
            continue
        new = f"{found.group(1)}: sealed {found.group(2)} revealed"  # (m012: no part id either)
        db.execute("update events set label = ? where table_id = ? and seq = ?", [new, table_id, seq])
        for kind in ("undo", "redo"):
            db.execute("update events set label = ? where table_id = ? and target = ? and type = ?",
                       [f"{kind}: {new}", table_id, seq, kind])
    if table_of(db, "drawn").exists():  # (gone since m009: boards are kept in memory)
        db.execute("delete from drawn")


@migrations()
def m008_imported(db) -> None:
    """Where an imported table came from (companion/export_signature.py): "signed" (this server's
    own export, unchanged) or "not signed" (edited, or made elsewhere); NULL for a table made here."""
    table_of(db, "tables").add_column("imported", str)


@migrations()
def m009_boards_in_memory(db) -> None:
    """Boards are kept in each server process's memory now (companion/board/keep.py: a read never
    writes); what they read besides the table is the library, whose revision names them."""
    table_of(db, "drawn").drop(ignore=True)
    table_of(db, "revisions").create({"name": str, "n": int}, pk="name")
    table_of(db, "revisions").insert({"name": "library", "n": 0})


@migrations()
def m010_joins(db) -> None:
    """Who sits at a table is read from its join events (companion/roster.py) at every board drawn:
    a partial index finds them without scanning the log (it holds the joins alone)."""
    db.execute("create index if not exists events_joins on events (table_id, seq) where type = 'join'")


@migrations()
def m011_seats(db) -> None:
    """A seat belongs to its phone (issue 37): a row per seat with a hash of the seat's own token,
    which the phone's cookie (or an API client's Bearer) carries; nothing a phone sends names its
    side.  The seats the log already records are kept as seats no phone holds yet ("empty chairs",
    no token): a phone that still has the cookie of before claims its chair once (web.seats), a new
    phone asks for it.  ``tables.locked``: the sides of an imported table whose sealed parts no seat
    may read until that side proves itself with its own export (hidden.py)."""
    table_of(db, "seats").create({"id": int, "table_id": int, "token_hash": str, "name": str, "side": str, "role": str,
                        "host": int, "let_in_by": str, "created": str, "status": str},
                       pk="id", not_null={"table_id", "name", "role", "status"}, defaults={"host": 0})
    db.execute("create unique index seats_token on seats (token_hash) where token_hash is not null")
    table_of(db, "seats").create_index(["table_id", "status"])
    table_of(db, "tables").add_column("locked", str)
    for table_id, seq, state in db.execute("select id, seq, state from tables").fetchall():
        sides = json.loads(state).get("sides") or []
        for i, seat in enumerate(s for s in tables._seats(db, table_id, seq, sides) if s["role"] in roster.ROLES):
            db.execute("insert into seats (table_id, name, side, role, host, created, status) values (?, ?, ?, ?, ?, ?, ?)",
                       [table_id, seat["name"], seat["side"], seat["role"], int(i == 0), now(), SEATED])


@migrations()
def m012_reveal_labels_without_ids(db) -> None:
    """A reveal's label names no internal id ("Falcon: sealed order revealed", issue 40 §3): labels
    stored with one (m007's) lose it, with their undo's and redo's."""
    import re
    with_id = re.compile(r"^((?:undo: |redo: )?.*?: sealed \S+) s\d+ revealed$")
    for table_id, seq, label in db.execute(
            "select table_id, seq, label from events where type in ('reveal', 'undo', 'redo') "
            "and label like '%sealed % revealed'").fetchall():
        found = with_id.match(label)
        if found:
            db.execute("update events set label = ? where table_id = ? and seq = ?",
                       [f"{found.group(1)} revealed", table_id, seq])


@migrations()
def m013_push(db) -> None:
    """PostgreSQL only (issue 39): a committed change of a table's seq is announced to every app server
    (``NOTIFY companion, 'CODE SEQ'``; a deleted table, 'CODE -1'), which wakes its live streams
    (companion/store/push.py).  SQLite's servers watch ``PRAGMA data_version`` instead: nothing to add.
    (m016 announces after the commit instead, and drops this trigger.)"""
    if not isinstance(db, Postgres):
        return
    db.execute("""create or replace function companion_announce() returns trigger as $$
begin
  if tg_op = 'DELETE' then
    perform pg_notify('companion', old.code || ' -1');
    return old;
  end if;
  if new.seq is distinct from old.seq then
    perform pg_notify('companion', new.code || ' ' || new.seq);
  end if;
  return new;
end $$ language plpgsql""")
    db.execute("create trigger tables_announce after update or delete on tables for each row "
               "execute function companion_announce()")


@migrations()
def m014_settings(db) -> None:
    """What every app server of one database shares (companion/store/settings.py): on PostgreSQL, the
    signing key.  (A SQLite file's server keeps its key in the instance folder, as before.)"""
    table_of(db, "settings").create({"name": str, "value": str}, pk="name", not_null={"value"})


@migrations()
def m015_said(db) -> None:
    """A move keeps what it said as a message and its values (companion/said.py, issue 42), so each
    phone draws it in its own language; the English ``label`` stays (the API, old readers).  Events
    stored before have none and read in their English."""
    table_of(db, "events").add_column("said", str)


@migrations()
def m016_announce_after_commit(db) -> None:
    """PostgreSQL only (issue 39): a table's change is announced after its transaction has committed, by
    the write itself (companion/store/engine.py ``write_lock``), not by m013's trigger inside it.  A
    transaction that NOTIFYs takes one lock for the whole database at its commit and holds it until its
    commit is on disk (PostgreSQL's async.c serializes the notification queue so), so every move of every
    table committed one after another: at 1,000 phones COMMITs waited 50-400 ms for that lock
    (``log_lock_waits``, docs/performance.md session 18).  ``companion_announce(code)`` notifies in a
    transaction of its own whose commit does not wait for the disk (it stores nothing)."""
    if not isinstance(db, Postgres):
        return
    db.execute("drop trigger if exists tables_announce on tables")
    db.execute("drop function if exists companion_announce()")
    db.execute("""create or replace function companion_announce(moved text) returns void as $$
begin
  perform set_config('synchronous_commit', 'off', true);
  perform pg_notify('companion', moved || ' ' || coalesce((select seq from tables where code = moved), -1));
end $$ language plpgsql""")


@migrations()
def m017_board_steps(db) -> None:
    """The steps a tap's app server drew for the other app servers' live streams (PostgreSQL: each
    server, one worker, drew every view's board of every change for its own streams; at 1,000 phones
    four boards a change, docs/performance.md session 22).  A cache: written with the change's
    announcement, in a transaction whose commit does not wait for the disk, to an unlogged table
    (PostgreSQL empties it after a crash: the streams draw the boards themselves, as before); the last
    few seqs of each table are kept (companion/store/steps.py).  On SQLite (one machine, whose workers
    share steps through a folder in memory, companion/board/shared.py) the table is there and empty."""
    columns = {"table_id": int, "seq": int, "view": str, "since": int, "html": str, "outline": str}
    keys = {"pk": ("table_id", "seq", "view"), "not_null": {"since", "outline"}}
    if not isinstance(db, Postgres):
        db["board_steps"].create(columns, **keys)
        return
    PgTable(db, "board_steps").create(columns, unlogged=True, **keys)
    # (the steps come as one JSON text: psycopg's text arrays quote each 12 KB step in Python, 8 % of an
    # app server's time at 1,000 phones, docs/performance.md sessions 23-24)
    db.execute("""create or replace function companion_announce_steps(moved text, tid integer, at integer,
    steps json) returns void as $$
begin
  perform set_config('synchronous_commit', 'off', true);
  delete from board_steps where table_id = tid and seq < at - 3;
  insert into board_steps (table_id, seq, view, since, html, outline)
    select tid, at, s.view, s.since, s.html, s.outline
    from json_to_recordset(steps) as s(view text, since integer, html text, outline text)
    on conflict do nothing;
  perform companion_announce(moved);  -- (m016's: the announcement's one form)
end $$ language plpgsql""")


# --- what a migration uses of a table, on PostgreSQL ----------------------------------------------
PG_TYPES = {int: "integer", str: "text", float: "double precision"}
PG_MIGRATIONS = "companion_migrations"


def table_of(db, name: str):
    return PgTable(db, name) if isinstance(db, Postgres) else db[name]


class PgTable:
    """sqlite-utils' ``Table`` methods the migrations use, as PostgreSQL DDL with the same result:
    the same columns, types, keys, defaults and index names."""

    def __init__(self, db: Postgres, name: str):
        self.db, self.name = db, name

    def create(self, columns: dict, pk, not_null=(), defaults=None, foreign_keys=(), unlogged=False) -> None:
        defaults = defaults or {}
        lines = []
        for col, kind in columns.items():
            if pk == col and kind is int:  # SQLite's INTEGER PRIMARY KEY: the row's id, numbered by the store
                lines.append(f"{col} integer generated by default as identity primary key")
                continue
            line = f"{col} {PG_TYPES[kind]}"
            if col in not_null:
                line += " not null"
            if col in defaults:
                line += f" default {defaults[col]!r}" if isinstance(defaults[col], str) else f" default {defaults[col]}"
            lines.append(line)
        if isinstance(pk, tuple):
            lines.append(f"primary key ({', '.join(pk)})")
        elif pk not in columns or columns[pk] is not int:
            lines.append(f"primary key ({pk})")
        for col, other, other_col in foreign_keys:
            lines.append(f"foreign key ({col}) references {other} ({other_col})")
        self.db.execute(f"create {'unlogged ' if unlogged else ''}table {self.name} ({', '.join(lines)})")

    def create_index(self, columns, unique: bool = False) -> None:
        self.db.execute(f"create {'unique ' if unique else ''}index idx_{self.name}_{'_'.join(columns)} "
                        f"on {self.name} ({', '.join(columns)})")

    def add_column(self, col: str, kind, not_null_default=None) -> None:
        extra = f" not null default {not_null_default}" if not_null_default is not None else ""
        self.db.execute(f"alter table {self.name} add column {col} {PG_TYPES[kind]}{extra}")

    def exists(self) -> bool:
        return self.db.execute("select to_regclass(?) is not null", [self.name]).fetchone()[0]

    def drop(self, ignore: bool = False) -> None:
        self.db.execute(f"drop table {'if exists ' if ignore else ''}{self.name}")

    def insert(self, row: dict) -> None:
        self.db.execute(f"insert into {self.name} ({', '.join(row)}) values ({', '.join('?' * len(row))})",
                        list(row.values()))


def apply(db) -> None:
    """Run the migrations not yet run (SQLite: inside the caller's lock, companion/store/engine.py;
    PostgreSQL: in one transaction under an advisory lock, so app servers starting together migrate once)."""
    if not isinstance(db, Postgres):
        migrations.apply(db)
        return
    with db.transaction():
        db.execute("select pg_advisory_xact_lock(hashtext('companion migrations'))")
        db.execute(f"create table if not exists {PG_MIGRATIONS} (name text primary key, applied_at text not null)")
        done = {r[0] for r in db.execute(f"select name from {PG_MIGRATIONS}").fetchall()}
        for step in migrations._migrations:  # (sqlite-utils' list of them, in the order they were declared)
            if step.name not in done:
                step.fn(db)
                db.execute(f"insert into {PG_MIGRATIONS} (name, applied_at) values (?, ?)", [step.name, now()])


def open_db(target, migrate: bool = True):
    """The database at ``target`` (a SQLite file, or a PostgreSQL URL), migrated unless told not to."""
    return engine.connect(target, apply if migrate else None)
