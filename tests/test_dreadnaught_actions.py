"""Dreadnaught's board actions through the HTML forms: what each does, bad input, the wrong moment.

Every test ends with the log folded again and compared with the cached state.
"""
from __future__ import annotations

import html

import pytest

from companion import actions, store
from companion.roster import MAX_SEAT_NAME
from companion.said import english
from tests.table_actions import sit

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)

DUEL = {"deck_size.Anna": 36, "deck_size.Ben": 26, "system_bonus.Anna": 2, "system_bonus.Ben": 0,
        "attacker": "Anna"}


class Dreadnaught:
    """A phone at a Dreadnaught table: act through the board's form, read the state, check the fold."""

    def __init__(self, app, table):
        self.app, self.table = app, table

    def create(self, sides="Anna, Ben"):
        self.table.create(system="dreadnaught", name="Planet 7", sides=sides, side=sides.split(",")[0])
        return self

    def act(self, type_, **fields):
        return self.table.act(do=type_, **{k: str(v) for k, v in fields.items()})

    def ok(self, type_, **fields):
        resp = self.act(type_, **fields)
        assert resp.status_code == 200, resp.data.decode()[:300]
        return resp

    def refused(self, type_, sentence, **fields):
        """Rejected with one sentence naming the field or rule, and nothing stored."""
        before = self.raw()
        resp = self.act(type_, **fields)
        assert resp.status_code == 400, resp.data.decode()[:300]
        text = html.unescape(resp.data.decode())
        assert sentence in text, text
        assert resp.headers["HX-Retarget"].endswith("-err")
        after = self.raw()
        assert (after["seq"], after["state"]) == (before["seq"], before["state"])
        return text

    def raw(self):
        with self.app.app_context():
            db = store.open_db(self.app.config["DATABASE"])
            return store.table(db, self.table.code)

    def state(self):
        return self.raw()["state"]

    def game(self):
        return self.state()["game"]

    def unit(self, player):
        state = self.state()
        return state["units"][state["game"]["ship_of"][player]]

    def count(self, player, tracker):
        return self.unit(player)["trackers"][tracker]["value"]

    def to_phase(self, name):
        for _ in range(9):
            state = self.state()
            if state["phases"][state["phase"]] == name:
                return
            self.ok("next-phase")
        raise AssertionError(f"never reached {name}")

    def fold_matches(self):
        with self.app.app_context():
            db = store.open_db(self.app.config["DATABASE"])
            log = [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]}
                   for e in store.events(db, self.table.code)]
            assert actions.fold(log) == store.table(db, self.table.code)["state"]


@pytest.fixture
def dn(app, table):
    game = Dreadnaught(app, table).create()
    yield game
    game.fold_matches()


@pytest.fixture
def duel(dn):
    dn.ok("dn-setup", **DUEL)
    return dn


@pytest.fixture
def melee(app, table):
    game = Dreadnaught(app, table).create("Anna, Ben, Cleo, Dan")
    game.ok("dn-setup")
    yield game
    game.fold_matches()


def reveal(game, owner, name, card_type, steps, **extra):
    game.ok("dn-reveal", owner=owner, name=name, card_type=card_type, steps=steps, **extra)


# --- set-up -----------------------------------------------------------------------------------

def test_setup_makes_a_ship_per_player_after_the_starting_draw(duel):
    game = duel.game()
    assert game["mode"] == "duel" and game["attacker"] == "Anna"
    assert duel.count("Anna", "hp") == 26 and duel.unit("Anna")["trackers"]["hp"]["max"] == 26
    assert (duel.count("Anna", "hand"), duel.count("Anna", "deck")) == (6, 30)
    assert (duel.count("Ben", "hand"), duel.count("Ben", "deck")) == (6, 20)
    assert duel.unit("Anna")["stats"]["Attacker"] and duel.unit("Ben")["stats"]["Defender"]


def test_setup_picks_the_attacker_at_random(dn):
    dn.ok("dn-setup")
    assert dn.game()["attacker"] in ("Anna", "Ben")
    assert dn.game()["rolled"][0] in (1, 2)


def test_setup_multiplayer_picks_a_first_player(melee):
    game = melee.game()
    assert game["mode"] == "multiplayer" and game["first_player"] in ("Anna", "Ben", "Cleo", "Dan")
    assert game["placement_distance"] == 5  # seed 000: at least 5 hexes in a 4 player game


def test_setup_with_teams(app, table):
    game = Dreadnaught(app, table).create("Anna, Ben, Cleo, Dan")
    game.refused("dn-setup", "Give a value for Dan", **{"teams.Anna": "Red", "teams.Ben": "Red", "teams.Cleo": "Blue"})
    game.ok("dn-setup", **{"teams.Anna": "Red", "teams.Ben": "Red", "teams.Cleo": "Blue", "teams.Dan": "Blue"})
    assert game.game()["teams"] == {"Anna": "Red", "Ben": "Red", "Cleo": "Blue", "Dan": "Blue"}
    game.fold_matches()


