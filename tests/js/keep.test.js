// What a redraw keeps of what the player typed (static/js/keep.js), with fields as plain objects shaped
// like the page's (type, name, value, defaultValue, checked, options ...).
import assert from "node:assert/strict";
import {test} from "node:test";
import {changed, giveBack, held, keep, keys, put, putBack, typed} from "../../static/js/keep.js";

const form = (id) => ({id});
function field(props) {
  const attrs = props.attrs || {};
  return {type: "text", name: "x", value: "", defaultValue: "", tagName: "INPUT", form: null, closest: () => null,
          getAttribute: (a) => attrs[a] ?? null, ...props};
}
const select = (value, values, chosen) => field({type: "select-one", tagName: "SELECT", value, ...props(values, chosen)});
function props(values, chosen) {
  return {options: values.map((v) => ({value: v, selected: v === chosen, defaultSelected: v === values[0]}))};
}

test("only fields a player holds: not hidden ones, buttons or files", () => {
  assert.deepEqual(["text", "number", "checkbox", "select-one", "hidden", "submit", "file"].map((type) => held({type})),
                   [true, true, true, true, false, false, false]);
});

test("a field is kept only when the player changed it from what was drawn", () => {
  assert.equal(changed(field({value: "3", defaultValue: "3"})), false);
  assert.equal(changed(field({value: "4", defaultValue: "3"})), true);
  assert.equal(changed(field({type: "checkbox", checked: true, defaultChecked: false})), true);
  assert.equal(changed(field({type: "checkbox", checked: false, defaultChecked: false})), false);
  assert.equal(changed(select("a", ["a", "b"], "a")), false);
  assert.equal(changed(select("b", ["a", "b"], "b")), true);
});

test("keys find the same field again: form, name, label, a tick's value, the n-th of equals", () => {
  const f = form("unit-u1");
  const fields = [field({form: f, name: "dice"}), field({form: f, name: "dice"}),
                  field({form: f, name: "hit", attrs: {"aria-label": "Hull"}}),
                  field({form: null, closest: () => form("card-u2"), name: "note", attrs: {placeholder: "why"}}),
                  field({form: f, type: "radio", name: "arc", value: "fore"})];
  assert.deepEqual(keys(fields), ["unit-u1|dice|#1", "unit-u1|dice|#2", "unit-u1|hit|Hull#1", "card-u2|note|why#1",
                                  "unit-u1|arc||fore#1"]);
});

test("what was typed goes back into the part drawn again; untouched fields take the new board's value", () => {
  const f = form("unit-u1");
  const before = [field({form: f, name: "hull", value: "5", defaultValue: "3"}), field({form: f, name: "speed", value: "4", defaultValue: "4"}),
                  field({form: f, type: "checkbox", name: "crippled", value: "1", checked: true, defaultChecked: false})];
  const kept = typed(before, keys(before));
  assert.deepEqual(kept, {"unit-u1|hull|#1": "5", "unit-u1|crippled||1#1": true});
  const after = [field({form: f, name: "hull", value: "2", defaultValue: "2"}), field({form: f, name: "speed", value: "6", defaultValue: "6"}),
                 field({form: f, type: "checkbox", name: "crippled", value: "1", checked: false, defaultChecked: false})];
  giveBack(after, keys(after), kept);
  assert.deepEqual(after.map((x) => x.type === "checkbox" ? x.checked : x.value), ["5", "6", true]);
});

test("the fields sent with this phone's own accepted tap are not kept: its answer shows what they did", () => {
  const f = form("unit-u1"), hit = field({form: f, name: "hit", value: "3"}), note = field({form: f, name: "note", value: "x"});
  assert.deepEqual(typed([hit, note], keys([hit, note]), [hit]), {"unit-u1|note|#1": "x"});
});

test("a select takes a kept value back only if it still offers it", () => {
  const sel = select("u1", ["u1", "u2"], "u1");
  put(sel, "u3");
  assert.equal(sel.value, "u1");
  put(sel, "u2");
  assert.equal(sel.value, "u2");
});

test("the helpers' refresh keeps their forms' fields by form and name, not hidden ones or form-less ones", () => {
  const f = form("df-shot");
  const fields = [field({form: f, name: "dice", value: "4 5"}), field({form: f, type: "hidden", name: "csrf_token", value: "t"}),
                  field({form: null, name: "loose", value: "y"}), field({form: f, type: "checkbox", name: "marked", value: "1", checked: true})];
  const kept = keep(fields);
  assert.deepEqual(kept, {"df-shot|dice": "4 5", "df-shot|marked|1": true});
  const fresh = [field({form: f, name: "dice", value: ""}), field({form: f, type: "checkbox", name: "marked", value: "1", checked: false})];
  putBack(fresh, kept);
  assert.deepEqual([fresh[0].value, fresh[1].checked], ["4 5", true]);
});
