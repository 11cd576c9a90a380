// What a redraw keeps of what the player typed, chose or ticked. Pure (it reads only the fields it is
// given): tests/js/keep.test.js.
const tick = (f) => f.type === "checkbox" || f.type === "radio";

export const held = (f) => !/^(hidden|submit|button|reset|file|image)$/.test(f.type);
export const valueOf = (f) => (tick(f) ? f.checked : f.value);
// a value put back (a select only to an option it still has)
export function put(f, v) {
  if (tick(f)) f.checked = v;
  else if (f.tagName !== "SELECT" || [...f.options].some((o) => o.value === v)) f.value = v;
}
export function changed(f) {
  if (tick(f)) return f.checked !== f.defaultChecked;
  if (f.tagName === "SELECT") return [...f.options].some((o) => o.selected !== o.defaultSelected);
  return f.value !== f.defaultValue;
}
// keys that find a field in a part drawn again: form (or part), name, label, a tick's value; n-th of equals
export function keys(fields) {
  const seen = {};
  return fields.map((f) => {
    const owner = f.form || f.closest("[id]");
    const key = (owner ? owner.id : "") + "|" + f.name + "|" +
      (f.getAttribute("aria-label") || f.getAttribute("placeholder") || "") + (tick(f) ? "|" + f.value : "");
    seen[key] = (seen[key] || 0) + 1;
    return key + "#" + seen[key];
  });
}
// what the player changed, by key; not the fields `sent` with this phone's own accepted tap
export function typed(fields, ks, sent) {
  const out = {};
  fields.forEach((f, i) => { if (!sent?.includes(f) && changed(f)) out[ks[i]] = valueOf(f); });
  return out;
}
export function giveBack(fields, ks, kept) {
  fields.forEach((f, i) => { if (ks[i] in kept) put(f, kept[ks[i]]); });
}

// The helpers' refresh keeps every field of a form of theirs, by form and name (a tick: and value).
const fieldKey = (f) => f.form.id + "|" + f.name + (tick(f) ? "|" + f.value : "");
const toolField = (f) => f.type !== "hidden" && !!f.form?.id;
export function keep(fields) {
  const out = {};
  fields.filter(toolField).forEach((f) => { out[fieldKey(f)] = valueOf(f); });
  return out;
}
export function putBack(fields, kept) {
  fields.filter(toolField).forEach((f) => { if (f.name && fieldKey(f) in kept) put(f, kept[fieldKey(f)]); });
}
