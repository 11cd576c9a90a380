"""Random play for any system, checked after every step (issue 13 part 1; the game files are
tests/test_property_games.py, with each game's data in tests/property_data/<game>.json).

A *phrasebook* per game holds one request of each shape its tests make for every action type it
registers (taken from the games' own action tests).  ``Play.request`` turns a phrase into a request
against the current state: unit ids, sides, sealed parts and cards become ones that exist now (or,
now and then, ones that do not), numbers move to near their legal bounds or past them, optional dice
are left out so the server rolls.  The core actions every system has are built here from the state
(trackers by kind, decks, sealed parts).  ``pick`` is where the randomness comes from: hypothesis'
``data.draw`` in the property tests (so failures shrink), a seeded ``random.Random`` in the
coverage walk that shows every action type is really accepted.

After each step: a refused action (RuleError, or odd input the web gate would answer 400) changed
nothing; an accepted one left the cached state equal to the fold of the log and to the undo chain's
snapshot plus its tail (SNAPSHOT_EVERY lowered).  ``round_trip`` at the end: export -> import gives
the same state and events, the import exports byte-identical events, undo and redo step by step
behave the same on both tables, and each side's own export (other sides' secrets boxed) re-imports.
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from contextlib import contextmanager

from companion import actions, replay, store, take_back
from companion.store import chain as undo_chain
from companion.actions import Ctx
from companion.content import default_systems
from companion.errors import RuleError, CrashShielded, Conflict
from companion.validate import shielded

SYSTEMS = default_systems()
SERVER_KEY = "property-test-key"
SNAPSHOT_EVERY = 3  # the undo chain keeps a snapshot every 3 links: undo walks snapshot + tail often

UNIT = re.compile(r"^(unit:)?(u)(\d+)(:\d+)?$")
NUMBERED = re.compile(r"^([a-z]+:)?([a-z])(\d+)(@\d+)?$")  # s1, m1, t1, c4@3, damage:c16
DICE = re.compile(r"^\d+([ ,/]+\d+)*$")
OPTIONAL = ("dice", "why", "hidden", "rolled", "save_dice", "wind_dice", "order_dice", "sail_dice",
            "escape_dice", "move_dice", "fsa_dice", "crit_dice", "repair_dice", "capsize_dice")


def core_types() -> set[str]:
    return set(actions.available("freeform"))


@contextmanager
def low_snapshots(every: int = SNAPSHOT_EVERY):
    saved = undo_chain.SNAPSHOT_EVERY
    undo_chain.SNAPSHOT_EVERY = every
    try:
        yield
    finally:
        undo_chain.SNAPSHOT_EVERY = saved


class Play:
    """One table of one system on an in-memory database, played step by step and checked."""

    def __init__(self, slug: str, phrases: dict, pick, seed: int = 0, sides=None):
        self.slug, self.phrases, self.pick = slug, phrases, pick
        self.system = SYSTEMS[slug]
        self.db = store.open_db(":memory:")
        # a referee's seat: every side's seals and the host's finish are its to make (issue 37 made
        # both the owning side's and the host's alone; the walk explores the rules, not who may ask)
        self.ctx = Ctx(system=self.system, rng=random.Random(seed), seat="Anna", side=None, host=True, trusted=True)
        self.code = store.create(self.db, self.system, {"name": "Property", "sides": sides}, self.ctx)["code"]
        self.accepted: Counter = Counter({"create-table": 1})
        self.refused: Counter = Counter()
        self.shielded: Counter = Counter()  # crashes on odd input the web gate turns into a 400
        self.why: dict = {}  # the last refusal of each kind (to improve a phrase)

    # --- what the table looks like now ---------------------------------------------------------
    @property
    def row(self) -> dict:
        return store.table(self.db, self.code)

    def opening(self, requests: list[dict]) -> None:
        """The game's set-up, as its tests make it (every request must be taken)."""
        for args in requests:
            assert self.step(args["type"], args=dict(args)), self.why[args["type"]]

    def log(self) -> list[dict]:
        return [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(self.db, self.code)]

    def types(self) -> list[str]:
        return sorted(actions.available(self.slug))

    # --- one step ------------------------------------------------------------------------------
    def step(self, kind: str, check_fold: bool = True, args: dict | None = None) -> bool:
        """Undo, redo, or a request of action type ``kind`` (or ``args`` as they are); checked;
        True if the table took it."""
        if kind == "take-back":
            return self.take_back()
        before = store._row(self.db, self.code)  # the raw row: a refusal must leave it byte for byte
        try:
            if kind in ("undo", "redo"):
                store.undo(self.db, self.code, self.ctx, redo=kind == "redo")
            else:
                args = args or self.request(kind, json.loads(before["state"]))
                with shielded(args):
                    store.act(self.db, self.code, args, self.ctx)
        except RuleError as exc:
            assert store._row(self.db, self.code) == before, f"refused {args} changed the table"
            (self.shielded if isinstance(exc, CrashShielded) else self.refused)[kind] += 1
            self.why[kind] = f"{exc.message} <- {args}"
            return False
        self.accepted[kind] += 1
        self.check(check_fold)
        return True

    def check(self, full_fold: bool = True) -> None:
        row = self.row
        if full_fold:
            log = self.log()
            assert row["seq"] == len(log)
            assert actions.fold(log) == row["state"], "the cached state is not the fold of the log"
        # the undo chain: the snapshot below the top plus the actions above it == the cached state
        assert store._state_at(self.db, row["id"], row["done_top"]) == row["state"], \
            "snapshot + tail differs from the cached state"

    # --- take back one move (issue 27) ---------------------------------------------------------------
    def take_back(self) -> bool:
        """Take back (or correct) a random move in force: the state becomes the fold of the log
        without it (a correction: with the new move in its place), or the table refuses naming the
        first later move that no longer applies and nothing changes; undo restores the state
        exactly, redo puts the take-back back (so the round trip carries it)."""
        log = store.events(self.db, self.code)
        live = [ev for ev in log if ev["seq"] > 1 and ev["type"] not in ("undo", "redo") and not ev["withdrawn"]
                and ev["seq"] in set(actions.timeline(log)[0])]
        if not live:
            return False
        target = self.pick(live)
        instead = None
        amount = take_back.amount_field(target)[1]  # "by", or a game's own hit's amount (issue 40 §4)
        if take_back.correctable(target) and self.pick([False, True]):
            by = target["payload"][amount]
            instead = {"by": self.pick([v for v in (by + 1, by - 1, -by, 2 * by) if v not in (0, by)])}
        corrected = instead and {k: v for k, v in {**target["payload"], amount: instead["by"]}.items()
                                 if not (amount == "by" and k == "amount")}
        expected, failed = fold_without(log, target["seq"], corrected)
        before = store._row(self.db, self.code)
        try:
            done = store.take_back(self.db, self.code, [target["seq"]], self.ctx, instead=instead)
        except Conflict as exc:
            assert store._row(self.db, self.code) == before, "a refused take-back changed the table"
            assert exc.failed == failed and f"#{failed} " in exc.message, (exc.message, failed)
            self.refused["take-back"] += 1
            return False
        except RuleError as exc:  # only a correction that cannot stand in the move's place
            assert instead is not None and exc.field in ("instead", "by"), exc.message
            assert store._row(self.db, self.code) == before, "a refused correction changed the table"
            assert failed == target["seq"], (exc.message, failed)
            return False
        assert failed is None, f"the take-back went through though #{failed} no longer applies"
        assert done["state"] == expected, "the take-back is not the fold of the log without the move"
        assert store.events(self.db, self.code)[target["seq"] - 1]["taken_back"] == done["seq"]
        self.check()
        back = store.undo(self.db, self.code, self.ctx)
        assert back["state"] == json.loads(before["state"]), "undo of the take-back did not restore the table"
        self.check()
        again = store.undo(self.db, self.code, self.ctx, redo=True)
        assert again["state"] == done["state"]
        self.check()
        self.accepted["take-back"] += 1
        return True

    # --- requests ------------------------------------------------------------------------------
    def request(self, kind: str, state: dict) -> dict:
        if kind in self.phrases:
            bend = self.pick([False, False, True])  # one in three: numbers and ids past what is legal
            args = self.vary(self.pick(self.phrases[kind]), state, bend, top=True)
        else:
            args = core_request(kind, state, self.system, self.pick)
        args["type"] = kind
        return args

    def vary(self, value, state: dict, bend: bool, top: bool = False):
        """A phrase made about the current table: ids that exist, and when ``bend``, numbers near
        or past their bounds and ids that do not exist (only the request's own fields are bent,
        never the inside of a card, which would be refused for one reason alone)."""
        pick = self.pick
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if top and bend and k in OPTIONAL and pick([False, True]):
                    continue  # leave it out: the server rolls, or the default applies
                k2 = self.vary(k, state, False) if UNIT.match(k) else k
                out[k2] = self.vary(v, state, bend and top)
            return out
        if isinstance(value, list):
            return [self.vary(v, state, False) for v in value]
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            return pick([value, value + 1, value - 1, 0, -1, value * 10 + 7]) if bend else value
        if not isinstance(value, str):
            return value
        units = on_table(state)
        m = UNIT.match(value)
        if m:
            if not units:
                return value
            own = f"u{m.group(3)}"  # the phrase's own ship, where it is at this table, is as likely as all others
            return f"{m.group(1) or ''}{pick(units + ([own] * len(units) if own in units else []) + (['u99'] if bend else []))}{m.group(4) or ''}"
        if value in state.get("sides", []):
            return pick(state["sides"] + (["Nobody"] if bend else []))
        m = NUMBERED.match(value)
        if m:
            deck = (m.group(1) or "")[:-1]
            if deck in state.get("decks", {}) and state["decks"][deck]["cards"]:
                cards = sorted(state["decks"][deck]["cards"])
                on_units = sorted(c for held in state["decks"][deck]["attached"].values() for c in held)
                return f"{deck}:{pick(on_units * 3 + cards + (['c999'] if bend else []))}"
            if m.group(2) == "s" and state.get("sealed"):
                return pick(sorted(state["sealed"]) + (["s99"] if bend else []))
            return f"{m.group(1) or ''}{m.group(2)}{pick([m.group(3), m.group(3), '1', '2', '3'])}{m.group(4) or ''}"
        if bend and DICE.match(value):
            return pick([value, "1", "6", "6 6 6 6", "0", "7"])
        return value

    # --- the end: export, import, undo/redo on both ------------------------------------------------
    def round_trip(self) -> None:
        db, code = self.db, self.code
        doc = replay.export(db, code)
        copy = replay.import_table(db, json.loads(json.dumps(doc)), SYSTEMS)["code"]
        assert store.table(db, copy)["state"] == store.table(db, code)["state"]
        again = replay.export(db, copy)
        assert json.dumps(again["events"]) == json.dumps(doc["events"]), "the import exports other events"
        for side in self.row["state"]["sides"] + [None]:  # a seat's export: others' secrets boxed
            mine = replay.export_for(db, code, side, SERVER_KEY)
            other = replay.import_table(db, mine, SYSTEMS, server_key=SERVER_KEY)["code"]
            assert store.table(db, other)["state"] == store.table(db, code)["state"], side
        self.same_undo_redo(code, copy)

    def same_undo_redo(self, code: str, copy: str) -> None:
        """Undo everything step by step on both tables, then redo it all: the same at each step."""
        for redo in (False, True):
            while True:
                outcome = []
                for c in (code, copy):
                    try:
                        store.undo(self.db, c, self.ctx, redo=redo)
                        outcome.append(store.table(self.db, c)["state"])
                    except RuleError as exc:
                        outcome.append(exc.message)
                assert outcome[0] == outcome[1], f"{'redo' if redo else 'undo'} differs after import"
                if isinstance(outcome[0], str):
                    break
        keep = ("seq", "seat", "side", "type", "label", "payload")
        logs = [[{k: e[k] for k in keep} for e in replay.export(self.db, c)["events"]] for c in (code, copy)]
        assert logs[0] == logs[1]


