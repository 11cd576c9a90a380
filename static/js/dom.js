// Small helpers the phone's modules share (no state).
export const on = (type, fn, capture) => document.addEventListener(type, fn, capture);
export const byId = (id) => document.getElementById(id);
export const one = (sel, root = document) => root.querySelector(sel);
export const all = (sel, root = document) => [...root.querySelectorAll(sel)];
export const later = (fn) => setTimeout(fn, 0);
export const fire = (el, type) => el.dispatchEvent(new Event(type, {bubbles: true}));
export const topOf = (el) => el.getBoundingClientRect().top;
export const middle = () => document.elementFromPoint(innerWidth / 2, innerHeight / 2);
export const isAction = (e) => e.detail.requestConfig?.verb === "post";  // (a poll, a card: GET)
export const sentForm = (e) => (e.detail.requestConfig?.elt || e.detail.elt)?.closest?.("form");
export const tablePath = (board) => board.getAttribute("hx-get").replace(/\/poll\?.*$/, "");

// A key that finds a control again after a redraw: its id, else its owner's id and its name (a button's
// value); find() gives the owner when the control itself is gone.
export function keyOf(el) {
  if (!el?.closest) return null;
  if (el.id) return "#" + el.id;
  const owner = el.closest("[id]");
  if (!owner) return null;
  if (!el.matches("button[value], input[name], select[name], textarea[name]")) return "#" + owner.id;
  return "#" + owner.id + " " + el.tagName + "|" + (el.value && el.tagName === "BUTTON" ? el.value : el.name);
}
export function find(key) {
  const sp = key?.indexOf(" ");
  if (!key || sp < 0) return key ? byId(key.slice(1)) : null;
  const owner = byId(key.slice(1, sp)), [tag, ...what] = key.slice(sp + 1).split("|");
  return owner && (all(tag, owner).find((el) => (tag === "BUTTON" ? el.value : el.name) === what.join("|")) || owner);
}
