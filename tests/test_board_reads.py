"""What a part of the board read while it was drawn (companion/board/reads.py): every read is noted, so a
part served again from memory is served only when all it read is the same."""
from __future__ import annotations

import copy
import json

import pytest
from markupsafe import Markup

from companion.board import reads
from companion.board.reads import ALL, IS_DICT, KEYS, NONEMPTY, NotKept, Watched


def noted(fn) -> set:
    seen: set = set()
    with reads.recording(seen):
        fn()
    return seen


def test_a_watched_dict_notes_each_key_read():
    state = Watched("state", {"phase": "Move", "round": 2, "units": {}})
    assert noted(lambda: state["phase"]) == {("state", "phase")}
    assert noted(lambda: state.get("round")) == {("state", "round")}
    assert noted(lambda: "game" in state) == {("state", "game")}
    with pytest.raises(KeyError):
        noted(lambda: state["game"])
    assert noted(lambda: state["round"]) == {("state", "round")}


@pytest.mark.parametrize("whole", [
    lambda d: copy.deepcopy(d), lambda d: copy.copy(d), lambda d: repr(d), lambda d: d == {}, lambda d: d.copy(),
    lambda d: f"{d}", lambda d: d | {}])
def test_what_sees_the_dict_as_one_value_reads_the_whole_dict(whole):
    state = Watched("state", {"phase": "Move"})
    assert ("state", ALL) in noted(lambda: whole(state))


@pytest.mark.parametrize("keys", [lambda d: list(d), lambda d: len(d), lambda d: list(d.keys()), lambda d: reversed(d)])
def test_what_goes_through_the_keys_reads_the_keys(keys):
    state = Watched("state", {"phase": "Move", "round": 2})
    assert noted(lambda: keys(state)) == {("state", KEYS)}


@pytest.mark.parametrize("every", [
    lambda d: d.items(), lambda d: d.values(), lambda d: json.dumps(d), lambda d: dict(d), lambda d: {**d}])
def test_what_goes_through_the_values_reads_the_keys_and_each_value(every):
    state = Watched("state", {"phase": "Move", "game": {"fired": {}}})
    assert noted(lambda: every(state)) >= {("state", KEYS), ("state", "phase"), (("state", "game"), IS_DICT)}


def test_a_dict_inside_a_watched_dict_is_read_key_by_key_under_its_path():
    """Issue 38: an attack notes who fired in ``state.game``; a card that reads its own ship's entry is
    not drawn again for another ship's."""
    state = Watched("state", {"game": {"fired": {"u1": [0], "u2": []}, "round": 2}})
    seen = noted(lambda: state["game"]["fired"].get("u1"))
    assert seen == {(("state", "game"), IS_DICT), (("state", "game", "fired"), IS_DICT), (("state", "game", "fired"), "u1")}
    assert noted(lambda: state.get("game")["fired"]["u2"]) >= {(("state", "game", "fired"), "u2")}
    assert noted(lambda: bool(state["game"]["fired"])) >= {(("state", "game", "fired"), NONEMPTY)}
    assert state["game"] is state["game"]  # watched once per draw
    # kept: the key read, which says its path is dicts too; a dict read as one alone keeps its own read
    ctx = {"state": state}
    assert reads.noted(seen, ctx, frozenset())[0] == ((("state", "game", "fired"), "u1"),)
    assert reads.noted({(("state", "game"), IS_DICT)}, ctx, frozenset())[0] == ((("state", "game"), IS_DICT),)

    def printed(raw, read):
        return reads.value_print({"state": Watched("state", raw)}, read)
    own, other = (("state", "game", "fired"), "u1"), (("state", "game", "fired"), "u2")
    after = {"game": {"fired": {"u1": [0], "u2": [1]}, "round": 2}}
    assert printed(after, own) == printed(state.raw, own) and printed(after, other) != printed(state.raw, other)
    # the path is not the dicts it was: a print no recording made
    for broken in ({"game": {"fired": None}}, {"game": None}, {}):
        assert printed(broken, own) == reads.BROKEN != printed(state.raw, (("state", "game", "fired"), IS_DICT))
    assert printed({"game": {"fired": {}}}, (("state", "game", "fired"), NONEMPTY)) != \
        printed(state.raw, (("state", "game", "fired"), NONEMPTY))