def fold_without(log: list[dict], seq: int, instead: dict | None = None) -> tuple[dict, int | None]:
    """The fold of ``log`` without event ``seq`` (or with the move ``instead`` in its place), worked
    out afresh from the whole log (companion.actions.in_effect), and the first move that no longer
    applies (None if all do)."""
    changed = [{**ev, "type": "(gone)"} if ev["seq"] == seq else ev for ev in log]  # a take-back no more
    state: dict = {}
    for ev, payload in actions.in_effect(changed):
        if ev["seq"] == seq:
            if instead is None:
                continue
            payload = instead
        try:
            actions.apply(state, payload)
        except RuleError:
            if payload is not ev["payload"] and ev["seq"] != seq:  # an earlier correction's move: it is named
                return state, next(t["seq"] for t in log if t["type"] == actions.TAKE_BACK and not t["withdrawn"]
                                   and t["payload"]["targets"][0] == ev["seq"] and "instead" in t["payload"])
            return state, ev["seq"]
    return state, None


def unreachable(play: Play) -> set[str]:
    """Types no request can make taken at this table: the deck actions where the system has no
    deck (Dreadfleet and Freeform have decks; the others keep their cards in their own actions)."""
    return {t for t in play.types() if t.startswith("deck-")} if not play.row["state"]["decks"] else set()