@pytest.mark.parametrize("fields, sentence", [
    ({"deck_size.Anna": 30}, "A Draw Deck starts with 26 or 36 cards"),
    ({"system_bonus.Ben": "lots"}, "must be a whole number"),
    ({"attacker": "Zed"}, "'Zed' is not one of the players"),
    ({"best_of": 4}, "best of 3, 5, 7 or 9"),
])
def test_setup_bad_input(dn, fields, sentence):
    dn.refused("dn-setup", sentence, **{**DUEL, **fields})


def test_setup_twice_is_refused(duel):
    duel.refused("dn-setup", "A battle is already set up")


def test_role_sides_show_the_players_names(app, table):
    # issue 10, section 5: sides named only Attacker and Defender (seed 000, Setup: "Randomly decide who will be
    # Attacker and Defender") get the players' names at set-up, instead of "Attacker · Attacker"
    game = Dreadnaught(app, table)
    table.create(system="dreadnaught", name="Planet 7", seat="Anna")
    form = html.unescape(table.client.get(f"/t/{table.code}?open=*", headers={"HX-Request": "true"}).data.decode())
    # each side starts with the names of the seats joined on it: the table's log knows its host's seat
    # (companion/roster.py; tests/test_roster.py), nobody sits on the Defender yet
    assert 'name="names.Attacker" value="Anna" data-seat-name-for="Attacker"' in form
    assert 'name="names.Defender" value="" data-seat-name-for="Defender"' in form
    game.refused("dn-setup", "Each player needs a different name", **{"names.Attacker": "Anna",
                                                                       "names.Defender": " Anna "})
    # two seats of the longest name fit ("Ann... & Ben..."), one character more does not
    two = "A" * MAX_SEAT_NAME + " & " + "B" * MAX_SEAT_NAME
    game.refused("dn-setup", f"at most {len(two)} characters", **{"names.Defender": two + "C"})
    page = html.unescape(game.ok("dn-setup", best_of=3, **{"names.Attacker": "Anna", "names.Defender": "Ben"})
                         .data.decode())
    assert game.game()["names"] == {"Attacker": "Anna", "Defender": "Ben"}
    assert game.unit("Attacker")["name"] == "Anna's Dreadnaught"
    assert "Anna · Attacker" in page and "Ben · Defender" in page and "Attacker · Attacker" not in page
    tools = html.unescape(table.client.get(f"/t/{table.code}/tools/game", headers={"HX-Request": "true"}).data.decode())
    assert '<option value="Defender" >Ben (Defender)</option>' in tools
    page = html.unescape(game.ok("dn-damage", ship="Defender", amount=24).data.decode())
    assert "<b>Ben</b> Eliminated" in page
    page = html.unescape(game.ok("dn-end-battle").data.decode())
    assert "<b>Anna</b>: Major Victory" in page
    game.ok("dn-setup")                                # the next battle of the running battle keeps the names
    assert game.unit("Defender")["name"] == "Ben's Dreadnaught"
    game.fold_matches()


def test_role_sides_without_names_say_the_role_once(app, table):
    game = Dreadnaught(app, table)
    table.create(system="dreadnaught", name="Planet 7", seat="Anna")
    page = html.unescape(game.ok("dn-setup").data.decode())
    assert game.game()["names"] == {} and game.game()["attacker"] == "Attacker"
    assert "Attacker · Attacker" not in page and "Defender · Defender" not in page
    assert 'dn-role attacker">Attacker</span>' in page


def test_names_are_only_asked_when_the_sides_are_roles(dn):
    form = html.unescape(dn.table.client.get(f"/t/{dn.table.code}?open=*", headers={"HX-Request": "true"}).data.decode())
    assert 'name="deck_size.Anna"' in form and 'name="names.' not in form   # the sides already are names
    dn.ok("dn-setup", **DUEL, **{"names.Anna": "Zed"})
    assert dn.game()["names"] == {} and dn.unit("Anna")["name"] == "Anna's Dreadnaught"


def test_no_dreadnaught_move_before_setup(dn):
    dn.refused("dn-damage", "Set up the battle first", ship="Anna", amount=3)


# --- the starting hand and the Upgrade Cards --------------------------------------------------

def test_mulligan_once_in_turn_one(duel):
    duel.ok("dn-mulligan", ship="Ben")
    duel.refused("dn-mulligan", "The mulligan is taken once", ship="Ben")
    duel.to_phase("Power Management")
    duel.refused("dn-mulligan", "right after the starting draw", ship="Anna")


def test_upgrades_in_slots_with_power_check(duel):
    duel.refused("dn-upgrades", "more than the System Cards' 3", ship="Anna", upgrades="A, B", levels="2 2",
                 system_power=3)
    duel.refused("dn-upgrades", "at most 4 Upgrade Cards", ship="Anna", upgrades="A, B, C, D, E")
    for levels in ("2, x", "2 -1", "2 1.5"):  # typed digits are read by schema.whole, a level is never negative
        duel.refused("dn-upgrades", "Power Levels are whole numbers, e.g. 2, 1, 3.", ship="Anna", upgrades="A, B",
                     levels=levels, system_power=4)
    duel.ok("dn-upgrades", ship="Anna", upgrades="Overcharge, Armour", levels="2 1", system_power=4)
    slots = duel.game()["ships"][duel.game()["ship_of"]["Anna"]]["slots"]
    assert [s[-1]["name"] for s in slots if s] == ["Overcharge", "Armour"]
    duel.refused("dn-upgrades", "already placed", ship="Anna", upgrades="X")
    duel.to_phase("Ready")
    duel.refused("dn-upgrades", "chosen at set-up", ship="Ben", upgrades="X")


