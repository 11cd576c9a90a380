"""Every field a board form sends is one its action declares (issue 29): the declared schema is the
one reader of a request, so a form input it does not name would be read by nobody (or by a game's
own parser behind the schema's back).  Each system's board (every card open) and its tool pages are
drawn with a unit or two; for each <form> that posts to /t/<code>/act, its action types (a hidden
``type``, a ``type`` select's options, each button's ``do``) and the names it sends (its own inputs
and any input outside it with ``form="<its id>"``) are collected, and every name must be declared
by one of the form's types (a form with several buttons sends all of its inputs with each)."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from companion import actions
from companion.play import CORE_FORM_FIELDS, FORM_ONLY_FIELDS, parse_do


class Forms(HTMLParser):
    """The forms of a page that post to /act: {id: {"types": set, "names": set}}."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: dict[str, dict] = {}
        self.stack: list[str] = []  # the id of the form being read (forms do not nest)
        self.outside: list[tuple[str, str, dict]] = []  # (form id, tag, attrs) of inputs with form=
        self.select: tuple[str, str] | None = None  # (form id, name) of an open <select>
        self.n = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.n += 1
            fid = a.get("id") or f"form-{self.n}"
            self.stack.append(fid)
            if (a.get("action") or a.get("hx-post") or "").endswith("/act"):
                self.forms.setdefault(fid, {"types": set(), "names": set()})
            return
        if tag not in ("input", "select", "textarea", "button", "option"):
            return
        if tag == "option":
            if self.select and self.select[1] == "type" and self.select[0] in self.forms:
                self.forms[self.select[0]]["types"].add(a.get("value"))
            return
        fid = a.get("form") or (self.stack[-1] if self.stack else None)
        if tag == "select":
            self.select = (fid, a.get("name"))
        if fid is not None and a.get("name"):
            self.outside.append((fid, tag, a))

    def handle_endtag(self, tag):
        if tag == "form" and self.stack:
            self.stack.pop()
        if tag == "select":
            self.select = None

    def close(self):
        super().close()
        for fid, tag, a in self.outside:
            form = self.forms.get(fid)
            if form is None:
                continue
            name, value = a["name"], a.get("value") or ""
            if name == "do":
                sent = parse_do(value)
                if sent.get("type"):
                    form["types"].add(sent.pop("type"))
                form["names"] |= set(sent)
            elif name == "type":
                if value:
                    form["types"].add(value)
            else:
                form["names"].add(name.split(".")[0])
        return self.forms


def forms_of(*pages: str) -> dict:
    found: dict = {}
    for page in pages:
        parser = Forms()
        parser.feed(page)
        for fid, form in parser.close().items():
            both = found.setdefault(fid, {"types": set(), "names": set()})
            both["types"] |= form["types"]
            both["names"] |= form["names"]
    return found


# Inputs a board form holds for a button that posts elsewhere (``formaction``): the /act buttons of
# the same form send them too, and no action reads them.  Known, listed here so a new one is seen.
ELSEWHERE = {"class_name"}  # Talon's "Save as a class" (talon.save_class), in the ship card's form


def undeclared(forms: dict) -> list[str]:
    """Each form field no type of its form declares, as "form: field (types)"."""
    actions._load_all()
    out = []
    for fid, form in sorted(forms.items()):
        types = {t for t in form["types"] if t}
        unknown = [t for t in types if t not in actions.REGISTRY]
        assert not unknown, f"{fid} posts unknown action types {unknown}"
        declared = set(CORE_FORM_FIELDS) | ELSEWHERE
        for t in types:
            declared |= set(actions.REGISTRY[t].fields or {}) | FORM_ONLY_FIELDS.get(t, set())
        out += [f"{fid}: {name} ({', '.join(sorted(types)) or 'no type'})"
                for name in sorted(form["names"] - declared)]
    return out


def pages(table) -> list[str]:
    get = table.client.get
    out = [get(f"/t/{table.code}?open=*").get_data(as_text=True)]
    out += [get(f"/t/{table.code}/tools/{part}").get_data(as_text=True) for part in ("add", "rosters", "game")]
    return out


def freeform(app, table):
    table.create(seat="Anna", side="Side A")
    table.act(type="add-unit", name="Victory", side="Side A", **{"stats.hp": "10"})
    table.act(type="add-tracker", unit="u1", **{"spec.kind": "boxes", "spec.label": "Hull", "spec.count": "4"})


def dreadnaught(app, table):
    table.create(system="dreadnaught", sides="Anna, Ben", side="Anna")
    assert table.act(do="dn-setup").status_code == 200


def talon(app, table):
    table.create(system="talon", name="War", side="Terran")
    for cls, name in (("terran-ca", "Zhukov"), ("talon-ca", "Justice")):
        assert table.act(do="talon-ship", cls=cls, name=name).status_code == 200


def empires_of_dust(app, table):
    from test_empires_of_dust_actions import GHOST, Game
    game = Game(app, table).create()
    game.deploy("Fleet 1", GHOST)
    game.average("Fleet 2")


def dreadfleet(app, table):
    from test_dreadfleet_actions import Game
    game = Game(app, table).create()
    game.warship("Seadrake")


def astral_action(app, table):
    from test_astral_action_actions import Astral
    Astral(app, table).ship("Lance", 2)


@pytest.mark.parametrize("setup", [freeform, dreadnaught, talon, empires_of_dust, dreadfleet, astral_action],
                         ids=lambda f: f.__name__)
def test_every_form_field_is_declared_by_its_action(app, table, setup):
    setup(app, table)
    forms = forms_of(*pages(table))
    assert len(forms) >= 3  # the board's own forms at least: the check reads real pages
    assert not undeclared(forms), "form fields no action of their form declares:\n" + "\n".join(undeclared(forms))


def test_the_check_finds_a_field_the_action_does_not_declare():
    page = ('<form id="f" method="post" action="/t/ABC/act"><input type="hidden" name="csrf_token" value="x">'
            '<input name="amount"><button name="do" value="dn-damage ship=u1">Hit</button></form>'
            '<input name="sneaky" form="f"><input name="elsewhere">')
    assert undeclared(forms_of(page)) == ["f: sneaky (dn-damage)"]