# a core type that needs another first: tried just before it while it is wanted
PREREQUISITE = {"reveal": "seal", "discard-sealed": "seal", "return-unit": "remove-unit", "deactivate": "activate"}


def walk(play: Play, steps: int, rng: random.Random, taken: Counter, tries: int = 4,
         want: tuple = ()) -> None:
    """Each step tries first the types ``want``ed here (those the opening leads to), then types no
    walk has had taken yet (``taken``), then any, until one is taken (each refused try is checked
    too); now and then an undo or a redo.  Finish is left to the end of a play (nothing follows it)."""
    types = [t for t in play.types() if t not in ("finish", "create-table")]
    skip = unreachable(play)
    for i in range(steps):
        if rng.random() < 0.12:
            play.step(rng.choice(["undo", "undo", "redo"]))
            continue
        fresh = [t for t in types if not taken[t] and not play.accepted[t] and t not in skip]
        rng.shuffle(fresh)
        first = [x for t in want if t in fresh for x in (PREREQUISITE.get(t), t) if x]
        for kind in (first + fresh[:tries] + rng.sample(types, len(types)))[:len(first) + tries + 2]:
            if play.step(kind, check_fold=i % 5 == 0):
                break
    play.check()


def start(slug: str, phrases: dict, opening: dict | None, pick, seed: int) -> Play:
    """A table of ``slug`` after one of the game's openings (the requests one of its action tests
    made up to a moment worth playing on from); chance may turn out otherwise here, so a request
    the table refuses is passed over.  What the opening did is not counted as taken."""
    play = Play(slug, phrases, pick, seed=seed, sides=(opening or {}).get("sides"))
    for args in (opening or {}).get("steps", []):
        play.step(args["type"], check_fold=False, args=json.loads(json.dumps(args)))
    play.check()
    play.accepted = Counter()
    return play