# --- Damage, healing, elimination ---------------------------------------------------------------

def test_damage_and_heal_capped_at_the_start(duel):
    duel.ok("dn-damage", ship="Anna", amount=5)
    assert duel.count("Anna", "hp") == 21
    resp = duel.ok("dn-heal", ship="Anna", amount=9)
    assert duel.count("Anna", "hp") == 26
    assert "never above the starting 26" in duel.table.client.get(f"/t/{duel.table.code}/log").data.decode()
    assert resp.status_code == 200


@pytest.mark.parametrize("type_, fields, sentence", [
    ("dn-damage", {"ship": "Anna", "amount": 0}, "The Damage must be from 1 to 99"),
    ("dn-damage", {"ship": "Anna"}, "Enter the Damage."),
    ("dn-damage", {"ship": "Zed", "amount": 2}, "Pick a ship of this battle"),
    ("dn-heal", {"ship": "Ben", "amount": "x"}, "must be a whole number"),
])
def test_damage_and_heal_bad_input(duel, type_, fields, sentence):
    duel.refused(type_, sentence, **fields)


def test_elimination_ends_the_duel_with_points(duel):
    duel.refused("dn-end-battle", "ends only when a ship is Eliminated")
    duel.ok("dn-damage", ship="Ben", amount=30)
    assert duel.count("Ben", "hp") == 0   # the counter floors at 0; the Elimination is recorded
    assert duel.game()["eliminations"][0]["reasons"] == ["destroyed"]
    duel.refused("dn-damage", "Ben is Eliminated", ship="Ben", amount=1)
    duel.ok("dn-end-battle")
    result = duel.game()["result"]
    assert result["points"] == {"Anna": 5, "Ben": 0} and result["results"]["Anna"] == "major"
    duel.refused("dn-damage", "This battle is over", ship="Anna", amount=1)


def test_both_eliminated_within_the_window_is_a_minor_victory_each(duel):
    duel.to_phase("Reveal")
    reveal(duel, "Anna", "Rail Cannon", "Offense", "3")
    reveal(duel, "Ben", "Torpedo", "Offense", "2.5")
    reveal(duel, "Ben", "Mine", "Offense", "1")
    duel.to_phase("Resolve")
    duel.ok("dn-damage", ship="Ben", amount=24)          # at initiative 3
    order = {r["card"]: r["status"] for r in duel.game()["turn"]["order"]}
    assert order == {"Rail Cannon": "current", "Torpedo": "todo", "Mine": "ignored"}  # 1 is beyond 3 - 1.0
    duel.ok("dn-next-step")
    duel.ok("dn-damage", ship="Anna", amount=26)         # at initiative 2.5: within the window
    duel.ok("dn-end-battle")
    assert duel.game()["result"]["points"] == {"Anna": 3, "Ben": 3}


def test_eliminate_by_hand(duel):
    duel.refused("dn-eliminate", "not destroyed", ship="Ben", reason="destroyed")
    duel.refused("dn-eliminate", "destroyed, disabled or denied", ship="Ben", reason="sunk")
    duel.ok("dn-eliminate", ship="Ben", reason="denied")
    assert duel.game()["eliminations"][0]["cause"] == "push"


# --- Card Burn ----------------------------------------------------------------------------------

def test_card_burn_primary_counts_two(duel):
    duel.ok("dn-card-burn", ship="Ben", amount=3, hand_cards=1, revealed="primary")
    assert (duel.count("Ben", "hand"), duel.count("Ben", "deck"), duel.count("Ben", "discard")) == (5, 19, 2)
    assert duel.game()["turn"]["burn"][duel.game()["ship_of"]["Ben"]] == 3


def test_card_burn_tokens_remains_and_indestructible(duel):
    duel.table.act(do="adjust unit=u1 tracker=tokens by=2")
    duel.ok("dn-card-burn", ship="Anna", amount=6, tokens=2, remains_primary=1, indestructible_x=3,
            indestructible_name="Bastion")
    assert (duel.count("Anna", "tokens"), duel.count("Anna", "hand"), duel.count("Anna", "discard")) == (0, 6, 1)


@pytest.mark.parametrize("fields, sentence", [
    ({"amount": 3, "hand_cards": 1}, "2 Card Burn is still to resolve"),
    ({"amount": 2, "hand_cards": 1, "revealed": "card card"}, "leave it on the deck"),
    ({"amount": 2, "revealed": "queen"}, "as card or primary"),
    ({"amount": 2, "tokens": 1}, "No tokens left to discard"),
    ({"amount": 0, "hand_cards": 1}, "The Card Burn must be from 1 to 99"),
])
def test_card_burn_bad_input(duel, fields, sentence):
    duel.refused("dn-card-burn", sentence, ship="Ben", **fields)


