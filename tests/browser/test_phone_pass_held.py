"""Issue 40 §1: a redraw never takes what a player holds.  For every game, phone A opens a unit's card,
opens its sections, types in (or chooses, ticks) every field of every form on it and stays in one of
them; phone B changes that very unit; the change reaches A's phone (the unit's part is drawn again)
and not one typed value, chosen option, ticked box or open section is lost, the focus and the caret
stay in the field A was typing in, and A's next keystroke lands there."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import open_card, two_players

pytestmark = pytest.mark.browser
SYNC = 5000

# every field of the unit's part (its row, its card, fields of a form drawn elsewhere): what a player
# can type in, choose or tick there
FIELDS = "input[name]:not([type=hidden]):not([type=submit]), select[name], textarea[name]"

# a key per field, the test's own: its form, name, label and (a tick) value, the n-th of equal keys
READ = """([uid, sel]) => {
  const box = document.getElementById('u-' + uid), seen = {}, out = [];
  for (const f of box.querySelectorAll(sel)) {
    if (!f.offsetParent || f.disabled) continue;
    let key = (f.form ? f.form.id : '') + '|' + f.name + '|' + (f.getAttribute('aria-label') || f.placeholder || '');
    if (f.type === 'checkbox' || f.type === 'radio') key += '|' + f.value;
    seen[key] = (seen[key] || 0) + 1;
    out.push({key: key + '#' + seen[key], tag: f.tagName, type: f.type, inputmode: f.inputMode || '',
              value: f.type === 'checkbox' || f.type === 'radio' ? String(f.checked) : f.value,
              options: f.tagName === 'SELECT' ? [...f.options].map(o => o.value) : []});
  }
  return out;
}"""


def flat(form, prefix=""):
    """Nested fields as a board form sends them (dotted names: companion.play.form_args)."""
    out = {}
    for k, v in form.items():
        if isinstance(v, dict):
            out.update(flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = "1" if v is True else str(v)
    return out


class Api:
    """The table's set-up, posted as phone A's board forms post it (its seat, its CSRF token)."""

    def __init__(self, page, base):
        self.page, self.base = page, base
        self.code = page.url.split("#")[0].split("?")[0].rstrip("/").split("/")[-1]
        self.csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")

    def act(self, **action):
        r = self.page.request.post(f"{self.base}/t/{self.code}/act", form={"csrf_token": self.csrf, **flat(action)})
        assert r.ok, re.findall(r'class="err[^>]*>.{0,300}', r.text()) or r.text()[:300]

    def units(self):
        """The units on the table by name (read from the board's unit list)."""
        self.page.reload()
        return {o.inner_text().strip(): o.get_attribute("value") for o in self.page.locator("#unit-options option").all()}


def uid_of(page, name):
    row = page.locator("details.unitrow", has=page.locator("summary .rname", has_text=re.compile(f"^{re.escape(name)}$")))
    return row.get_attribute("id").removeprefix("row-")


def tap(page, base, **form):
    """Phone B's change, posted as its board's buttons post it (its own seat, its own CSRF token)."""
    code = page.url.split("#")[0].split("?")[0].rstrip("/").split("/")[-1]
    csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")
    r = page.request.post(f"{base}/t/{code}/act", form={"csrf_token": csrf, **form}, headers={"HX-Request": "true"})
    assert r.ok, r.text()[:400]


# --- each game: its table, the unit A types on, and B's change to that unit ------------------------------

def freeform(api):
    api.act(type="add-unit", name="Nimitz", side="Side A", template="unit", stats={"hp": 8})
    api.act(type="add-unit", name="Zhukov", side="Side B", template="unit", stats={"hp": 8})
    return "Nimitz", lambda uid: {"type": "adjust", "unit": uid, "tracker": "hp", "by": "-1"}


def dreadfleet(api):
    stats = {"speed": 6, "handling": 3, "broadside": 4, "armour": 5, "hull": 10, "crew": 4, "command": 4, "swashbuckling": 3}
    cog = {"speed": 5, "broadside": 2, "armour": 5, "hull": 2, "crew": 2}
    api.act(type="df-warship", name="Heldenhammer", sail=True, stats=stats, aux=cog)
    api.act(type="df-warship", name="Bloody Reaver", sail=True, stats=stats, aux=cog)
    api.act(type="deck-mode", deck="damage", mode="physical")
    return "Bloody Reaver", lambda uid: {"type": "adjust", "unit": uid, "tracker": "crew_damage", "by": "1"}


SHIP = {"size": 2, "chart": {"miss": 2, "glance": 4}, "movement": "2:3/2 3:2/1",
        }


def astral_action(api):
    api.act(type="aa-ship", side="Player 1", card={**SHIP, "name": "Raven"})
    api.act(type="aa-ship", side="Player 2", card={**SHIP, "name": "Falcon"})
    api.act(type="aa-token", unit=api.units()["Raven"])  # its card then offers "Use a Command" too
    return "Raven", lambda uid: {"type": "aa-damage", "unit": uid, "amount": "2"}


def empires_of_dust(api):
    api.act(type="eod-deploy", side="Fleet 1", preset="average-fleet")
    name = next(iter(api.units()))
    return name, lambda uid: {"type": "adjust", "unit": uid, "tracker": "hp", "by": "-1"}


def dreadnaught(api):
    api.act(type="dn-setup", names={"Anna": "Anna", "Ben": "Ben"}, attacker="Anna")
    return "Anna's Dreadnaught", lambda uid: {"type": "dn-damage", "ship": uid, "amount": "1"}


def talon(api):
    api.act(type="talon-ship", side="Terran", cls="terran-ca", name="Zhukov")
    api.act(type="talon-ship", side="Talon", cls="talon-ca", name="Justice")
    return "Zhukov", lambda uid: {"type": "talon-damage", "unit": uid, "arc": "hull", "amount": "1"}


GAMES = {  # system, sides, set-up
    "freeform": ("freeform", ("Side A", "Side B"), freeform),
    "dreadfleet": ("dreadfleet", ("Grand Alliance", "Dreadfleet"), dreadfleet),
    "astral-action": ("astral-action", ("Player 1", "Player 2"), astral_action),
    "empires-of-dust": ("empires-of-dust", ("Fleet 1", "Fleet 2"), empires_of_dust),
    "dreadnaught": ("dreadnaught", ("Anna", "Ben"), dreadnaught),
    "talon": ("talon", ("Terran", "Talon"), talon),
}


def type_everything(page, uid):
    """Phone A fills every field of the unit's part as a player does: a number or words typed, another
    option chosen, a box ticked (the last of a radio group); what it put there, by the test's keys."""
    fields = page.evaluate(READ, [uid, FIELDS])
    box = page.locator(f"#u-{uid}")
    for i, f in enumerate(fields):
        field = box.locator(FIELDS).locator("visible=true").nth(i)
        if f["tag"] == "SELECT":
            other = [v for v in f["options"] if v != f["value"]]
            if other:
                field.select_option(other[-1])
        elif f["type"] == "checkbox":
            field.click()
        elif f["type"] == "radio":
            if i + 1 == len(fields) or fields[i + 1]["key"].split("|")[:2] != f["key"].split("|")[:2]:
                field.click()
        else:
            field.fill("")
            numeric = f["inputmode"] in ("numeric", "decimal") or f["type"] == "number"
            field.press_sequentially("3" if numeric else "Mast Shattered")
    return {f["key"]: f["value"] for f in page.evaluate(READ, [uid, FIELDS])}


@pytest.mark.parametrize("game", list(GAMES))
def test_what_a_player_holds_on_a_unit_survives_another_phones_change_to_it(live_server, phone, game):
    system, sides, setup = GAMES[game]
    anna, ben = phone(), phone()
    url = two_players(anna, ben, live_server, system, "Hold fast", sides,
                      typed_sides=", ".join(sides) if system == "dreadnaught" else None)
    name, change = setup(Api(anna, live_server))
    for page in (anna, ben):
        page.reload()
        expect(page.locator("details.unitrow", has=page.locator(".rname", has_text=name)).first).to_be_attached()
    uid = uid_of(anna, name)
    open_card(anna, name, exact=True)
    # every section of the card open (a field in a folded section is typed in too)
    anna.evaluate("uid => document.querySelectorAll('#u-' + uid + ' details:not([open]) > summary').forEach(s => s.click())", uid)
    opened = anna.evaluate("uid => [...document.querySelectorAll('#u-' + uid + ' details')].filter(d => d.open).length", uid)
    typed = type_everything(anna, uid)
    if game != "freeform":  # (a freeform unit's card holds trackers and buttons only)
        assert len(typed) >= 3, typed
    # the player stays in a field they are typing in, the caret inside the words
    words = [k for k, v in typed.items() if v == "Mast Shattered" or v == "3"]
    focused = None
    if words:
        focused = anna.evaluate("""([uid, sel, key]) => {
            const f = [...document.getElementById('u-' + uid).querySelectorAll(sel)].filter(f => f.offsetParent && !f.disabled)
              .find(f => ((f.form ? f.form.id : '') + '|' + f.name + '|' + (f.getAttribute('aria-label') || f.placeholder || '')) === key.split('#')[0]);
            f.focus(); f.setSelectionRange && f.type === 'text' && f.setSelectionRange(1, 1); return f.name; }""", [uid, FIELDS, words[0]])
    seq = int(anna.locator("#board").get_attribute("data-seq"))
    anna.evaluate("uid => { document.getElementById('u-' + uid).dataset.before = '1'; }", uid)

    tap(ben, live_server, **change(uid))  # phone B changes the same unit

    expect(anna.locator("#board")).not_to_have_attribute("data-seq", str(seq), timeout=SYNC)
    expect(anna.locator(f"#u-{uid}:not([data-before])")).to_be_attached(timeout=SYNC)  # its part was drawn again
    anna.wait_for_timeout(300)
    after = {f["key"]: f["value"] for f in anna.evaluate(READ, [uid, FIELDS])}
    lost = {k: (v, after.get(k)) for k, v in typed.items() if after.get(k) != v}
    assert lost == {}, lost
    assert anna.evaluate("uid => [...document.querySelectorAll('#u-' + uid + ' details')].filter(d => d.open).length", uid) == opened
    if focused:
        assert anna.evaluate("() => document.activeElement && document.activeElement.name") == focused
        before = anna.evaluate("() => document.activeElement.value")
        anna.keyboard.type("7")
        now = anna.evaluate("() => document.activeElement.value")
        assert len(now) == len(before) + 1 and "7" in now, (before, now)


def test_astral_action_damage_typed_before_anothers_hit_is_applied_whole_and_only_its_box_empties(live_server, phone):
    """The issue's own case: 3 typed in Raven's damage box, another phone damages Raven, then Apply: the
    3 is applied (not refused as an empty amount); the box it went with empties, the order chosen in the
    same card stays (it did not go with Apply)."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Hold fast", ("Player 1", "Player 2"))
    name, _ = astral_action(Api(anna, live_server))
    ben.reload()
    uid = uid_of(anna, name)
    card = open_card(anna, name, exact=True)
    card.get_by_label("order for Raven", exact=True).select_option("Jump to Hyperspace")
    box = card.get_by_label("damage to Raven")
    box.fill("3")
    tap(ben, live_server, type="aa-damage", unit=uid, amount="2")
    expect(anna.locator(f"#u-{uid} .aa-track i.x")).to_have_count(2, timeout=SYNC)
    expect(box).to_have_value("3")
    card.get_by_role("button", name="Apply damage").click()
    expect(anna.locator(f"#u-{uid} .aa-track i.x")).to_have_count(5, timeout=SYNC)
    expect(anna.locator("[id$='-err'] .err-text")).to_have_count(0)
    expect(card.get_by_label("damage to Raven")).to_have_value("")
    expect(card.get_by_label("order for Raven", exact=True)).to_have_value("Jump to Hyperspace")
