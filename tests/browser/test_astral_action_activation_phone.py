"""Astral Action on a phone at 390x844, for issue 24: the ship activating is named on the board and
only it shows "Attack" (seed 004 L75, L141); the attack form takes the measured distance and the
band follows from the weapon's ranges (L151-L152, L161-L162); the AWS row on the activating ship's
card deals d6 to a Fighter within Size x 2 (L189); a lucky ship's Condition reroll (L369)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from phone_checks import assert_fits_a_phone, shots, two_players
from test_astral_action_phone_rows import act, attack_link, code_of, csrf, row

pytestmark = pytest.mark.browser

SYNC = 5000
SHOTS = shots("astral-action")
FLEET = [  # (side, name, size, equipment, carrier)
    ("Player 1", "Guard", 2, [("primary", "kinetic", "F"), ("primary", "aws", "")], ""),
    ("Player 2", "Mother", 3, [("primary", "kinetic", "F"), ("primary", "launch", "")], ""),
    ("Player 2", "Wasp", 0, [("primary", "kinetic", "F")], "u2"),
    ("Player 1", "Shade", 3, [("primary", "beam", "F")], "hidden"),  # Stealth: its card sealed (L359)
]


def build(page, base):
    code, token = code_of(page), csrf(page)
    for side, name, size, kit, carrier in FLEET:
        form = {"csrf_token": token, "_control": "aa-designer", "name": name, "size": str(size),
                "chart.miss": "2", "chart.glance": "4", "movement": "2:3/2 3:2/1", "weapon_size": "1" if not size else ""}
        for n, (slot, item, arcs) in enumerate(kit):
            form.update({f"eq.{n}.slot": slot, f"eq.{n}.item": item, **({f"eq.{n}.arcs": arcs} if arcs else {})})
        resp = page.request.post(f"{base}/t/{code}/astral-action/cards", form=form)
        assert resp.ok, resp.text()
        item = re.search(r'id="aa-card-(\d+)"[^>]*>\s*<input[^>]*>\s*<input[^>]*>\s*<p><b>' + name + "<",
                         resp.text()).group(1)
        launch = {"csrf_token": token, "side": side, "_control": f"aa-card-{item}"}
        launch.update({"hidden": "1"} if carrier == "hidden" else {"carrier": carrier})
        resp = page.request.post(f"{base}/t/{code}/astral-action/cards/{item}/launch", form=launch)
        assert resp.ok, resp.text()


def test_activation_distance_aws_and_lucky_reroll_on_a_phone(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Astral skirmish", ("Player 1", "Player 2"))
    build(anna, live_server)
    act(anna, live_server, type="next-phase")
    act(ben, live_server, type="aa-activate", unit="u3")  # the fighter: Size 0 first
    for page in (anna, ben):
        page.reload()
    expect(anna.locator("#aa-current")).to_contain_text("Wasp is activating")
    expect(attack_link(anna, "Guard")).to_have_count(0)  # not Guard's activation (L75)
    guard = row(anna, "Guard")
    guard.locator("summary.rowline").click()
    guard.get_by_role("button", name="Activate Guard").click()
    expect(anna.locator("#aa-current")).to_contain_text("Guard is activating")

    # the hidden Shade: Ben's phone shows a contact with its Size, never the card's name (Stealth, L359-L360)
    contact = row(ben, "Contact 4")
    contact.locator("summary.rowline").click()
    expect(contact).to_contain_text("Hidden ship Size 3")
    contact.screenshot(path=str(SHOTS / "stealth-contact.png"))
    assert "Shade" not in re.sub(r"<select\b.*?</select>|<datalist\b.*?</datalist>", "", ben.content(), flags=re.S) \
        .split('id="aa-ships"')[0]
    contact.locator("summary.rowline").click()

    # the AWS on Guard's card: 5 is beyond Size x 2 = 4, the sentence beside it; then 4 and a real d6
    aws = guard.locator(".aa-aws")
    aws.locator("input[name=distance]").fill("5")
    aws.locator("input[name=dice]").fill("5")
    aws.get_by_role("button", name="Use AWS").click()
    expect(anna.locator(f"#aa-aws-u1-err")).to_contain_text("5 is beyond Guard's AWS: Size x 2 = 4.")
    row(anna, "Guard").screenshot(path=str(SHOTS / "aws-refused.png"))
    aws = row(anna, "Guard").locator(".aa-aws")
    aws.locator("input[name=distance]").fill("4")
    aws.locator("input[name=dice]").fill("5")
    aws.get_by_role("button", name="Use AWS").click()
    expect(row(anna, "Wasp").locator(".rnums")).to_contain_text("Health 1/6")
    expect(row(ben, "Wasp").locator(".rnums")).to_contain_text("Health 1/6", timeout=SYNC)

    # the attack form: Attack on Guard's row, the target, the measured distance 14: Extended 1 (L162)
    row(anna, "Guard").locator("summary.rowline").click()
    attack_link(anna, "Guard").click()
    form = anna.locator("#aa-attack")
    form.locator("select[name=target]").select_option(label="Mother (Player 2)")
    form.locator("input[name=distance]").fill("30")
    form.locator("input[name=dice]").fill("6 6")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(anna.locator("#aa-attack-err")).to_contain_text("Primary Kinetic F reaches 18: 30 is out of range.")
    form.locator("input[name=distance]").fill("14")
    expect(anna.locator("#aa-odds")).to_contain_text("Range 18 (extended 1)")
    anna.locator("#aa-attack-card").screenshot(path=str(SHOTS / "attack-distance.png"))
    form.locator("input[name=dice]").fill("6 6")
    form.get_by_role("button", name="Attack", exact=True).click()
    # 6 + (3 - 2) - 1 (Extended 1, L152) = 6: hit; damage 6 + (2 - 3) = 5 (L86-L88)
    expect(anna.locator("#result [data-aa-sheet]")).to_have_text("HIT · 5 damage")
    anna.locator("#result").get_by_role("button", name=re.compile("Apply 5 damage")).click()
    expect(row(ben, "Mother").locator(".rnums")).to_contain_text("Health 25/30", timeout=SYNC)

    # a lucky Mother: its Condition roll comes with a reroll
    act(ben, live_server, type="aa-lucky", unit="u2", lucky="1")
    act(ben, live_server, type="aa-damage", unit="u2", amount="5")
    act(ben, live_server, type="aa-condition", unit="u2", dice="1 1")
    ben.reload()
    mother = row(ben, "Mother")
    mother.locator("summary.rowline").click()
    expect(mother).to_contain_text("2: Catastrophic Damage")
    mother.locator(".aa-determined input[name=dice]").fill("3 4")
    mother.get_by_role("button", name="Reroll (lucky ship)").click()
    expect(row(ben, "Mother")).to_contain_text("7: Serious Damage")
    expect(row(ben, "Mother").get_by_role("button", name="Reroll (lucky ship)")).to_have_count(0)  # once a roll
    row(ben, "Mother").locator(".aa-determined").scroll_into_view_if_needed()
    ben.screenshot(path=str(SHOTS / "lucky-reroll.png"))
    assert_fits_a_phone(anna)
    assert_fits_a_phone(ben)