def test_card_burn_to_no_cards_eliminates(duel):
    duel.ok("dn-card-burn", ship="Ben", amount=26, hand_cards=6, revealed=" ".join(["c"] * 20))
    assert duel.game()["eliminations"][0]["reasons"] == ["disabled"]


# --- the turn: Draw, Power Management, Ready, slots, Discard, Return ----------------------------

def test_draw_tops_up_once_per_turn_and_reminds_always_dangerous(duel):
    duel.to_phase("Power Management")
    duel.refused("dn-draw", "happens in the Draw phase", ship="Anna")
    duel.ok("dn-power", ship="Anna", cards=3, offense=2)
    duel.ok("next-phase")
    duel.to_phase("Draw")
    duel.ok("dn-draw", ship="Anna", no_attack=1)
    assert duel.count("Anna", "hand") == 6 and duel.count("Anna", "deck") == 27
    assert duel.game()["turn"]["always_dangerous"] == [duel.game()["ship_of"]["Anna"]]
    duel.refused("dn-draw", "already drawn this turn", ship="Anna")
    duel.ok("dn-draw")                                  # the others
    duel.refused("dn-draw", "Every ship has already drawn")


def test_power_management_limits_and_options(duel):
    duel.refused("dn-power", "happens in the Power Management phase", ship="Anna", cards=2)
    duel.to_phase("Power Management")
    duel.refused("dn-power", "At most 2 of the cards may be Offense", ship="Anna", cards=3, offense=3)
    duel.refused("dn-power", "Play at most 3", ship="Anna", cards=4)
    duel.refused("dn-power", "has no Ready card on top", ship="Anna", cards=1, ready_slot=2)
    duel.ok("dn-power", ship="Anna", cards=1, offense=1, terrain=1)
    power = duel.game()["turn"]["power"][duel.game()["ship_of"]["Anna"]]
    assert [o["id"] for o in power["options"]] == ["larger_move", "flip_two_upgrades",
                                                   "flip_one_upgrade_and_smaller_move"]
    assert duel.count("Anna", "hand") == 4
    duel.refused("dn-power", "already played cards this turn", ship="Anna", cards=2)


def test_ready_slots_flip_and_play_the_ready_card(duel):
    duel.ok("dn-upgrades", ship="Anna", upgrades="Overcharge")
    duel.ok("dn-flip", ship="Anna", slot=1, face="down")
    duel.refused("dn-flip", "already face-down", ship="Anna", slot=1, face="down")
    duel.refused("dn-ready", "happens in the Ready phase", ship="Anna", card="Nova Lance", slot=1)
    duel.to_phase("Ready")
    duel.refused("dn-ready", "Name the card", ship="Anna", slot=1)
    duel.ok("dn-ready", ship="Anna", card="Nova Lance", slot=1)
    duel.ok("dn-ready", ship="Anna", card="Torpedo Bay", slot=2)
    duel.refused("dn-ready", "Ready at most 2 cards a turn", ship="Anna", card="More", slot=3)
    duel.refused("dn-flip", "covered and cannot be flipped", ship="Anna", slot=1, face="up")
    assert duel.count("Anna", "hand") == 4
    for _ in range(7):
        duel.ok("next-phase")
    duel.to_phase("Power Management")
    duel.ok("dn-power", ship="Anna", cards=2, offense=1, ready_slot=1)
    slot = duel.game()["ships"][duel.game()["ship_of"]["Anna"]]["slots"][0]
    assert [c["name"] for c in slot] == ["Overcharge"]
    duel.ok("dn-flip", ship="Anna", slot=1, face="up")


def test_discard_and_return(duel):
    duel.refused("dn-discard", "happens in the Discard phase", ship="Anna", count=2)
    duel.to_phase("Discard")
    duel.refused("dn-discard", "Enter the cards discarded", ship="Anna")
    duel.ok("dn-discard", ship="Anna", count=2)
    assert duel.count("Anna", "discard") == 2
    duel.to_phase("Return")
    duel.ok("dn-return", ship="Anna", count=1)
    duel.refused("dn-return", "Return up to 2 cards a turn", ship="Anna", count=2)
    duel.refused("dn-return", "from 1 to 2", ship="Ben", count=3)
    assert (duel.count("Anna", "hand"), duel.count("Anna", "deck")) == (5, 31)


# --- the initiative resolver --------------------------------------------------------------------

