"""What one move costs PostgreSQL (issue 39): the numbers docs/performance.md's design for 20,000 phones
is worked out from.  Not a test.

A durable PostgreSQL of its own (fsync and synchronous commit on; tests/postgres_server.py) and
``--writers`` processes, each making moves at tables of its own through the store (``store.act``, the
path a tap takes), with one listener process hearing every announcement as an app server does.  For
``--seconds`` it counts the moves committed, the CPU the database's processes and the writers used,
the write-ahead log written (pg_current_wal_lsn), the statements a move sends, and the announcements
heard; per move, and per second.

Run: python scripts/pg_costs.py --writers 4 --seconds 15
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

HZ = os.sysconf("SC_CLK_TCK")


def _writer(url: str, system: str, seconds: float, out, done) -> None:
    from load import table_plan

    from companion import store
    from companion.actions import Ctx
    from companion.content import default_systems
    from companion.store import engine

    sent = [0]
    plain = engine.Postgres.execute

    def counted(self, sql, params=None):
        sent[0] += 1
        return plain(self, sql, params)

    engine.Postgres.execute = counted
    systems = default_systems()
    plan = table_plan(system, 6)
    rng = random.Random(os.getpid())
    ctx = Ctx(system=systems[system], rng=rng, seat="Load", side=plan["sides"][0])
    db = store.open_db(url, migrate=False)
    code = store.create(db, systems[system], {"name": "costs", "sides": plan["sides"]}, ctx)["code"]
    for step in plan["steps"]:
        store.act(db, code, {k: v for k, v in step.items()}, ctx)
    move = {k: v for k, v in plan["moves"][0].items() if not k.startswith("_")}
    moves, undos = 0, 0
    sent[0] = 0
    cpu0, end = time.process_time(), time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            store.act(db, code, dict(move), ctx)
            moves += 1
        except Exception:  # noqa: BLE001 - a move the rules refuse now: undo brings the table back
            pass
        store.undo(db, code, ctx)  # as the load test's phones do: the table stays at its moment
        undos += 1
    out.put({"moves": moves + undos, "cpu": time.process_time() - cpu0, "statements": sent[0],
             "state_bytes": len(json.dumps(store.table(db, code)["state"]))})
    done.wait(30)  # (its connections, and so the database's processes serving them, live until counted)


def _listener(url: str, seconds: float, out, done) -> None:
    import psycopg
    heard = 0
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("listen companion")
        end = time.monotonic() + seconds + 2
        while time.monotonic() < end:
            heard += sum(1 for _ in conn.notifies(timeout=0.5))
    out.put({"heard": heard})
    done.wait(30)


def _ticks(pids) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total


def _postgres_pids(main: int) -> list[int]:
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == main or int(name) == main:
                out.append(int(name))
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--system", default="dreadfleet", help="the game whose signature move is made")
    args = parser.parse_args(argv)
    from postgres_server import Server

    import psycopg

    from companion import store
    server = Server(durable=True).start()
    try:
        url = server.new_database()
        store.open_db(url).close()
        with psycopg.connect(url, autocommit=True) as conn:
            lsn0 = conn.execute("select pg_current_wal_lsn()").fetchone()[0]
            fork = multiprocessing.get_context("fork")
            out, finished = fork.Queue(), fork.Event()
            pg = _postgres_pids(server.pid())
            listener = multiprocessing.get_context("fork").Process(target=_listener, args=(url, args.seconds, out, finished))
            listener.start()
            time.sleep(0.5)
            ticks0, wall0 = _ticks(pg), time.perf_counter()  # (its processes so far; those that start later from 0)
            writers = [multiprocessing.get_context("fork").Process(target=_writer, args=(url, args.system, args.seconds, out, finished))
                       for _ in range(args.writers)]
            for w in writers:
                w.start()
            results = [out.get() for _ in range(args.writers + 1)]
            wall = time.perf_counter() - wall0
            ticks = _ticks(_postgres_pids(server.pid())) - ticks0
            lsn1 = conn.execute("select pg_current_wal_lsn()").fetchone()[0]
            wal = conn.execute("select pg_wal_lsn_diff(%s, %s)", [lsn1, lsn0]).fetchone()[0]
            finished.set()
            for w in writers:
                w.join()
            listener.join()
    finally:
        server.stop()
    done = [r for r in results if "moves" in r]
    moves = sum(r["moves"] for r in done)
    heard = sum(r.get("heard", 0) for r in results)
    print(f"{args.writers} writers, {args.system}, {wall:.1f} s: {moves} moves ({moves / wall:.0f}/s; a move or its undo)")
    print(f"  database CPU per move: {ticks / HZ * 1000 / moves:.2f} ms   (all its processes; {ticks / HZ / wall * 100:.0f} % of a core)")
    print(f"  app CPU per move (the writers): {sum(r['cpu'] for r in done) * 1000 / moves:.2f} ms")
    print(f"  statements per move: {sum(r['statements'] for r in done) / moves:.1f}")
    print(f"  write-ahead log per move: {float(wal) / moves / 1024:.1f} KB   (the table's state: {done[0]['state_bytes']} bytes of JSON)")
    print(f"  announcements heard by one listener: {heard} ({heard / max(moves, 1):.2f} per move)")


if __name__ == "__main__":
    main()
