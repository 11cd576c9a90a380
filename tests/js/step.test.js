// A stepper's next number (static/js/step.js).
import assert from "node:assert/strict";
import {test} from "node:test";
import {stepped} from "../../static/js/step.js";

test("a typed number steps by one, within data-min..data-max", () => {
  assert.equal(stepped({value: "3", min: "0", max: "4"}, 1), "4");
  assert.equal(stepped({value: "4", min: "0", max: "4"}, 1), "4");
  assert.equal(stepped({value: "0", min: "0"}, -1), "0");
  assert.equal(stepped({value: "+2"}, 1), "3");  // a modifier as typed, "+2"
  assert.equal(stepped({value: " 5 "}, -1), "4");
});

test("an empty field steps from its placeholder, its data-start, else 0; never from its lowest", () => {
  assert.equal(stepped({value: "", placeholder: "+3"}, 1), "4");
  assert.equal(stepped({value: "", placeholder: null, start: "6", min: "1", max: "6"}, -1), "5");
  assert.equal(stepped({value: "", placeholder: null, min: "-10", max: "10"}, 1), "1");  // issue 40 §5: not -9
  assert.equal(stepped({value: "", placeholder: null, min: "1", max: "6"}, 1), "1");  // Armour: 0 + 1, kept in 1..6
  assert.equal(stepped({value: "", placeholder: "d6"}, 1), "1");  // a placeholder that is no number
});
