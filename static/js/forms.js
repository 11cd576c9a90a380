// Forms that fill in or show their own fields as the player chooses.
import {all, byId, one, on} from "./dom.js";

// A pick that fills a form's fields (select[data-fills]: each option's data-fill, {"field": value}), e.g.
// a card from a loaded deck list: the fields stay typed-in ones, sent as before (issue 40 §10).
function fill(sel) {
  const json = sel.options[sel.selectedIndex]?.dataset.fill;
  for (const [name, v] of Object.entries(json ? JSON.parse(json) : {})) {
    const f = [...sel.form.elements].find((x) => x.name === name);
    if (f?.type === "checkbox") f.checked = !!v;
    else if (f && (f.tagName !== "SELECT" || [...f.options].some((o) => (o.value || o.text) === String(v)))) f.value = String(v);
  }
}
// New table: "Your side" offers the chosen game's sides, or the sides typed in the field above it.
function sideChoices() {
  const sel = one("select[data-sides-of]"), form = sel && byId(sel.dataset.sidesOf);
  if (!sel) return;
  sel._all ||= all("option[data-system]", sel).map((o) => ({system: o.dataset.system, value: o.value}));
  const system = one("select[name=system]", form).value, chosen = sel.value;
  const typed = one("input[name=sides]", form).value.split(",").map((x) => x.trim()).filter(Boolean);
  const sides = typed.length ? typed : sel._all.filter((o) => o.system === system).map((o) => o.value);
  while (sel.options.length > 1) sel.remove(1);
  for (const side of sides) sel.appendChild(new Option(side, side));
  sel.value = sides.includes(chosen) ? chosen : "";
}
// The tracker form shows (and sends) only the chosen kind's fields.
function kindFields() {
  for (const form of all("form[data-kind-form]")) {
    const kind = one("select[name='spec.kind']", form).value;
    for (const el of all("[data-kinds]", form)) {
      const shown = el.dataset.kinds.split(" ").includes(kind);
      el.hidden = !shown;
      for (const i of el.matches("input") ? [el] : all("input", el)) i.disabled = !shown;
    }
  }
}

export function install() {
  on("change", (e) => { if (e.target.matches?.("select[data-fills]") && e.target.form) fill(e.target); });
  on("DOMContentLoaded", sideChoices);
  on("input", (e) => { if (e.target.closest("#new-table") && e.target.name !== "side") sideChoices(); });
  on("change", (e) => { if (e.target.closest("#new-table") && e.target.name === "system") sideChoices(); });
  on("DOMContentLoaded", kindFields);
  on("htmx:afterSettle", kindFields);
  on("change", (e) => { if (e.target.closest?.("form[data-kind-form]")) kindFields(); });
}
