"""No control that can never work (issue 43): for every game, at a fresh table and at each of its
openings (tests/property_data) and busy moments (tests/test_random_play.py), every control both
phones are offered that posts an action is sent as a browser sends it (tests/html_forms.py: the
fields as drawn, then with every empty field filled in) and read as the server reads it: the form
parser (``play.form_args``), the action's type, its declared fields (``schema.check``).  A rule's
refusal ("not your turn") depends on the table and is fine; a request the parser cannot read is
refused in every state, so the control can never work:

- a name sent both as a value and as a group of fields (``card`` and ``card.type``);
- an action type this game does not have;
- a declared field that is required and that the form never sends;
- a value the control itself chose (a select's option, a hidden field, its button) that the
  declaration refuses.
"""
from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from companion import actions, schema
from companion.errors import RuleError
from companion.play import form_args
from html_forms import controls, default, thorough
from random_play import SYSTEMS, Table
from test_random_play import MOMENTS, openings

ACTION_URLS = ("/act", "/take-back")


def chosen_not_typed(control, name: str) -> bool:
    """Whether the value of ``name`` was chosen by the control (a select, a hidden field, the button's
    own ``do``), not typed by the player (whose typo is the player's)."""
    fields = control.form.fields if control.form else [control.button]
    top = {f.name.split(".")[0]: f for f in fields if f.name and f.name != "do"}
    f = top.get(name)
    if f is None:  # not a field of the form: the button's do holds it
        return True
    return f.tag == "select" or f.type == "hidden"


def problems_of(control, system: str) -> list[str]:
    out = []
    for fill in (default, thorough):
        sent = control.fields(fill)
        try:
            args = form_args(MultiDict(sent))
        except RuleError as exc:
            out.append(f"{exc.message} <- {sent}")
            continue
        kind = args.get("type")
        if not isinstance(kind, str):
            out.append(f"no action type <- {sent}")
            continue
        try:
            entry = actions.lookup(kind, system)
        except RuleError as exc:
            out.append(f"{exc.message} <- {sent}")
            continue
        try:
            schema.check(entry.fields or {}, args)
        except RuleError as exc:
            if exc.message.endswith(" is required.") or chosen_not_typed(control, exc.field or ""):
                out.append(f"{exc.message} <- {sent}")
    return out


def moments(system: str) -> list:
    return openings(system) + [MOMENTS[system]]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_control_sends_what_the_server_can_read(app, system):
    seen: dict[tuple, str] = {}
    found: list[str] = []
    for opening in moments(system):
        table = Table(app, system, None, opening)
        table.db.close()
        for who in sorted(table.phones):
            for control in table.offered(who):
                if not control.url.endswith(ACTION_URLS):
                    continue
                key = (control.form.id if control.form else "", control.button.attrs.get("value"), control.label)
                if key in seen:
                    continue
                seen[key] = control.label
                found += [f"{control.label!r} ({key[0]}) at {(opening or {}).get('for', 'a fresh table')}: {p}"
                          for p in problems_of(control, system)]
    assert len(seen) >= 10, f"only {len(seen)} controls read: the pages are not what the check thinks"
    assert not found, "controls that can never work:\n" + "\n".join(found[:20])


def test_the_check_finds_a_field_sent_as_a_value_and_as_a_group():
    """The check reads what the old Dreadfleet card sent with its × (issue 43, defect 2)."""
    page = ('<form id="unit-u1" method="post" action="/t/ABC/act" hx-post="/t/ABC/act">'
            '<input type="hidden" name="csrf_token" value="x"><input name="card.name">'
            '<select name="card.type"><option>Hull</option></select>'
            '<button name="do" value="deck-move deck=damage card=c1 to=discard">×</button></form>')
    (press,) = controls(page)
    assert any("sent both as a value and as a group" in p for p in problems_of(press, "dreadfleet"))