def coverage(slug: str, phrases: dict, openings: list[dict], seed: int = 13, steps: int = 8,
             first: int = 60, attempts: int = 4) -> None:
    """From a fresh table and from each opening, a seeded random walk (from an opening again, with
    the next seed, while what it leads to is not taken yet); every action type the game registers
    (its own and the core's) must have been taken at least once in the random part."""
    rng = random.Random(seed)
    taken: Counter = Counter()
    with low_snapshots():
        for n, opening in enumerate([None] + openings):
            for attempt in range(attempts):
                play = start(slug, phrases, opening, rng.choice, seed + n + 1000 * attempt)
                want = (opening or {}).get("for", ())
                walk(play, first if opening is None else steps, rng, taken, want=want)
                if opening is None or n % 4 == 0:
                    play.step("finish")
                taken += play.accepted
                assert not play.shielded, f"action code crashed on a request: {play.why}"
                if attempt == 0 and (opening is None or n % 4 == 0):  # (every hypothesis example ends with one too)
                    play.round_trip()
                if all(taken[t] or t in unreachable(play) for t in want):
                    break
        # then again, with the next seeds, from the openings that lead to what is still missing
        # (from a fresh table for the rest)
        for attempt in range(attempts, 3 * attempts):
            never = set(play.types()) - set(taken) - unreachable(play) - {"create-table"}
            for n, opening in enumerate([None] + openings):
                want = sorted(never & set((opening or {}).get("for", ())) if opening else never)
                if want and not all(taken[t] for t in want):
                    play = start(slug, phrases, opening, rng.choice, seed + n + 1000 * attempt)
                    walk(play, 30 if opening is None else steps, rng, taken, want=tuple(want))
                    taken += play.accepted
    never = set(play.types()) - set(taken) - unreachable(play) - {"create-table"}
    assert not never, f"never taken in random play (the phrasebook or the walk is wrong): {sorted(never)}"


