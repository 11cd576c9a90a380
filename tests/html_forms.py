"""What a browser (with htmx and static/js) sends from a page's controls (issue 43).

``controls(page)`` reads a page's forms and lists every control a player can press that posts: a
submit button of a form (or one placed elsewhere with ``form="..."``), or an htmx button that posts
with its form's fields (``hx-post``).  ``Control.fields(fill)`` is what the browser sends when it is
pressed: every named, enabled field the form owns, in tree order (a checkbox only when ticked, a
select's chosen option, the pressed button's own name and value, no other button), then ``hx-vals``.
``fill(field)`` chooses each field's value (``plausible`` is a curious player's choice).  Only what
the page's script does to a form before it is sent is mirrored (static/js: a ``select[data-units]``
lists the board's units, a tracker form's fields of another kind are disabled); the browser's own
constraint checks are kept (a required field is filled, a number stays within min..max).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser

SUBMITS = ("submit", "image")


@dataclass
class Field:
    tag: str
    attrs: dict
    options: list = field(default_factory=list)  # a select's [(value, text, attrs)]
    text: str = ""  # a textarea's

    @property
    def name(self) -> str:
        return self.attrs.get("name") or ""

    @property
    def type(self) -> str:
        return (self.attrs.get("type") or ("submit" if self.tag == "button" else "text")).lower()


@dataclass
class Form:
    id: str
    attrs: dict
    fields: list = field(default_factory=list)  # every field it owns, buttons too, in tree order

    @property
    def url(self) -> str:
        return self.attrs.get("hx-post") or self.attrs.get("action") or ""


@dataclass
class Control:
    form: Form | None
    button: Field
    label: str

    @property
    def url(self) -> str:
        a = self.button.attrs
        return a.get("hx-post") or a.get("formaction") or (self.form.url if self.form else "")

    @property
    def htmx(self) -> bool:
        return "hx-post" in self.button.attrs or (self.form is not None and "hx-post" in self.form.attrs)

    def fields(self, fill) -> list[tuple[str, str]]:
        """The form data a browser sends when this control is pressed, each field's value chosen by
        ``fill(field)`` (None: the field is left out, as an unticked checkbox)."""
        sent = []
        for f in self.form.fields if self.form else [self.button]:
            if not f.name or "disabled" in f.attrs:
                continue
            if f.tag == "button" or f.type in SUBMITS + ("button", "reset"):
                if f is self.button:
                    sent.append((f.name, f.attrs.get("value", "")))
                continue
            if f.type == "file":
                continue
            value = fill(f)
            if value is not None:
                sent.append((f.name, value))
        if self.form is None and self.button.name and self.button.type not in SUBMITS:
            sent.append((self.button.name, self.button.attrs.get("value", "")))
        vals = self.button.attrs.get("hx-vals") or (self.form.attrs.get("hx-vals") if self.form else None)
        if vals:
            extra = json.loads(vals)
            sent = [(k, v) for k, v in sent if k not in extra] + [(k, str(v)) for k, v in extra.items()]
        return sent


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: dict[str, Form] = {}
        self.order: list[tuple[str | None, Field]] = []  # (owner form id, field) in tree order
        self.open_forms: list[str] = []
        self.select: Field | None = None
        self.option: list | None = None
        self.textarea: Field | None = None
        self.button: list | None = None  # [field, text]
        self.kinds: list[tuple[str, int]] = []  # data-kinds of the elements open (tag, depth)
        self.depth = 0
        self.n = 0

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag not in ("input", "br", "img", "meta", "link", "option", "hr", "source", "wbr"):
            self.depth += 1
            if "data-kinds" in a:
                self.kinds.append((a["data-kinds"], self.depth))
        if tag == "form":
            self.n += 1
            fid = a.get("id") or f"form-{self.n}"
            self.forms[fid] = Form(fid, a)
            self.open_forms.append(fid)
            return
        if tag == "option" and self.select is not None:
            self.option = [a.get("value"), "", a]
            self.select.options.append(self.option)
            return
        if tag not in ("input", "select", "textarea", "button"):
            return
        if self.kinds and "data-kinds" not in a:
            a["data-kinds"] = self.kinds[-1][0]  # static/js/forms.js disables a field of another kind
        f = Field(tag, a)
        owner = a.get("form") or (self.open_forms[-1] if self.open_forms else None)
        self.order.append((owner, f))
        if tag == "select":
            self.select = f
        elif tag == "textarea":
            self.textarea = f
        elif tag == "button":
            self.button = [f, ""]

    def handle_data(self, data):
        if self.option is not None:
            self.option[1] += data
        if self.textarea is not None:
            self.textarea.text += data
        if self.button is not None:
            self.button[1] += data

    def handle_endtag(self, tag):
        if tag not in ("input", "br", "img", "meta", "link", "option", "hr", "source", "wbr"):
            if self.kinds and self.kinds[-1][1] == self.depth:
                self.kinds.pop()
            self.depth -= 1
        if tag == "form" and self.open_forms:
            self.open_forms.pop()
        elif tag == "select":
            self.select = None
        elif tag == "option":
            self.option = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "button" and self.button is not None:
            self.button[0].attrs["_text"] = " ".join(self.button[1].split())
            self.button = None


def _options(select: Field) -> list[tuple[str, str, dict]]:
    return [((o[0] if o[0] is not None else o[1].strip()), o[1].strip(), o[2]) for o in select.options]


def parse(page: str) -> tuple[dict[str, Form], list[tuple[str | None, Field]]]:
    p = _Parser()
    p.feed(page)
    p.close()
    units = next((f for _, f in p.order if f.attrs.get("id") == "unit-options"), None)
    for owner, f in p.order:
        form = p.forms.get(owner) if owner else None
        if form is not None:
            form.fields.append(f)
        if f.tag == "select" and "data-units" in f.attrs and units is not None:
            _sync_units(f, units)
    for form in p.forms.values():
        if "data-kind-form" in form.attrs:
            kind = next((f for f in form.fields if f.name == "spec.kind"), None)
            form.attrs["_kind_field"] = kind
    return p.forms, p.order


def _sync_units(select: Field, source: Field) -> None:
    """static/js/units.js syncUnits: the fixed options, then the board's units (of a side, or not of one)."""
    fixed = [o for o in select.options if "data-unit" not in o[2]]
    want, prefix = select.attrs.get("data-units", ""), select.attrs.get("data-unit-value", "")
    copies = []
    for value, text, attrs in _options(source):
        side = attrs.get("data-side", "")
        if want and not want.startswith("!") and want != side:
            continue
        if want.startswith("!") and want[1:] == side:
            continue
        copies.append([prefix + value, text, {"data-unit": "", "data-side": side}])
    select.options = fixed + copies


