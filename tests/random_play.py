"""Random play through the HTML a phone is given (issue 43; the tests are tests/test_random_play.py).

Two phones (two test clients, each with its own cookies) sit at one table on two sides; each step
one of them reads what it is offered (the board with every card open, the game's helpers, the "add"
tool), presses one control at random with plausible values (tests/html_forms.py: what a browser
sends, nothing more), and the table is checked:

- no answer is a server error; a refusal (4xx) is a sentence and leaves the table as it was (the
  stored row byte for byte); an accepted action, undo or redo moves the seq;
- no refusal says the request itself was malformed (a field sent twice, action code crashing on
  what a control sent): a control the board offers always sends something the server can read;
- every phone's board, log, battle report and display answer 200 and no part of them says it
  could not be drawn;
- the game's invariants hold: trackers within their bounds, the round never goes back but by an
  undo, a unit taken off the table never acts.

``pick(options)`` is where the randomness comes from: hypothesis' ``data.draw`` in the suite, a
seeded ``random.Random`` in the long run by hand.
"""
from __future__ import annotations

import json
import re

from werkzeug.datastructures import MultiDict

from companion import store
from companion.board.isolate import MARK, SENTENCE
from html_forms import Control, controls, plausible, sent_by
from table_actions import TableActions, csrf_of

SYSTEMS = ("freeform", "dreadnaught", "empires-of-dust", "dreadfleet", "talon", "astral-action")
# what no control may be answered with: the request itself could not be read
# (a field left empty is the player's to fill: "text is required." is a fair refusal)
MALFORMED = ("sent both as a value and as a group of fields", "check what this action takes",
             "must be one value (text or a number)")
MOVES = re.compile(r"/t/[^/]+/(act|undo|redo)$")
BACK = re.compile(r"/t/[^/]+/(undo|take-back)$")
PAGES = ("", "?open=*", "/log", "/report", "/display")  # the board, with every card open, and the rest
NOT_ACTING = {"return-unit", "note", "roll", "roll-real", "pool", "undo", "redo", "finish", "join"}


class Defect(AssertionError):
    pass


