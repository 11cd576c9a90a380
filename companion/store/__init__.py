"""The store: every SQL statement of the app, and nothing else writes or reads the database (issue 39).

- ``engine``: SQLite (a file, the default) or PostgreSQL (``DATABASE_URL``), and the write lock of each.
- ``schema``: the tables and their migrations, one list for both engines.
- ``tables``: a table's row, its event log, create / act / join / undo / take back, and the log's reads.
- ``chain``: the undo chain (which moves are in force, the state after any of them) and its snapshots.
- ``seats``: who sits at a table (issue 37).
- ``library``: fleets, warship cards and decks saved for the next game.
- ``settings``: what every app server of one database shares (its signing key).
- ``push``: how a server hears of a committed change (SQLite's ``data_version``; PostgreSQL's ``NOTIFY``).
- ``steps``: the steps a tap's app server drew for the other app servers' live streams (PostgreSQL).

A game, the board, undo and take-back call the functions named here; none of them writes SQL.
"""
from __future__ import annotations

from companion.store import steps  # noqa: F401
from companion.store.chain import (  # noqa: F401
    SNAPSHOT_EVERY,
    _append_action,
    _append_undo,
    _insert_event,
    _link,
    _state_at,
    down_to_kept,
    in_force_of_type,
    now,
    undos_between,
)
from companion.store.engine import (  # noqa: F401
    Busy,
    disk_full,
    is_postgres,
    location,
    refusals,
    synchronous,
    write_lock,
)
from companion.store.library import (  # noqa: F401
    library_delete,
    library_item,
    library_items,
    library_last,
    library_owned,
    library_revision,
    library_save,
)
from companion.store.schema import migrations, open_db  # noqa: F401
from companion.store.seats import (  # noqa: F401
    REFUSED,
    REMOVED,
    SEATED,
    WAITING,
    answer_ask,
    ask_seat,
    ask_status,
    claim_chair,
    hand_host,
    host_seat,
    new_links,
    remove_seat,
    screen_seat,
    seat_is_seated,
    seated_ids,
    seats_of_tokens,
    table_seats,
    token_hash,
    unlock_side,
)
from companion.store.settings import server_key  # noqa: F401
from companion.store.tables import (  # noqa: F401
    CODE_ALPHABET,
    NotFound,
    _append_join,
    _event_rows,
    _insert_table,
    _new_code,
    _next_undo,
    _row,
    _seats,
    act,
    board_log,
    create,
    delete_table,
    events,
    events_after,
    events_for,
    head_of,
    history,
    join,
    log_page,
    mark_imported,
    move_at,
    moves_in_force_before,
    seated,
    state_for,
    table,
    table_head,
    table_seq,
    tables_listed,
    take_back,
    undo,
)