def test_a_default_a_helper_fills_in_a_nested_dict_stays_in_the_boards_copy():
    """The row every view draws from is shared (board/keep.once_at): a game's accessor that fills in its
    defaults (``game(state)``) writes into the watched copy, never into the table's state."""
    raw = {"game": {"ships": {}}}
    state = Watched("state", raw)
    seen = noted(lambda: state["game"].setdefault("fired", {}))
    assert (("state", "game"), "fired") in seen
    assert state["game"]["fired"] == {} and raw == {"game": {"ships": {}}}
    assert copy.deepcopy(state["game"]) == {"ships": {}, "fired": {}} and type(copy.deepcopy(state)) is dict
    assert type(copy.deepcopy(state)["game"]) is dict


def test_nothing_is_noted_outside_a_recording():
    state = Watched("state", {"phase": "Move"})
    seen: set = set()
    with reads.recording(seen):
        pass
    assert state["phase"] == "Move" and seen == set()


def test_a_template_notes_the_names_it_looks_up_and_the_keys_it_reads(app):
    with app.app_context():
        template = app.jinja_env.from_string("{% if state.phase == 'Move' %}{{ unit.name }}{% endif %}")
        state = Watched("state", {"phase": "Move", "round": 3})
        seen = noted(lambda: template.render(state=state, unit={"name": "Falcon"}, other=1))
    assert {"state", "unit", ("state", "phase")} <= seen
    assert "other" not in seen and ("state", "round") not in seen


def test_prints_tell_apart_values_a_template_draws_differently():
    ctx = {"a": True, "b": 1, "c": 1.0, "d": "<b>", "e": Markup("<b>"), "f": 0.0, "h": -0.0}
    printed = {name: reads.value_print(ctx, name) for name in ctx}
    assert len({repr(p) for p in printed.values()}) == len(ctx)
    assert printed["a"] != printed["b"] != printed["c"] and printed["d"] != printed["e"] and printed["f"] != printed["h"]
    assert reads.value_print({"x": {"n": [1, 2]}}, "x") == reads.value_print({"x": {"n": [1, 2]}}, "x")
    assert reads.value_print({"x": {"n": [1, 2]}}, "x") != reads.value_print({"x": {"n": [1, 3]}}, "x")


def test_prints_of_nested_values_tell_apart_what_json_would_not():
    """Nested values print through marshal (the fast path): True inside a dict is not 1, a key 1 is
    not "1", a tuple is not a list; equal values built apart (a string made at run time beside a
    literal) print the same; a nested Markup or object takes the JSON path and still compares."""
    def p(value):
        return reads.value_print({"x": value}, "x")
    assert p({"n": True}) != p({"n": 1}) and p({1: "a"}) != p({"1": "a"}) and p({"n": (1, 2)}) != p({"n": [1, 2]})
    made = "".join(["Gol", "iath"]) * 40  # not interned, unlike the literal below
    assert p({"name": made, "hp": [3, 5]}) == p({"name": "Goliath" * 40, "hp": [3, 5]})
    assert p({"m": Markup("<b>a</b>")}) == p({"m": Markup("<b>a</b>")}) != p({"m": Markup("<b>b</b>")})
    with pytest.raises(NotKept):
        p({"o": object()})


def test_what_cannot_be_compared_is_never_kept():
    with pytest.raises(NotKept):
        reads.value_print({"x": object()}, "x")  # its only text is its address
    for phones_own in ("request", "session", "g"):
        with pytest.raises(NotKept):
            reads.value_print({phones_own: {"seat": "Ann"}}, phones_own)


def test_a_watched_key_prints_its_value_or_its_absence():
    before = Watched("state", {"phase": "Move"})
    after = Watched("state", {"phase": "Fire"})
    gone = Watched("state", {})
    prints = [reads.value_print({"state": s}, ("state", "phase")) for s in (before, after, gone)]
    assert len({repr(p) for p in prints}) == 3
    assert reads.value_print({"state": before}, ("state", ALL)) != reads.value_print({"state": after}, ("state", ALL))