class Table:
    """One table of ``system`` with two seated phones, played by pressing what the pages offer."""

    def __init__(self, app, system: str, pick, opening: dict | None = None, physical: bool = False):
        self.app, self.system, self.pick = app, system, pick
        anna = TableActions(app.test_client())
        sides = (opening or {}).get("sides")
        anna.create(system=system, name="Random", seat="Anna", sides=",".join(sides) if sides else "")
        self.code = anna.code
        self.db = store.open_db(app.config["DATABASE"], migrate=False)
        self.sides = self.row()["state"]["sides"]
        self.phones = {"Anna": anna.client, "Ben": app.test_client()}
        for name, side in (("Anna", self.sides[0]), ("Ben", self.sides[-1])):
            self.join(name, side)
        self.steps_done = 0
        self.pages = PAGES  # what is drawn for every phone after each press
        self.answers: dict[str, int] = {}  # "accepted"/"refused"/other -> count
        self.taken: set[str] = set()  # the action types taken
        self.log: list[str] = []  # what was pressed, for the failure report
        if opening:
            self.set_up(opening["steps"])
        if physical:
            self.set_up([{"type": "deck-mode", "deck": "damage", "mode": "physical"}])
        self.check_pages()

    # --- the table ---------------------------------------------------------------------------------
    def row(self) -> dict:
        return store.table(self.db, self.code)

    def raw(self) -> dict:
        return dict(store._row(self.db, self.code))

    def join(self, name: str, side: str) -> None:
        """Seated through the join page's form, as the player QR does."""
        player, _ = self.secrets()
        client = self.phones[name]
        client.get(f"/t/{self.code}/join/{player}")
        resp = client.post(f"/t/{self.code}/join/{player}",
                           data={"csrf_token": csrf_of(client), "seat": name, "side": side})
        assert resp.status_code == 303, resp.get_data(as_text=True)[:300]

    def secrets(self) -> tuple[str, str]:
        row = self.row()
        return row["player_secret"], row["spectator_secret"]

    def set_up(self, steps: list[dict]) -> None:
        """An opening of tests/property_data (the requests a game's action tests make to reach a
        moment worth playing on from), sent through the API as Anna; one chance turned down is passed."""
        with self.phones["Anna"].session_transaction() as session:
            token = session["seats"][self.code]  # Anna's own seat (issue 37: an invitation acts as nobody)
        for args in steps:
            self.phones["Anna"].post(f"/api/tables/{self.code}/actions", json=json.loads(json.dumps(args)),
                                     headers={"Authorization": f"Bearer {token}"})

    # --- one step ------------------------------------------------------------------------------------
    def offered(self, who: str) -> list[Control]:
        """Every control the phone's pages offer that posts to this table (the board with every
        card open, the game's helpers, the tool that adds units and trackers)."""
        client, out = self.phones[who], []
        for path in ("?open=*", "/tools/game", "/tools/add"):
            resp = client.get(f"/t/{self.code}{path}")
            if resp.status_code == 200:
                out += [c for c in controls(resp.get_data(as_text=True)) if c.url.startswith(f"/t/{self.code}/")]
        # finishing ends the play: pressed at the end of a run (Table.finish), not at random
        return [c for c in out if not (c.form and c.form.id == "finish")]

    def step(self) -> None:
        who = self.pick(sorted(self.phones))
        offered = self.offered(who)
        if not offered:
            return
        # a curious player tries each kind of control, not each copy of one: a control is picked by
        # what it says (its label and where it posts), then one of those (the board has dozens of "+")
        kinds: dict[tuple, list[Control]] = {}
        for c in offered:
            kinds.setdefault((c.label, c.url), []).append(c)
        control = self.pick(kinds[self.pick(sorted(kinds))])
        self.press(who, control)

    def press(self, who: str, control: Control, fill=None) -> None:
        sent = sent_by(control, fill or plausible(self.pick))
        before, state_before = self.raw(), self.row()["state"]
        headers = {"HX-Request": "true", "X-Open-Units": ""} if control.htmx else {}
        resp = self.phones[who].post(control.url, data=MultiDict(sent), headers=headers)
        body = resp.get_data(as_text=True)
        what = f"step {self.steps_done}: {who} pressed {control.label!r} ({control.url}) sending {sent} -> {resp.status_code}"
        self.log.append(what)
        self.steps_done += 1
        kind = "accepted" if resp.status_code < 400 else "refused"
        self.answers[kind] = self.answers.get(kind, 0) + 1
        if resp.status_code >= 500:
            raise Defect(f"server error: {what}\n{body[:500]}")
        if 400 <= resp.status_code < 500:
            sentence = refusal(body)
            if not sentence:
                raise Defect(f"a refusal without its sentence: {what}\n{body[:400]}")
            if any(m in sentence for m in MALFORMED):
                raise Defect(f"a control the board offers sent what the server cannot read: {what}: {sentence}")
            if self.raw() != before:
                raise Defect(f"a refusal changed the table: {what}: {sentence}")
        elif MOVES.search(control.url) and self.row()["seq"] <= before["seq"]:
            raise Defect(f"an accepted tap did not move the seq: {what}")
        self.check_state(state_before, control, before["seq"])
        self.check_pages(self.pages)

    def sweep(self, fill=None) -> int:
        """Every kind of control each phone is offered now, pressed once from this moment: each one
        accepted is taken back with the board's Undo (the table is as it was, or the sweep says so),
        so the next starts from the same moment.  Returns how many were pressed."""
        pressed = 0
        for who in sorted(self.phones):
            kinds: dict[tuple, Control] = {}
            for c in self.offered(who):
                kinds.setdefault((c.label, c.url), c)
            for key in sorted(kinds):
                state, seq = self.row()["state"], self.row()["seq"]
                self.press(who, kinds[key], fill)
                pressed += 1
                if self.row()["seq"] != seq:  # taken back: with Undo, or an Undo pressed with Redo
                    self.take_back(who, "redo" if kinds[key].url.endswith("/undo") else "undo")
                    if self.row()["state"] != state:
                        raise Defect(f"the table is not as it was after {self.log[-2]} and {self.log[-1]}")
        return pressed

    def take_back(self, who: str, how: str) -> None:
        """Press the board's Undo (or Redo)."""
        page = self.phones[who].get(f"/t/{self.code}").get_data(as_text=True)
        self.press(who, next(c for c in controls(page) if c.form and c.form.id == how))

    def finish(self) -> None:
        """The game ended from the board's Finish form; every page still draws."""
        page = self.phones["Anna"].get(f"/t/{self.code}").get_data(as_text=True)
        finish = [c for c in controls(page) if c.form and c.form.id == "finish"]
        if finish:
            self.press("Anna", finish[0])

    # --- checks --------------------------------------------------------------------------------------
    def check_pages(self, paths=PAGES) -> None:
        for who, client in self.phones.items():
            for path in paths:
                resp = client.get(f"/t/{self.code}{path}")
                page = resp.get_data(as_text=True)
                if resp.status_code != 200 or MARK in page or SENTENCE in page:
                    raise Defect(f"{who}'s page /t/{self.code}{path} answered {resp.status_code}"
                                 f"{' with a part that could not be drawn' if resp.status_code == 200 else ''}"
                                 f" after {self.log[-1:] or 'the set-up'}\n{page[:300]}")

    def check_state(self, before: dict, control: Control, seq_before: int) -> None:
        row = self.row()
        state = row["state"]
        where = self.log[-1] if self.log else "set-up"
        if state["round"] < before["round"] and not BACK.search(control.url):
            raise Defect(f"the round went back from {before['round']} to {state['round']}: {where}")
        # (a unit off the table may hold more: Dreadfleet's damage counters are the sum of the cards
        # on a ship, never capped, and the ship sinks as they reach its characteristic)
        for owner, trackers in [("table", state.get("trackers", {}))] + \
                [(u["name"], u.get("trackers", {})) for u in state["units"].values() if not u.get("removed")]:
            for tid, t in trackers.items():
                problem = out_of_bounds(t)
                if problem:
                    raise Defect(f"{owner}'s {tid}: {problem}: {where}")
        for uid, ship in ((state.get("game") or {}).get("ships") or {}).items():
            for t in ship.get("tracks", []) + ship.get("rows", []):
                if not 0 <= t.get("filled", 0) <= t.get("size", 0):
                    raise Defect(f"{uid}'s track {t}: filled outside 0..size: {where}")
        if row["seq"] > seq_before and MOVES.search(control.url) and control.url.endswith("/act"):
            event = store.events(self.db, self.code)[-1]
            self.taken.add(event["type"])
            uid = event["payload"].get("unit")
            if isinstance(uid, str) and event["type"] not in NOT_ACTING:
                unit = before["units"].get(uid)
                if unit and unit.get("removed") and state["units"][uid].get("removed"):
                    raise Defect(f"{unit['name']}, off the table, acted ({event['type']}): {where}")