def test_resolver_orders_five_cards_with_ties_and_walks_them(duel):
    duel.refused("dn-reveal", "happens in the Reveal, Resolve or React phase", owner="Anna", name="A",
                 card_type="Offense", steps="3")
    duel.to_phase("Reveal")
    reveal(duel, "Ben", "Flak Screen", "Defense", "X, 1")
    reveal(duel, "Ben", "Asteroid Field", "Terrain", "3", speed=4)
    reveal(duel, "Anna", "Ion Cloud", "Terrain", "3", speed=2)
    reveal(duel, "Anna", "Rail Cannon", "Offense", "3")
    reveal(duel, "Ben", "Torpedo", "Offense", "3")
    order = duel.game()["turn"]["order"]
    assert [(r["initiative"], r["card"]) for r in order] == [
        ("X", "Flak Screen"), ("3", "Asteroid Field"), ("3", "Ion Cloud"), ("3", "Rail Cannon"),
        ("3", "Torpedo"), ("1", "Flak Screen")]
    assert [r["attacker_chooses"] for r in order] == [False, False, False, True, True, False]
    duel.refused("dn-next-step", "happens in the Resolve or React phase")
    duel.to_phase("Resolve")
    for _ in range(3):
        duel.ok("dn-next-step")
    turn = duel.game()["turn"]
    torpedo = next(r for r in turn["order"] if r["card"] == "Torpedo")
    stale = duel.act("dn-next-step", expect="c1@X")          # a phone that saw an older step
    assert stale.status_code == 409 and "Someone already moved" in stale.data.decode()
    duel.ok("dn-next-step", expect=turn["current"], entry=torpedo["key"])   # the Attacker picks Torpedo
    assert duel.game()["turn"]["current"].startswith("c4@")                 # Rail Cannon is next
    duel.ok("dn-next-step")
    duel.ok("dn-next-step")
    duel.refused("dn-next-step", "Every revealed card has resolved")


@pytest.mark.parametrize("fields, sentence", [
    ({"owner": "Anna", "name": "A", "card_type": "Offense", "steps": "7"}, "Initiative runs from X, then 5.9 down to 0"),
    ({"owner": "Anna", "name": "A", "card_type": "Offense", "steps": "3.55"}, "Initiative steps go in tenths"),
    ({"owner": "Anna", "name": "A", "card_type": "Weapon", "steps": "3"}, "the card type is one of"),
    ({"owner": "Anna", "name": "A", "card_type": "Offense"}, "Enter the card's initiative steps"),
    ({"owner": "Zed", "name": "A", "card_type": "Offense", "steps": "3"}, "Say whose card it is"),
    ({"owner": "Anna", "card_type": "Offense", "steps": "3"}, "Name the card"),
])
def test_reveal_bad_input(duel, fields, sentence):
    duel.to_phase("Reveal")
    duel.refused("dn-reveal", sentence, **fields)


def test_tied_upgrades_need_their_power_level_and_unreveal(duel):
    duel.to_phase("Reveal")
    reveal(duel, "Anna", "Shield Boost", "Upgrade", "2", power_level=3)
    duel.refused("dn-reveal", "enter its power level", owner="Ben", name="Ram", card_type="Upgrade", steps="2")
    reveal(duel, "Ben", "Ram", "Upgrade", "2", power_level=4)
    assert [r["card"] for r in duel.game()["turn"]["order"]] == ["Ram", "Shield Boost"]
    duel.ok("dn-unreveal", card="c1")
    assert [r["card"] for r in duel.game()["turn"]["order"]] == ["Ram"]
    duel.refused("dn-unreveal", "No revealed card", card="c9")


def test_card_burn_answer_travels_to_the_tool_on_every_board(duel):
    # issue 10: the answer shows under the Card Burn button; the board's answer carries it out of band, once
    page = html.unescape(duel.ok("dn-card-burn", ship="Ben", amount=2, hand_cards=2).data.decode())
    assert page.count('id="dn-burn-result"') == 1 and 'hx-swap-oob="true"' in page
    assert "Turn 1, Draw</small> Ben: Card Burn 2: 2 from hand." in page
    assert english(duel.game()["burn_result"]["summary"]) == "Ben: Card Burn 2: 2 from hand."
    tools = html.unescape(duel.table.client.get(f"/t/{duel.table.code}/tools/game",
                                                headers={"HX-Request": "true"}).data.decode())
    assert tools.count('id="dn-burn-result"') == 1 and "hx-swap-oob" not in tools
    assert "Ben: Card Burn 2: 2 from hand." in tools


# --- helpers everybody sees -----------------------------------------------------------------------

@pytest.mark.parametrize("hexes, band", [(0, "Close"), (3, "Close"), (4, "Medium"), (10, "Long"), (15, "Extreme"),
                                         (16, "beyond Extreme")])
def test_range_helper(duel, hexes, band):
    duel.ok("dn-range", hexes=hexes)
    assert band in english(duel.game()["helper"]["summary"])


def test_reduction_helper(duel):
    duel.ok("dn-reduce", value=7, negate=1, unstoppable=1)
    assert duel.game()["helper"]["result"] == 3
    duel.ok("dn-reduce", value=7, reduction=2, unstoppable=1, unbreakable=1)
    assert duel.game()["helper"]["result"] == 5
    duel.refused("dn-reduce", "Enter the reduction, or tick negate", value=7)
    duel.refused("dn-range", "Enter the range in hexes")


def test_off_and_no_mean_no_and_an_unknown_word_is_refused(duel):
    """Issue 29: one reader of yes/no (schema.Flag.parse); Dreadnaught once took "off" for yes."""
    duel.ok("dn-reduce", value=7, reduction=2, unstoppable="off", negate="No")
    assert duel.game()["helper"]["result"] == 5 and not english(duel.game()["helper"]["summary"]).startswith("Unstoppable")
    duel.refused("dn-reduce", "unstoppable must be yes or no (yes/no, true/false, on/off or 1/0); got 'maybe'.",
                 value=7, reduction=2, unstoppable="maybe")