def test_a_helper_that_fills_in_a_default_reads_that_key():
    """Empires of Dust's helpers ``state.setdefault("game", {})`` (found by the suite's check)."""
    state = Watched("state", {"phase": "Move"})
    assert noted(lambda: state.setdefault("game", {})) == {("state", "game")}
    assert noted(lambda: state.pop("phase")) == {("state", "phase")}
    assert ("state", ALL) in noted(lambda: state.update(round=2))


def test_a_content_pack_prints_as_the_digest_of_its_files(tmp_path, monkeypatch):
    """A part that read ``system`` is served again while the pack's files are the same, and never after
    one changed; the pack's whole text is not printed for each draw (companion/content.py ``drawn_from``)."""
    import shutil

    from companion.content import CONTENT_DIR, System, load_systems

    shutil.copytree(CONTENT_DIR / "freeform", tmp_path / "freeform")
    first, again = load_systems([tmp_path])["freeform"], load_systems([tmp_path])["freeform"]
    monkeypatch.setattr(System, "__repr__", lambda self: pytest.fail("the whole pack was printed"))
    assert first is not again and reads.value_print({"system": first}, "system") == \
        reads.value_print({"system": again}, "system")
    system_file = tmp_path / "freeform" / "system.toml"
    system_file.write_text(system_file.read_text().replace('name = "', 'name = "New ', 1))
    changed = load_systems([tmp_path])["freeform"]
    assert changed.name.startswith("New ")
    assert reads.value_print({"system": changed}, "system") != reads.value_print({"system": first}, "system")
    # inside another value too (a dict a helper hands a template)
    assert reads.value_print({"x": {"s": changed}}, "x") != reads.value_print({"x": {"s": first}}, "x")


def test_a_variant_is_told_apart_by_its_prints_each_read_printed_once_a_draw():
    """same_prints says what comparing the whole prints said; a draw prints each read once, however
    many parts and variants ask (``Prints``: the reads are looked up in C, a part's card reading some
    hundred values key by key)."""
    then = {"state": Watched("state", {"phase": 1, "round": 2, "units": {"u1": {"hp": 3}}}), "side": "A"}
    now = {"state": Watched("state", {"phase": 2, "round": 2, "units": {"u1": {"hp": 3}}}), "side": "A"}
    read = (("state", "phase"), ("state", "round"), (("state", "units", "u1"), "hp"))
    printed = reads.prints(read, then, reads.Prints(then)) + reads.own_prints(("side",), then, {})
    assert printed == reads.prints(read, then, {}) + reads.own_prints(("side",), then, {})  # (a plain dict: the same)
    none = frozenset()
    assert reads.same_prints(read, none, ("side",), printed, then, reads.Prints(then))
    shared = reads.Prints(now)
    assert not reads.same_prints(read, none, ("side",), printed, now, shared)
    assert set(read) <= set(shared)
    shared.ctx = {}  # printed already: not printed again for another variant
    assert reads.prints(read, now, shared) == (2, 2, 3)
    assert not reads.same_prints(read, none, ("side",), printed, {**then, "side": "B"}, reads.Prints(then))
    assert not reads.same_prints(read[:2], none, ("side",), printed, then, reads.Prints(then))  # another part's reads


def test_a_name_the_context_lacked_is_one_set_and_a_variant_goes_when_it_appears():
    """The names a part looked up that its context did not hold (globals, its own set names) are kept
    as one set, not printed one by one; the variant is not served to a context that holds one of them."""
    ctx = {"state": Watched("state", {"phase": 1}), "side": "A", "url_for": None}
    with reads.recording(set()) as seen:
        seen.update({("state", "phase"), "side", "b_hull", "csrf", "state"})
    read, absent, own = reads.noted(seen, {k: v for k, v in ctx.items() if k != "url_for"}, frozenset({"side"}))
    assert read == (("state", "phase"),) and absent == {"b_hull", "csrf"} and own == ("side",)
    printed = reads.prints(read, ctx, {}) + reads.own_prints(own, ctx, {})
    assert reads.same_prints(read, absent, own, printed, ctx, {})
    assert not reads.same_prints(read, absent, own, printed, {**ctx, "b_hull": "5"}, {})
