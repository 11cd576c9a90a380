"""A link a test can cut: a TCP relay between a client (the example feed client, a TV's browser) and
the served app, as a sleeping TV's Wi-Fi would drop it (tests/test_feed.py, tests/browser/test_display.py)."""
from __future__ import annotations

import socket
import threading
import time


class Proxy:
    """A TCP relay between a client and the served app that a test can cut, as a sleeping TV's
    Wi-Fi would: every open connection is closed at once."""

    def __init__(self, port: int):
        self.target = port
        self.down = False  # while down, every new connection is dropped at once (a Wi-Fi that is off)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:  # the server is down (a restart between its processes): as a host that is off
                client.close()
                continue
            with self.lock:
                self.open += [client, upstream]
            self.accepted += 1
            self._relay(client, upstream)

    def _relay(self, client, upstream):
        """Carry one connection's bytes both ways (a subclass may hold some back)."""
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        self._drop([a, b])

    def _drop(self, sockets):
        """Shut and close these connections (either end of a pipe may get here first)."""
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
            with self.lock:
                if s in self.open:
                    self.open.remove(s)

    def cut(self):
        """Every open connection closed at once; new ones are taken unless ``down``."""
        with self.lock:
            live = list(self.open)
        self._drop(live)

    def close(self):
        self.listener.close()
        self.cut()


def _head(sock, data: bytes = b"") -> tuple[bytes, bytes]:
    """Read from ``sock`` until a blank line: (the head, what came after it)."""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise OSError("closed before the head ended")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    return head, rest


def _closing(head: bytes) -> bytes:
    """A head with its Connection header replaced by "close" (one request per connection)."""
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
    return b"\r\n".join(lines + [b"Connection: close"]) + b"\r\n\r\n"


class HoldingProxy(Proxy):
    """A proxy that passes every answer's head at once but holds the rest back until the answer ends,
    as some proxies buffer: a live stream's headers come through, its events never do (issue 25:
    polling must then be chosen by itself).  With ``let_go`` (seconds) it lets what it holds through
    that long after the answer began, and then again every ``let_go`` seconds, as a proxy whose buffer
    times out does: a stream's events come, but each one late.  One request per connection."""

    def __init__(self, port: int, let_go: float | None = None):
        self.let_go = let_go
        super().__init__(port)

    def _relay(self, client, upstream):
        threading.Thread(target=self._one, args=(client, upstream), daemon=True).start()

    def _one(self, client, upstream):
        try:
            head, body = _head(client)
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                body += client.recv(65536)
            upstream.sendall(_closing(head) + body)
            answer, rest = _head(upstream)
            client.sendall(_closing(answer))  # the head at once
            if self.let_go is not None:
                self._late(client, upstream, rest)
                return
            while chunk := upstream.recv(65536):  # the rest when the answer ends (a stream's: never)
                rest += chunk
            client.sendall(rest)
        except OSError:
            pass
        self._drop([client, upstream])

    def _late(self, client, upstream, held: bytes):
        """The rest of an answer, let through ``let_go`` seconds at a time."""
        upstream.settimeout(0.1)
        due = time.monotonic() + self.let_go
        try:
            while True:
                try:
                    chunk = upstream.recv(65536)
                    if not chunk:
                        break
                    held += chunk
                except socket.timeout:
                    pass
                if time.monotonic() >= due:
                    client.sendall(held)
                    held, due = b"", due + self.let_go
            client.sendall(held)
        except OSError:
            pass
        self._drop([client, upstream])
