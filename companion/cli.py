"""`companion serve`: run the app on the LAN and print its address and a QR code."""
from __future__ import annotations

import argparse
import os
import socket
import sys


def lan_address() -> str:
    """This host's LAN IPv4 address from its own name resolution (no packet is sent)."""
    candidates = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(info[4][0])
    except OSError:
        pass
    for addr in candidates:
        if not addr.startswith("127."):
            return addr
    return "127.0.0.1"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the companion for this table")
    serve.add_argument("--host", default=os.environ.get("COMPANION_HOST", "0.0.0.0"),
                       help="address to listen on (default 0.0.0.0: every interface; env COMPANION_HOST)")
    serve.add_argument("--port", type=int, default=int(os.environ.get("COMPANION_PORT", "5000")),
                       help="port (default 5000; env COMPANION_PORT)")
    serve.add_argument("--db", default=os.environ.get("COMPANION_DB"),
                       help="SQLite file or PostgreSQL URL (default: DATABASE_URL if it is PostgreSQL's, else "
                            "instance/companion.sqlite; env COMPANION_DB)")
    serve.add_argument("--public-url", default=os.environ.get("COMPANION_PUBLIC_URL"),
                       help="address phones use, e.g. http://192.168.1.20:5000 (default: detected)")
    serve.add_argument("--workers", type=int, default=None, help="server processes (default 2; env WEB_CONCURRENCY)")
    serve.add_argument("--threads", type=int, default=None,
                       help="threads per process, for COMPANION_WORKER_CLASS=gthread only (default 2)")
    args = parser.parse_args(argv)

    url = args.public_url or f"http://{lan_address() if args.host in ('0.0.0.0', '') else args.host}:{args.port}"
    os.environ["COMPANION_PUBLIC_URL"] = url
    if args.db:
        os.environ["COMPANION_DB"] = args.db
    status = _prepare_in_a_child(url)
    if status:
        return status
    from companion.serving import serve as run_server
    run_server(args.host, args.port, args.workers, args.threads)
    return 0


def _shown(target: str) -> str:
    """The database as the terminal may show it: a PostgreSQL URL without its password."""
    import re
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", target)


def _prepare_in_a_child(url: str) -> int:
    """Migrate the database, make the signing key and print the address and QR code, in a child process.

    Why a child (issue 36): gunicorn's gevent workers patch the standard library (threads, locks, sleep)
    as they start, after the fork.  Whatever of the app this process had imported would be inherited
    by the workers unpatched: a lock made at import time (companion/live.py's, the board's keep) was
    then a real OS lock, and a greenlet waiting on it stopped its whole worker, so `companion serve`
    froze as soon as a few phones held live streams, while the Procfile's line (which imports the app
    only in the workers) served the same phones in milliseconds.  So this process imports none of the
    app (tests/test_serve.py checks which modules it holds when gunicorn starts), and each worker
    imports it after gevent has patched, exactly as under the Procfile."""
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:  # the child: build one app (which migrates the database), say where it is, and go
        code = 1
        try:
            from companion import create_app, disk
            from companion.qr import terminal
            app = create_app()
            print(f"companion is at {url}  (database: {_shown(app.config['DATABASE'])})")
            low = disk.low_space(app.config["DATABASE"])
            if low:
                print(low)
            print("Scan to open it on a phone on this network:")
            print(terminal(url + "/"))
            code = 0
        except BaseException:  # noqa: B036  (a child must never go on into the parent's code)
            import traceback
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    raise SystemExit(main())
