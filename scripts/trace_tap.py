"""Which of the app's modules one tap runs through (not a test): issue 29's "a traced tap crosses at most
half as many modules" (24 modules and 128 switches between them at 7fe5cd3).

A Freeform table of six ships on two sides (as scripts/load.py sets one up); a phone taps a tracker's
-1 as the board's form posts it (htmx, CSRF token, the seq its board shows) and the other side's phone
then polls for the change.  Every Python call made while the tap (then the poll) is answered is seen
(``sys.setprofile``); a call counts for the module its function is defined in, if that module is the
app's (``companion.*``).  Printed: the modules crossed, and the switches (a call into another of the
app's modules than the caller's).

Run: python scripts/trace_tap.py   (``--list`` names the modules)
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from table_actions import TableActions, sit, table_secrets  # noqa: E402

from companion import create_app  # noqa: E402

HX = {"HX-Request": "true"}


def traced(call) -> tuple[Counter, int]:
    """(calls per app module, switches between app modules) while ``call()`` runs."""
    modules, switches, stack = Counter(), 0, []

    def profile(frame, event, arg):
        nonlocal switches
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            mine = name.startswith("companion")
            if mine:
                modules[name] += 1
                caller = next((m for m in reversed(stack) if m), None)
                if caller is not None and caller != name:
                    switches += 1
            stack.append(name if mine else None)
        elif event == "return" and stack:
            stack.pop()
    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return modules, switches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="name the modules crossed")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="trace-tap-")
    app = create_app({"DATABASE": f"{tmp}/db.sqlite", "SECRET_KEY": "trace"})
    anna = TableActions(app.test_client())
    code = anna.create(seat="Anna", side="Side A", sides="Side A,Side B")
    for i in range(6):
        anna.act(do="add-unit", name=f"Ship {i}", side=("Side A", "Side B")[i % 2], hp=999)
    ben = app.test_client()
    sit(ben, code, table_secrets(app, code)[0], "Ben", "Side B")
    for client in (anna.client, ben):  # each phone has the board (and this process has drawn it)
        client.get(f"/t/{code}/poll?seq=0", headers=HX)
    seq = [0]

    def tap():
        page = anna.client.get(f"/t/{code}/poll?seq=0", headers=HX).get_data(as_text=True)
        seq[0] = int(page.split('data-seq="', 1)[1].split('"', 1)[0])
        return anna.client.post(f"/t/{code}/act", headers={**HX, "X-Board-Seq": str(seq[0]), "X-CSRFToken": anna.csrf},
                                data={"do": "adjust unit=u1 tracker=hp by=-1", "_seq": str(seq[0]),
                                      "csrf_token": anna.csrf})
    _ok(tap())  # once untraced (first calls import and build what every later call reuses)
    seq[0] += 1
    for what, call in (("tap", lambda: _ok(tap_only(anna, code, seq))), ("poll after it", lambda: _ok(
            ben.get(f"/t/{code}/poll?seq={seq[0] - 1}", headers=HX)))):
        modules, switches = traced(call)
        print(f"{what}: {len(modules)} modules, {switches} switches between them")
        if args.list:
            for name, calls in sorted(modules.items()):
                print(f"  {name}: {calls} calls")


def tap_only(anna, code: str, seq: list) -> object:
    """The tap alone (the board it shows already fetched): what the phone sends when the player taps."""
    resp = anna.client.post(f"/t/{code}/act", headers={**HX, "X-Board-Seq": str(seq[0]), "X-CSRFToken": anna.csrf},
                            data={"do": "adjust unit=u1 tracker=hp by=-1", "_seq": str(seq[0]), "csrf_token": anna.csrf})
    seq[0] += 1
    return resp


def _ok(resp):
    assert resp.status_code in (200, 204), (resp.status_code, resp.get_data(as_text=True)[:300])
    return resp


if __name__ == "__main__":
    main()