# --- multiplayer: the Fleet Arrival Timer, credit, wreck terrain, results -----------------------

def test_first_elimination_starts_the_timer_and_places_wreck_terrain(melee):
    melee.refused("dn-fleet", "starts only when the first ship is Eliminated", trigger="pushed_to_edge")
    melee.ok("dn-damage", ship="Dan", amount=5)
    melee.ok("dn-damage", ship="Dan", amount=19)
    game = melee.game()
    assert game["eliminations"][0]["terrain"] == "Debris"         # 24 Damage this turn: 8 or more
    assert game["timer"]["tokens"] == {"Anna": 8, "Ben": 8, "Cleo": 8}
    melee.refused("dn-credit", "Credit one of", ship="Dan", by="Zed")
    melee.refused("dn-credit", "Cleo is not Eliminated", ship="Cleo", by="Anna")
    melee.ok("dn-credit", ship="Dan", by="Anna", advance=1)
    assert melee.game()["timer"]["tokens"]["Anna"] == 6
    melee.refused("dn-credit", "already credited", ship="Dan", by="Ben")


def test_fleet_triggers_deck_empty_and_arrival(melee):
    melee.ok("dn-card-burn", ship="Dan", amount=36, hand_cards=6, revealed=" ".join(["c"] * 30))
    game = melee.game()
    assert game["eliminations"][0]["terrain"] == "Derelict Hull"
    melee.ok("dn-fleet", trigger="pushed_to_edge")
    melee.refused("dn-fleet", "Say who plays the Event Card", trigger="event_card", player="Dan")
    melee.refused("dn-fleet", "A Fleet Token moves for", trigger="wind")
    for _ in range(6):
        melee.ok("dn-fleet", trigger="event_card", player="Cleo")
    assert melee.game()["timer"]["tokens"] == {"Anna": 7, "Ben": 7, "Cleo": 1}
    melee.refused("dn-fleet-arrival", "No Fleet Token is on the 0 space")
    melee.ok("dn-fleet", trigger="event_card", player="Cleo")
    melee.refused("dn-fleet-arrival", "The Fleet arrives at the end of the turn")
    melee.refused("dn-end-battle", "ends when a Fleet arrives")
    melee.to_phase("Discard")
    melee.refused("dn-fleet-arrival", "Enter the hexes from Cleo's Dreadnaught to Ben",
                  **{"distances.Cleo.Anna": 2})
    melee.ok("dn-fleet-arrival", **{"distances.Cleo.Anna": 2, "distances.Cleo.Ben": 9})
    assert melee.count("Anna", "hp") == 18 and melee.count("Ben", "hp") == 24
    melee.refused("dn-end-battle", "Resolve the Fleet Arrival's Card Burn first")
    melee.ok("dn-card-burn", ship="Anna", amount=4, hand_cards=4)
    melee.refused("dn-end-battle", "Choose a result for Anna")
    melee.ok("dn-end-battle", **{"results.Anna": "defeat", "results.Ben": "defeat", "results.Cleo": "major",
                                 "results.Dan": "defeat"})
    assert melee.game()["result"]["points"]["Cleo"] == 5


def test_deck_reduced_to_zero_moves_every_token(melee):
    melee.ok("dn-damage", ship="Dan", amount=24)
    melee.ok("dn-card-burn", ship="Anna", amount=30, revealed=" ".join(["c"] * 30))
    assert melee.game()["timer"]["tokens"] == {"Anna": 7, "Ben": 7, "Cleo": 7}


def test_arrival_damage_can_eliminate_and_counts_for_the_fleet(melee):
    melee.ok("dn-damage", ship="Dan", amount=24)
    melee.ok("dn-damage", ship="Ben", amount=20)
    for _ in range(8):
        melee.ok("dn-fleet", trigger="event_card", player="Anna")
    melee.to_phase("Return")
    melee.ok("dn-fleet-arrival", **{"distances.Anna.Ben": 4, "distances.Anna.Cleo": 5})
    record = next(r for r in melee.game()["eliminations"] if r["player"] == "Ben")
    assert record["by"] == "Anna" and record["terrain"] == "Debris"     # 20 + 6 Damage this turn
    ships = melee.game()["ships"]
    assert [s["player"] for s in ships.values() if s["pending_burn"]] == []   # Cleo was 5 hexes away
    melee.ok("dn-end-battle", **{"results.Anna": "major", "results.Ben": "defeat", "results.Cleo": "pyrrhic",
                                 "results.Dan": "defeat"})
    assert melee.game()["result"]["winner"]["winner"] == "Anna"       # Dan uncredited, Ben by the Fleet


