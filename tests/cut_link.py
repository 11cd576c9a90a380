"""A link a test can cut: a TCP relay between a client (the example feed client, a TV's browser) and
the served app, as a sleeping TV's Wi-Fi would drop it (tests/test_feed.py, tests/browser/test_display.py)."""
from __future__ import annotations

import socket
import threading


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
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.open += [client, upstream]
            self.accepted += 1
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
