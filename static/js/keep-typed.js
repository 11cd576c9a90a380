// A redraw never takes what a player holds (issue 40 §1): a part of the board drawn again (a change
// from another phone, a poll, a join) keeps what they typed or chose (keep.js), the focus and caret,
// the sections they opened. Not the fields sent with this phone's own accepted tap (the tapped button's
// row, else its form): its answer shows what they did.
import {all, byId, on, sentForm} from "./dom.js";
import {giveBack as putTyped, held, keys, typed} from "./keep.js";

const fieldsIn = (root) => all("input[name], select[name], textarea[name]", root).filter(held);
const summary = (d) => d.querySelector(":scope > summary")?.textContent.trim();
// a section without an id: its summary's words, and the n-th so named
const sectionKey = (root, d) => (d.id ? "#" + d.id : summary(d) || "") + "|" +
  all("details", root).filter((o) => !o.id && summary(o) === (summary(d) || "")).indexOf(d);

export function install() {
  let answering = null, ids = 0, boardHeld = null;  // answering: the fields sent, while the tap's answer goes in
  function holdIn(root) {
    const fields = fieldsIn(root), ks = keys(fields), at = document.activeElement, i = fields.indexOf(at);
    let focus = null;
    if (i >= 0 && !answering?.includes(at)) {
      focus = {key: ks[i], field: at};
      try { focus.start = at.selectionStart; focus.end = at.selectionEnd; } catch { /* (no caret) */ }
    }
    const open = all("details[open]", root).filter((d) => !d.id).map((d) => sectionKey(root, d));
    return {typed: typed(fields, ks, answering), focus, open};
  }
  function giveBack(root, was) {
    if (!root || !was) return;
    const fields = fieldsIn(root), ks = keys(fields), f = was.focus && fields[ks.indexOf(was.focus.key)];
    putTyped(fields, ks, was.typed);
    if (was.open.length) for (const d of all("details:not([id])", root)) if (was.open.includes(sectionKey(root, d))) d.open = true;
    if (f?.focus && document.activeElement !== f) {
      f.focus({preventScroll: true});
      try { if (was.focus.start != null) f.setSelectionRange(was.focus.start, was.focus.end); } catch { /* (no caret) */ }
    }
  }
  // Where the browser can move a field without losing the focus (Element.moveBefore: the keyboard stays
  // up), the one in use takes its new copy's place (hx-preserve), attributes and a select's options.
  function keepInUse(fragment, was) {
    const f = was.focus?.field, fresh = fragment?.querySelectorAll && f && "moveBefore" in Element.prototype && fieldsIn(fragment);
    const copy = fresh && fresh[keys(fresh).indexOf(was.focus.key)];
    if (!copy || (copy.hasAttribute("hx-preserve") && copy.id === f.id)) return;  // (htmx keeps it already)
    for (const a of [...f.attributes]) if (a.name !== "id" && a.name !== "value" && !copy.hasAttribute(a.name)) f.removeAttribute(a.name);
    for (const a of copy.attributes) if (a.name !== "id" && a.name !== "value" && a.name !== "hx-preserve") f.setAttribute(a.name, a.value);
    if (f.tagName === "SELECT") {
      const chosen = f.value;
      f.innerHTML = copy.innerHTML;
      if ([...f.options].some((o) => o.value === chosen)) f.value = chosen;
    }
    copy.id = f.id ||= "held-" + (++ids);
    copy.setAttribute("hx-preserve", "true");
  }
  // a part swapped out of band (a step)
  const holds = {};
  on("htmx:oobBeforeSwap", (e) => {
    const t = e.detail.target;
    if (!t?.id || !t.querySelectorAll || !e.detail.shouldSwap) return;
    holds[t.id] = holdIn(t);
    if (t.contains(document.activeElement)) keepInUse(e.detail.fragment, holds[t.id]);
  });
  on("htmx:oobAfterSwap", (e) => {
    const id = e.detail.target?.id, was = holds[id];
    delete holds[id];
    giveBack(byId(id), was);
  });
  // the whole board drawn again (far behind, a join, a refusal with a newer board)
  on("htmx:beforeSwap", (e) => {
    const t = e.detail.target;
    boardHeld = t?.id === "board" ? holdIn(byId("board") || t) : null;
  });
  on("htmx:afterSwap", () => {
    const was = boardHeld;
    boardHeld = null;
    giveBack(byId("board"), was);
  });
  // this phone's own tap: the fields that went with it, while its answer goes in (htmx's onload)
  on("htmx:beforeSend", (e) => {
    const xhr = e.detail.xhr, cfg = e.detail.requestConfig, load = xhr?.onload, form = sentForm(e);
    if (!cfg || cfg.verb === "get" || typeof load !== "function") return;
    const row = cfg.triggeringEvent?.submitter?.closest(".row");
    let sent = row ? fieldsIn(row) : [];
    if (!sent.length && form) sent = fieldsIn(document.body).filter((f) => f.form === form);
    xhr.onload = function (...args) {
      answering = xhr.status >= 200 && xhr.status < 300 ? sent : null;
      try { return load.apply(this, args); } finally { answering = null; }
    };
  });
}
