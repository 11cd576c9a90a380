"""`companion serve` as players run it: a phone's no-change poll keeps its connection alive."""
from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_companion_serve_keeps_a_polling_phone_on_one_connection(tmp_path):
    port = _free_port()
    env = {**os.environ, "COMPANION_SECRET_KEY": "serve-test"}
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port",
                               str(port), "--db", str(tmp_path / "serve.sqlite")], cwd=REPO, env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

        def ask(method, path, body=None, headers=None):
            phone.request(method, path, body=body, headers=headers or {})
            resp = phone.getresponse()
            return resp, resp.read()
        _, made = ask("POST", "/api/tables", json.dumps({"system": "freeform", "name": "Serve"}),
                      {"Content-Type": "application/json"})
        made = json.loads(made)
        join = "/" + made["player_url"].split("/", 3)[3]
        resp, page = ask("GET", join)
        cookie = resp.getheader("Set-Cookie").split(";")[0]
        token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
        resp, _ = ask("POST", join, f"csrf_token={token}&seat=Anna&side=Side+A",
                      {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
        cookie = (resp.getheader("Set-Cookie") or cookie).split(";")[0]
        sock = phone.sock
        for _ in range(3):
            resp, body = ask("GET", f"/t/{made['code']}/poll?seq=1", headers={"Cookie": cookie, "HX-Request": "true"})
            assert resp.status == 204 and body == b""
            assert (resp.getheader("Connection") or "").lower() != "close"
        assert phone.sock is sock  # the same connection answered every poll
        out = (tmp_path / "serve.log").read_text()
        assert f"http://127.0.0.1:{port}" in out and "█" in out  # the address and its QR code
        phone.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