def test_fleet_arrival_card_burn_that_eliminates_counts_for_the_fleet(melee):
    # seed 000, Multiplayer, Fleet Arrival Effects: "Damage and Card Burn inflicted by a Fleet Arrival count
    # towards this" (the most Eliminations)
    melee.ok("dn-damage", ship="Dan", amount=24)                    # the timer starts; Dan is not credited
    melee.ok("dn-card-burn", ship="Ben", amount=32, hand_cards=2, revealed=" ".join(["c"] * 30))
    assert (melee.count("Ben", "hand"), melee.count("Ben", "deck")) == (4, 0)
    for _ in range(7):
        melee.ok("dn-fleet", trigger="event_card", player="Anna")   # 8 - 1 (Ben's empty deck) - 7 = 0
    melee.to_phase("Return")
    melee.ok("dn-fleet-arrival", **{"distances.Anna.Ben": 3, "distances.Anna.Cleo": 9})
    assert melee.count("Ben", "hp") == 18                            # 6 Damage: Ben fights on, burn pending
    label = html.unescape(melee.ok("dn-card-burn", ship="Ben", amount=4, hand_cards=4).data.decode())
    record = next(r for r in melee.game()["eliminations"] if r["player"] == "Ben")
    assert record["reasons"] == ["disabled"] and record["by"] == "Anna"
    assert "credited to Anna" in label
    melee.ok("dn-end-battle", **{"results.Anna": "major", "results.Ben": "defeat", "results.Cleo": "pyrrhic",
                                 "results.Dan": "defeat"})
    assert melee.game()["result"]["winner"]["winner"] == "Anna"


def test_card_burn_says_what_remains_in_play_discarded(duel):
    # seed 000, Damage, Push, & Burn, Resolving Card Burn: "Your opponent may discard Remains in Play cards as
    # part of resolving Card Burn"; the label must name the card that went to the discard pile
    before = duel.count("Ben", "discard")
    label = html.unescape(duel.ok("dn-card-burn", ship="Ben", amount=2, remains_primary=1).data.decode())
    assert duel.count("Ben", "discard") == before + 1
    assert "nothing discarded" not in label
    assert "1 Remains in Play card" in label


def test_combined_fire_for_teams_once_per_step(app, table):
    game = Dreadnaught(app, table).create("Anna, Ben, Cleo, Dan")
    game.ok("dn-setup", **{"teams.Anna": "Red", "teams.Ben": "Red", "teams.Cleo": "Blue", "teams.Dan": "Blue"})
    game.refused("dn-combined-fire", "happens in the Resolve or React phase", target="Cleo", effect="damage",
                 **{"attackers.Anna": 1, "attackers.Ben": 1})
    game.to_phase("Reveal")
    reveal(game, "Anna", "Lance", "Offense", "3")
    reveal(game, "Ben", "Lance", "Offense", "3")
    game.to_phase("Resolve")
    game.refused("dn-combined-fire", "for teammates only", target="Dan", effect="damage",
                 **{"attackers.Anna": 1, "attackers.Cleo": 1})
    game.ok("dn-combined-fire", target="Cleo", effect="card_burn", **{"attackers.Anna": 1, "attackers.Ben": 1})
    game.refused("dn-combined-fire", "only once per initiative step", target="Cleo", effect="damage",
                 **{"attackers.Anna": 1, "attackers.Ben": 1})
    game.ok("dn-range", hexes=3)
    assert "Shared Defense: allowed" in english(game.game()["helper"]["summary"])
    game.fold_matches()


def test_combined_fire_is_a_team_rule(melee):
    melee.refused("dn-combined-fire", "Combined Fire is a team rule", target="Cleo", effect="damage")


def test_duel_has_no_timer_or_credit(duel):
    duel.refused("dn-fleet", "is a multiplayer rule", trigger="pushed_to_edge")
    duel.refused("dn-credit", "is a multiplayer rule", ship="Ben", by="Anna")


# --- labels: each name said once ----------------------------------------------------------------

def labels(game) -> tuple[str, list[str]]:
    """The undo button's label ("<seat>: <label>") and the log's labels, newest last."""
    db = store.open_db(game.app.config["DATABASE"])
    return store.history(db, game.table.code)["undo"], [e["label"] for e in store.events(db, game.table.code)]


def test_a_player_acting_on_their_own_ship_is_named_once(duel):
    # Anna's phone: the log and the undo button already put "Anna" before every label
    duel.ok("dn-mulligan", ship="Anna")
    assert labels(duel)[0] == "Anna: draws a new hand of 6 and shuffles the old one back; counts unchanged."
    duel.ok("dn-mulligan", ship="Ben")
    assert labels(duel)[0] == "Anna: Ben draws a new hand of 6 and shuffles the old one back; counts unchanged."
    duel.ok("dn-card-burn", ship="Anna", amount=1, hand_cards=1)
    assert labels(duel)[0] == "Anna: Card Burn 1: 1 from hand."
    # the Card Burn tool's answer has no seat beside it: it names the burned player
    assert english(duel.game()["burn_result"]["summary"]) == "Anna: Card Burn 1: 1 from hand."
    duel.ok("dn-damage", ship="Ben", amount=3)
    assert labels(duel)[0] == "Anna: Ben: 3 Damage: HP 24 -> 21."
    duel.ok("dn-heal", ship="Anna", amount=1)
    assert labels(duel)[0] == "Anna: Heal 1: HP 26 -> 26 (1 lost: never above the starting 26)."
    duel.ok("dn-draw")
    assert labels(duel)[0] == "Anna: Everyone draws up to 6: Anna draws 1 (hand 6, deck 29). Ben draws 0 (hand 6, deck 20)."
    log = html.unescape(duel.table.client.get(f"/t/{duel.table.code}/log").data.decode())
    assert "Anna: Anna" not in log and "Anna: Card Burn" not in labels(duel)[1]