# where a 4xx answer says why: the control's error slot, or the flash of a board drawn again (a tap
# from a board that is out of date: 409)
ALERT = re.compile(r'<(\w+)[^>]*(?:role="alert"|class="err-text"|class="flash")[^>]*>(.*?)</\1>', re.S)


def refusal(body: str) -> str:
    """The sentence of a 4xx answer: the page's alert (a form drawn again with it), else the short
    text the answer is; "" if there is none."""
    def text(html: str) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", html).split())
    alerts = [text(m.group(2)) for m in ALERT.finditer(body)]
    said = [a for a in alerts if a]
    if said:
        return " ".join(said)
    whole = text(body)
    return whole if len(whole) < 400 and whole[-1:] in ".?!)" else ""


def out_of_bounds(t: dict) -> str | None:
    """What is wrong with a core tracker's numbers, or None."""
    value, lo, hi = t.get("value"), t.get("min"), t.get("max")
    if all(isinstance(x, int) for x in (value, lo, hi)) and not lo <= value <= hi:
        return f"{value} outside {lo}..{hi}"
    marked, count = t.get("marked"), t.get("count")
    if isinstance(marked, list) and isinstance(count, int) and len(marked) != count:
        return f"{len(marked)} boxes marked of {count}"
    return None


def play(app, system: str, pick, steps: int, opening: dict | None = None, physical: bool = False) -> Table:
    """A table of ``system`` (after ``opening``), ``steps`` presses, then Finish: checked all along."""
    table = Table(app, system, pick, opening, physical)
    try:
        for _ in range(steps):
            table.step()
        table.finish()
    except Defect as exc:
        raise Defect(f"{exc}\n--- the play so far ({system}):\n" + "\n".join(table.log[-12:])) from None
    finally:
        table.db.close()
    return table