def controls(page: str) -> list[Control]:
    """Every control of the page that posts: a form's submit buttons, an htmx button that posts."""
    forms, order = parse(page)
    out = []
    for owner, f in order:
        form = forms.get(owner) if owner else None
        if f.tag == "button" or (f.tag == "input" and f.type in SUBMITS):
            if "disabled" in f.attrs:
                continue
            if f.type in SUBMITS and form is not None and (form.url or f.attrs.get("formaction")):
                out.append(Control(form, f, f.attrs.get("_text") or f.attrs.get("value", "")))
            elif "hx-post" in f.attrs:  # a type="button" that posts itself (with its form's fields)
                out.append(Control(form, f, f.attrs.get("_text", "")))
    return out


def kind_disabled(control: Control, f: Field, chosen: dict) -> bool:
    """A tracker form's field for another kind than the one chosen (static/js/forms.js kindFields)."""
    kinds = f.attrs.get("data-kinds")
    if not kinds or control.form is None or "data-kind-form" not in control.form.attrs:
        return False
    return chosen.get("spec.kind") not in kinds.split()


def default(f: Field) -> str | None:
    """What the field holds as drawn (what a player who changes nothing sends)."""
    if f.tag == "select":
        options = [o for o in _options(f) if "disabled" not in o[2]]
        chosen = [o for o in options if "selected" in o[2]] or options[:1]
        return chosen[0][0] if chosen else None
    if f.tag == "textarea":
        return f.text.lstrip("\n")
    if f.type in ("checkbox", "radio"):
        return (f.attrs.get("value") or "on") if "checked" in f.attrs else None
    return f.attrs.get("value", "")


def plausible(pick):
    """A curious player's choice for each field: ``pick(options)`` chooses; what the browser would
    refuse to send (a required field empty, a number outside min..max, text past maxlength) is not
    chosen.  Radios of one name: the first one filled is ticked, the others left out."""
    radios: set[str] = set()

    def fill(f: Field) -> str | None:
        if f.type == "hidden":
            return f.attrs.get("value", "")
        if f.tag == "select":
            options = [o[0] for o in _options(f) if "disabled" not in o[2]]
            return pick([default(f)] * 2 + options) if options else None
        if f.type == "checkbox":
            return pick([default(f), None, f.attrs.get("value") or "on"])
        if f.type == "radio":
            if f.name in radios or not pick([True, False]):
                return None
            radios.add(f.name)
            return f.attrs.get("value") or "on"
        now = default(f) or ""
        lo, hi = _bounds(f)
        if lo is not None or hi is not None or "num" in f.attrs.get("class", "").split() \
                or f.attrs.get("inputmode") == "numeric" or f.type == "number":
            lo = 0 if lo is None else lo
            hi = max(lo, 6 if hi is None else hi)
            choices = [now, str(lo), str(hi), str((lo + hi) // 2), ""]
        else:
            choices = [now, now, "", "2", "5 3", "Brace for impact"]
        if "required" in f.attrs:
            choices = [c for c in choices if c] or ["1"]
        value = pick(choices)
        if value and f.attrs.get("maxlength", "").isdigit():
            value = value[:int(f.attrs["maxlength"])]
        return value
    return fill


def _bounds(f: Field) -> tuple[int | None, int | None]:
    def num(key):
        v = f.attrs.get(key)
        try:
            return int(v) if v not in (None, "") else None
        except ValueError:
            return None
    lo = num("min") if num("min") is not None else num("data-min")
    hi = num("max") if num("max") is not None else num("data-max")
    return lo, hi


def sent_by(control: Control, fill) -> list[tuple[str, str]]:
    """The form data of a press, the kind-form's hidden fields disabled as static/js/forms.js does."""
    chosen: dict = {}

    def fill_kind(f: Field):
        if kind_disabled(control, f, chosen):
            return None
        value = fill(f)
        if value is not None:
            chosen.setdefault(f.name, value)
        return value
    return control.fields(fill_kind)


def thorough(f: Field) -> str | None:
    """A player who fills in what a control asks for: every field as drawn, an empty one with a
    word or a number (a sealed order's text, a die), every box as drawn."""
    if f.type == "hidden" or f.tag == "select" or f.type in ("checkbox", "radio"):
        return default(f) if f.type != "hidden" else f.attrs.get("value", "")
    now = default(f) or ""
    if now:
        return now
    lo, _ = _bounds(f)
    numeric = lo is not None or "num" in f.attrs.get("class", "").split() or f.attrs.get("inputmode") == "numeric"
    return str(max(lo or 0, 3)) if numeric else "Brace"
