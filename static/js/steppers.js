// Steppers (issue 28 §6): an input[data-stepper] gets − and + buttons; it stays a plain field, sent as
// typed. A tap writes the next number (step.js) and fires input/change, as typing does.
import {all, fire, on} from "./dom.js";
import {stepped} from "./step.js";
import {word} from "./words.js";

export function install() {
  let ids = 0;
  function steppers() {
    for (const input of all("input[data-stepper]:not([data-stepped])")) {
      input.setAttribute("data-stepped", "");
      // a label around the stepper would otherwise lend its taps to the − button (its first control)
      const around = input.closest("label"), label = input.getAttribute("aria-label") || input.name;
      if (around && !around.htmlFor) around.htmlFor = input.id ||= "stepper-" + (++ids);
      const wrap = document.createElement("span");
      wrap.className = "stepper";
      input.before(wrap);
      for (const [text, d, says] of [["\u2212", -1, word("one less")], [], ["+", 1, word("one more")]]) {
        if (!text) { wrap.append(input); continue; }
        const btn = document.createElement("button");
        btn.type = "button"; btn.textContent = text; btn.dataset.step = d;
        btn.setAttribute("aria-label", label + ": " + says);
        wrap.append(btn);
      }
    }
  }
  on("click", (e) => {
    const btn = e.target.closest?.(".stepper button[data-step]"), input = btn?.parentNode.querySelector("input");
    if (!input) return;
    input.value = stepped({...input.dataset, value: input.value, placeholder: input.getAttribute("placeholder")}, +btn.dataset.step);
    fire(input, "input");
    fire(input, "change");
  });
  on("DOMContentLoaded", steppers);
  on("htmx:afterSettle", steppers);
}
