"""A real PostgreSQL server for the tests (issue 39): the machine's own (Debian's postgresql-15, which
scripts/test installs where it is missing), in a temporary folder, on a free port of loopback, started
once for the run and stopped at its end.  No mock of the database anywhere.

initdb refuses to run as root: as root, the cluster belongs to Debian's ``postgres`` user (the package
makes it) and its commands run as that user.
"""
from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    path = found[-1] if found else shutil.which(name)
    if not path:
        raise RuntimeError(f"PostgreSQL's {name} is not on this machine: scripts/test installs Debian's "
                           "postgresql-15 (apt-get install -y postgresql-15)")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``durable``: fsync and synchronous commit on (a measurement's server, scripts/load.py); the tests'
    own skip both (a crash of the test machine loses nothing anyone keeps)."""

    def __init__(self, durable: bool = False):
        self.durable = durable
        self.folder = tempfile.mkdtemp(prefix="companion-pg-")
        self.data = os.path.join(self.folder, "data")
        self.port = _free_port()
        self._as = []
        if os.geteuid() == 0:
            import pwd
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)
        self.started = False

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       cwd=self.folder)

    def start(self) -> Server:
        self._run(_bin("initdb"), "-D", self.data, "-A", "trust", "-U", "companion", "-E", "UTF8", "--no-sync",
                  "--locale=C")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=300"
        options += os.environ.get("PG_EXTRA_OPTIONS", "")  # (a measurement's own settings, scripts/load.py)
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(_bin("pg_ctl"), "-D", self.data, "-o", options, "-l", os.path.join(self.folder, "log"), "-w", "start")
        self.started = True
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://companion@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database of its own (a test's): its URL."""
        import psycopg
        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"create database {name} strategy file_copy")
        return self.url(name)

    def pid(self) -> int:
        """The server's main process."""
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            return int(f.readline())

    def drop_database(self, url: str) -> None:
        import psycopg
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"drop database if exists {url.rsplit('/', 1)[1]} with (force)")

    def stop(self) -> None:
        if self.started:
            subprocess.run([*self._as, _bin("pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.folder)
            self.started = False
        shutil.rmtree(self.folder, ignore_errors=True)
