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
                       help="SQLite file (default: instance/companion.sqlite; env COMPANION_DB)")
    serve.add_argument("--public-url", default=os.environ.get("COMPANION_PUBLIC_URL"),
                       help="address phones use, e.g. http://192.168.1.20:5000 (default: detected)")
    serve.add_argument("--workers", type=int, default=None, help="server processes (default 2; env WEB_CONCURRENCY)")
    serve.add_argument("--threads", type=int, default=None,
                       help="threads per process, for COMPANION_WORKER_CLASS=gthread only (default 2)")
    args = parser.parse_args(argv)

    from companion import create_app, disk
    from companion.qr import terminal
    from companion.serving import serve as run_server

    url = args.public_url or f"http://{lan_address() if args.host in ('0.0.0.0', '') else args.host}:{args.port}"
    # The workers build their own app from the environment; build one here first, so the database
    # is migrated and the signing key exists before they start, and say where everything is.
    os.environ["COMPANION_PUBLIC_URL"] = url
    if args.db:
        os.environ["COMPANION_DB"] = args.db
    app = create_app()
    print(f"companion is at {url}  (database: {app.config['DATABASE']})")
    low = disk.low_space(app.config["DATABASE"])
    if low:
        print(low)
    print("Scan to open it on a phone on this network:")
    print(terminal(url + "/"))
    sys.stdout.flush()
    run_server(args.host, args.port, args.workers, args.threads)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
