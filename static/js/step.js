// A stepper's next number (issue 28 §6). Pure: tests/js/step.test.js.
const num = (s) => parseInt(String(s).replace(/[+\s]/g, ""), 10);
// One lower or higher (d) within data-min..data-max. An empty field steps from what it shows (its
// placeholder), else its usual value (data-start), else 0; not from its lowest (issue 40 §5: + on an
// empty Miss field gave -10; Armour, 1 to 6, gives 1).
export function stepped({value, placeholder, start, min, max}, d) {
  let now = num(value);
  if (isNaN(now)) now = num(placeholder || "");
  if (isNaN(now) && start !== undefined) now = parseInt(start, 10);
  if (isNaN(now)) now = 0;
  return String(Math.min(max === undefined ? Infinity : +max, Math.max(min === undefined ? -Infinity : +min, now + d)));
}