def random_play(slug: str, phrases: dict, openings: list[dict], data, max_steps: int = 20,
                take_backs: int = 2) -> Play:
    """One hypothesis example: an opening (or none), random requests of every action type mixed
    with undo and redo, maybe finish, then the round trip."""
    from hypothesis import strategies as st
    pick = data.draw  # noqa: E731

    def choose(options):
        return pick(st.sampled_from(options))
    opening = choose([None] + openings)
    with low_snapshots():
        play = start(slug, phrases, opening, choose, pick(st.integers(0, 2 ** 16)))
        kinds = [t for t in play.types() if t not in ("finish", "create-table")]
        for kind in pick(st.lists(st.sampled_from(kinds + ["undo", "redo", "next-phase"] + ["take-back"] * take_backs),
                                  min_size=1, max_size=max_steps)):
            play.step(kind)
        if pick(st.booleans()):
            play.step("finish")
        # every refusal is the rule's own sentence, never action code crashing on a request
        assert not play.shielded, f"action code crashed on a request: {play.why}"
        play.round_trip()
    return play


# --- the core actions, built from the state ----------------------------------------------------

TRACKER_SPECS = [
    {"id": "wounds", "kind": "counter", "min": 0, "max": 5, "start": 5},
    {"id": "hull", "kind": "boxes", "count": 4, "flagged": [1]},
    {"id": "shields", "kind": "arcs", "arcs": [{"name": "Fore", "boxes": 2}, {"name": "Aft", "boxes": 1}]},
    {"id": "guns", "kind": "charge", "red": 1, "yellow": 1},
    {"id": "torpedo", "kind": "cooldown", "every": 2},
    {"id": "state", "kind": "conditions", "options": ["Burning", "Stunned"]},
    {"id": "morale", "kind": "gauge", "min": 0, "max": 3, "start": 1},
    {"id": "bad", "kind": "boxes", "count": 0},
]


def tracker_op(tracker: dict, pick) -> dict:
    kind = tracker["kind"]
    if kind == "counter":
        return {"op": "adjust", "by": pick([-1, 1, 3, -100])}
    if kind == "boxes":
        n = len(tracker["marked"])
        return pick([{"op": "mark", "box": pick([0, n - 1, n])}, {"op": "unmark", "box": pick([0, n - 1])},
                     {"op": "hit", "n": pick([1, 2, 0])}])
    if kind == "arcs":
        return pick([{"op": "mark", "arc": pick([0, 1, 9]), "box": 0}, {"op": "unmark", "arc": 0, "box": 0},
                     {"op": "hit", "arc": 0, "n": pick([1, 5])}])
    if kind == "charge":
        return pick([{"op": "charge", "colour": pick(["red", "yellow", "blue"])}, {"op": "fire"},
                     {"op": "discharge", "colour": "red"}])
    if kind == "cooldown":
        return {"op": pick(["use", "reset"])}
    if kind == "conditions":
        name = pick(["Burning", "Stunned", ""])
        return pick([{"op": "add", "name": name, "rounds": pick([1, 2, None])}, {"op": "remove", "name": name},
                     {"op": "adjust", "name": name, "by": pick([1, -1])}])
    if kind == "gauge":
        return pick([{"op": "move", "by": pick([1, -1, 2, 99])}, {"op": "set", "to": pick([0, 1, 99])}])
    return {"op": "nothing"}


def on_table(state: dict) -> list[str]:
    """Unit ids to pick from: those on the table twice, removed ones once."""
    units = state.get("unit_order", [])
    return [u for u in units if not state["units"][u]["removed"]] * 2 + units


