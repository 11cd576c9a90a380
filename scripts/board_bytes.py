"""Where a board page's bytes go (not a test): builds the issue-14 tables in-process (Flask test
client, joined as a player like a phone) and prints the page's size and what takes it.
Run: python scripts/board_bytes.py [dreadfleet|empires-of-dust ...] [--dump DIR]"""
from __future__ import annotations

import collections
import gzip
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from companion import create_app  # noqa: E402

from benchmark import GAME_CASES, GAME_TABLES as TABLES  # noqa: E402  (issue 14's cases, one place)


def board_page(app, system: str, query: str = "") -> str:
    """The board page a player's phone gets after GAME_TABLES' set-up (scripts/benchmark.py);
    ``query`` "?open=*": with every unit card open (companion/board)."""
    client = app.test_client()
    home = client.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', home).group(1)
    resp = client.post("/api/tables", json={"system": system, "name": "Size"})
    created = resp.get_json()
    code, secret = created["code"], created["player_url"].rsplit("/", 1)[1]
    for step in TABLES[system]:
        r = client.post(f"/api/tables/{code}/actions", json=step, headers={"Authorization": f"Bearer {secret}"})
        assert r.status_code == 200, (step, r.get_data(as_text=True)[:300])
    sides = client.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {secret}"}).get_json()["state"]["sides"]
    client.post("/" + created["player_url"].split("/", 3)[3], data={"csrf_token": csrf, "seat": "Bench", "side": sides[0]})
    return client.get(f"/t/{code}{query}").get_data(as_text=True)


def report(page: str, name: str) -> None:
    raw = page.encode()
    print(f"== {name} ({GAME_CASES.get(name, '')}): {len(raw):,} bytes raw, {len(gzip.compress(raw)):,} gzipped")
    # per unit box (div.unitbox: its row, and its card unless the game folds it away)
    starts = [m.start() for m in re.finditer(r'<div class="unitbox" id="', page)]
    boxes = []
    for k, at in enumerate(starts):
        stop = page.rindex("</details>\n</div>", at, starts[k + 1] if k + 1 < len(starts) else len(page))
        boxes.append((re.match(r'<div class="unitbox" id="u-([^"]+)"', page[at:]).group(1), page[at:stop + 17]))
    total = sum(len(b.encode()) for _, b in boxes)
    print(f"  {len(boxes)} unit boxes: {total:,} bytes ({total * 100 // len(raw)} %)")
    for uid, b in boxes:
        seal = re.search(r'<form[^>]*class="sealed".*?</form>', b, re.S)
        print(f"    {uid}: {len(b.encode()):6,} (row {len(re.search(r'<summary.*?</summary>', b, re.S).group(0).encode())},"
              f" seal {len(seal.group(0).encode()) if seal else 0}{', no card' if '<form' not in b else ''})")
    # what a design that sends a unit's card only when its row is opened would leave (issue 14's 40 KB)
    cards = sum(len(c.encode()) for c in re.findall(r'<form method="post"[^>]*id="unit-[^"]+".*?</form>\n', page, re.S))
    seals = sum(len(c.encode()) for c in re.findall(r'<form method="post"[^>]*id="seal-[^"]+".*?</form>\n', page, re.S))
    print(f"  unit cards (form#unit-*) {cards:,}, sealed-order forms {seals:,}: the page without them {len(raw) - cards - seals:,}")
    # top-level parts
    for label, pat in [("panel", r'<section[^>]*id="df-panel".*?</section>|<section[^>]*id="eod-panel".*?</section>'),
                       ("unit-options", r'<select id="unit-options".*?</select>'),
                       ("rolls", r"<section class=\"card\"><h2>Rolls and draws</h2>.*?</section>"),
                       ("decks", r'<section id="decks">.*?</section>'),
                       ("dock", r'<div class="dock" id="dock">.*?</div>\n<div class="err bar-err"')]:
        m = re.search(pat, page, re.S)
        print(f"  {label}: {len(m.group(0).encode()) if m else 0:,}")
    # by construct
    kinds = collections.Counter()
    for pat, label in [(r'<input type="hidden" name="csrf_token" value="[^"]*">', "csrf hidden inputs"),
                       (r'<input type="hidden" name="_control" value="[^"]*">', "_control hidden inputs"),
                       (r'<form method="post"[^>]*>', "form open tags"),
                       (r' value="[^"]*"', "value= attributes"),
                       (r'<option[^>]*>[^<]*</option>', "options"),
                       (r'aria-label="[^"]*"', "aria-labels"),
                       (r'<div class="err" id="[^"]*" aria-live="polite"></div>', "empty err divs"),
                       (r"\n\s+", "indentation/newlines"),
                       (r"<select[^>]*>.*?</select>", "selects (whole)"),
                       (r"<details class=\"(?:df-)?more\".*?</details>", "details.more/df-more")]:
        found = re.findall(pat, page, re.S)
        kinds[label] = (len(found), sum(len(f.encode()) for f in found))
    for label, (n, b) in kinds.items():
        print(f"  {label:28s} {n:5d} x -> {b:7,} bytes")
    # repeated select contents
    sels = collections.Counter(re.sub(r'name="[^"]*"|id="[^"]*"', "", s) for s in re.findall(r"<select[^>]*>.*?</select>", page, re.S))
    for s, n in sels.most_common(6):
        if n > 1:
            print(f"  repeated select x{n} ({len(s)} bytes each): {s[:100]}")
    lines = collections.Counter(l.strip() for l in page.splitlines() if len(l.strip()) > 40)
    print("  most repeated lines (count x bytes):")
    for l, n in sorted(lines.items(), key=lambda kv: -kv[1] * len(kv[0]))[:12]:
        print(f"    {n:3d} x {len(l):4d} = {n * len(l):6,}  {l[:110]}")


def main(argv):
    dump = None
    if "--dump" in argv:
        dump = Path(argv[argv.index("--dump") + 1]); argv = argv[:argv.index("--dump")]
    systems = argv or list(TABLES)
    tmp = tempfile.mkdtemp()
    app = create_app({"TESTING": True, "DATABASE": f"{tmp}/b.sqlite", "SECRET_KEY": "bytes"})
    for system in systems:
        page = board_page(app, system)
        report(page, system)
        if dump:
            dump.mkdir(parents=True, exist_ok=True)
            (dump / f"{system}.html").write_text(page)


if __name__ == "__main__":
    main(sys.argv[1:])