def test_a_role_side_nobody_named_is_called_by_its_role(app, table):
    game = Dreadnaught(app, table)
    table.create(system="dreadnaught", name="Planet 7", seat="Anna")
    page = html.unescape(game.ok("dn-setup", **{"names.Attacker": "Anna"}).data.decode())
    assert game.unit("Attacker")["name"] == "Anna's Dreadnaught" and game.unit("Defender")["name"] == "Defender"
    assert "Defender's Dreadnaught" not in page
    game.ok("dn-card-burn", ship="Attacker", amount=1, hand_cards=1)   # Anna's own ship, by its typed name
    assert labels(game)[0] == "Anna: Card Burn 1: 1 from hand."
    game.ok("dn-damage", ship="Defender", amount=3)
    assert labels(game)[0] == "Anna: Defender: 3 Damage: HP 24 -> 21."
    game.fold_matches()


# --- running battles and the log ----------------------------------------------------------------

def test_running_battle_best_of_three(dn):
    dn.ok("dn-setup", best_of=3, **DUEL)
    dn.ok("dn-damage", ship="Ben", amount=24)
    dn.ok("dn-end-battle")
    dn.ok("dn-setup")                                  # battle 2: same decks, a new Attacker at random
    game = dn.game()
    assert game["battle"] == 2 and game["eliminations"] == [] and dn.count("Ben", "hp") == 24
    assert dn.unit("Anna")["stats"]["start_hp"] == 26 and dn.state()["round"] == 1
    dn.ok("dn-damage", ship="Ben", amount=24)
    dn.ok("dn-end-battle")
    assert dn.game()["running"]["winner"] == "Anna"    # 10 to 0 with one game left: cannot be caught
    dn.refused("dn-setup", "The running battle is decided")


def test_undo_redo_replays_the_same_battle(duel):
    duel.ok("dn-damage", ship="Ben", amount=5)
    duel.ok("dn-card-burn", ship="Ben", amount=2, hand_primary=1)
    assert duel.table.undo().status_code == 200
    assert duel.count("Ben", "hand") == 6
    assert duel.table.undo(redo=True).status_code == 200
    assert duel.count("Ben", "hand") == 5 and duel.count("Ben", "hp") == 19
    duel.fold_matches()


def test_board_renders_every_step_for_players_and_spectators(duel, client):
    duel.ok("dn-upgrades", ship="Anna", upgrades="Overcharge")
    for _ in range(8):
        page = client.get(f"/t/{duel.table.code}?open=*").data.decode()
        assert 'id="dn-battle"' in page and 'dn-ship-u1' in page
        duel.ok("next-phase")
    duel.to_phase("Reveal")
    reveal(duel, "Anna", "Rail Cannon", "Offense", "3")
    page = client.get(f"/t/{duel.table.code}?open=*").data.decode()
    tools = client.get(f"/t/{duel.table.code}/tools/game", headers={"HX-Request": "true"}).data.decode()
    assert 'data-card="Rail Cannon"' in page and 'id="dn-reveal"' in tools


def test_spectators_see_the_battle_without_its_controls(duel, app):
    duel.ok("dn-damage", ship="Ben", amount=3)
    code = duel.table.code
    _, secret = duel.table.secrets()
    watcher = app.test_client()
    sit(watcher, code, secret, "Sam")
    page = watcher.get(f"/t/{code}?open=*").data.decode()
    assert 'data-ship="Ben"' in page and "3 Damage this turn" in page
    assert "dn-damage" not in page and 'id="dn-tools"' not in page


def test_the_battle_report_lists_the_eliminated_ship_as_lost(duel, client):
    duel.ok("dn-damage", ship="Ben", amount=24)
    duel.ok("dn-end-battle")
    assert duel.unit("Ben")["removed"] and not duel.unit("Anna")["removed"]
    assert client.get(f"/t/{duel.table.code}/report").status_code == 200


def test_dreadnaught_forms_work_as_plain_posts(dn, client):
    """Without JavaScript (or a tap before htmx starts) the set-up form still posts with its CSRF token."""
    page = client.get(f"/t/{dn.table.code}?open=*").data.decode()
    form = page.split('id="dn-setup"')[1].split("</form>")[0]
    token = form.split('name="csrf_token" value="')[1].split('"')[0]
    assert token != dn.table.csrf  # the board's forms carry its view's token (companion/board)
    tools = client.get(f"/t/{dn.table.code}/tools/game").data.decode()  # the helpers' own page: the phone's
    assert f'name="csrf_token" value="{dn.table.csrf}"' in tools.split('id="dn-reveal"')[1]
    resp = client.post(f"/t/{dn.table.code}/act", data={"csrf_token": token, "_control": "dn-setup",
                                                        "do": "dn-setup", **DUEL})
    assert resp.status_code == 303 and dn.game()["attacker"] == "Anna"