def core_request(kind: str, state: dict, system, pick) -> dict:
    units = on_table(state)
    unit = pick(units + units + ["u99"]) if units else "u1"
    decks = sorted(state.get("decks", {})) or ["deck"]
    deck_id = pick(decks)
    deck = state.get("decks", {}).get(deck_id)
    sealed = sorted(state.get("sealed", {})) + ["s99"]
    owners = [("table", state.get("trackers", {}))] + [(u, state["units"][u]["trackers"]) for u in units]
    owners = [(o, t) for o, t in owners if t]
    if kind == "note":
        return {"text": pick(["Rammed", "", "x" * 201])}
    if kind == "finish":
        return {"result": pick(["", "Side one wins"])}
    if kind == "add-unit":
        tid = pick(sorted(system.templates))
        stats = {}
        for stat in system.templates[tid].get("stats", []):
            stats[stat["id"]] = pick([stat.get("default", stat["min"]), stat["min"], stat["max"], stat["max"] + 1])
        return {"name": pick(["Scout", "Knight", ""]), "template": tid, "stats": stats,
                "side": pick(state["sides"] + [""])}
    if kind in ("remove-unit", "return-unit", "activate", "deactivate"):
        return {"unit": unit, **({"reason": pick(["sunk", ""])} if kind == "remove-unit" else {})}
    if kind == "set-turn":
        return {"side": pick(state["sides"] + ["Nobody"])}
    if kind == "next-phase":
        return pick([{}, {}, {"expect_round": state["round"], "expect_phase": state["phase"]},
                     {"expect_round": state["round"] + 1, "expect_phase": 0}])
    if kind == "add-tracker":
        return {"unit": pick(units + ["table"]), "spec": dict(pick(TRACKER_SPECS))}
    if kind in ("tracker", "adjust"):
        if not owners:
            return {"unit": unit, "tracker": "hp", "by": 1}
        owner, tracks = pick(owners)
        tid = pick(sorted(tracks))
        op = tracker_op(tracks[tid], pick)
        if kind == "adjust":
            op = {"by": op.get("by", pick([1, -1]))}
        return {"unit": owner, "tracker": tid, **op}
    if kind == "deck-load":
        definitions = sorted(system.decks.get(deck_id, {}).get("definitions", {}))
        return pick([{"deck": deck_id, "definition": d} for d in definitions]
                    + [{"deck": deck_id, "cards": [{"name": "Holed", "type": "Hull", "count": 2},
                                                   {"name": "Calm", "type": "Fate"}]},
                       {"deck": deck_id, "cards": []}])
    if kind == "deck-mode":
        return {"deck": deck_id, "mode": pick(["virtual", "physical", "both"])}
    if kind == "deck-shuffle":
        return {"deck": deck_id, "with_discard": pick([0, 1])}
    to = pick(["discard", "discard", f"unit:{unit}", "top"])
    if kind == "deck-draw":
        return {"deck": deck_id, "to": to, "count": pick([1, 1, 2, 0, 21])}
    if kind == "deck-draw-until":
        values = sorted({str(c.get("type")) for c in (deck or {}).get("cards", {}).values()}) or ["Hull"]
        return {"deck": deck_id, "field": "type", "value": pick(values + ["Nothing"]), "to": to,
                "fallback_last": pick([None, False])}
    if kind == "deck-record":
        return {"deck": deck_id, "card": pick([{"name": "Holed", "type": "Hull"}, {"name": ""}]), "to": to}
    if kind == "deck-move":
        cards = sorted((deck or {}).get("cards", {})) + ["c999"]
        return {"deck": deck_id, "card": pick(cards), "to": pick(["discard", "top", "bottom", f"unit:{unit}"])}
    if kind == "roll":
        return {"expr": pick(["2d6", "d20+3", "4d6kh3", "1d0", ""]), "why": pick(["", "boarding"])}
    if kind == "roll-real":
        return {"sides": pick([6, 20, 1]), "dice": pick(["5 2", [3], "7", ""]), "modifier": pick([0, 2])}
    if kind == "pool":
        return {"dice": pick([3, 1, 0]), "target": pick([4, 2, 21]), "save": pick([None, 5])}
    if kind == "seal":
        return {"unit": unit, "text": pick(["Full ahead", "", "x" * 201])}
    if kind in ("reveal", "discard-sealed"):
        live = [i for i, part in state.get("sealed", {}).items() if not part["revealed"] and not part["discarded"]]
        return {"id": pick(live * 3 + sealed)}
    raise AssertionError(f"no request for core action {kind!r}")
