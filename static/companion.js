// companion: keep the screen on while a table is open, remember the theme. (htmx does the rest.)
(function () {
  "use strict";
  var root = document.documentElement;
  var saved = localStorage.getItem("companion-theme");
  // the browser chrome (and the standalone app's status bar) takes the chosen theme's background
  function themeColour() {
    if (!root.dataset.theme) return;
    document.querySelectorAll("meta[name=theme-color]").forEach(function (m) {
      m.content = root.dataset.theme === "dark" ? "#121417" : "#f4f1ea";
    });
  }
  if (saved) root.dataset.theme = saved;
  document.addEventListener("DOMContentLoaded", themeColour);
  document.addEventListener("click", function (e) {
    if (!e.target.closest("[data-theme-toggle]")) return;
    var dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.theme = dark ? "light" : "dark";
    localStorage.setItem("companion-theme", root.dataset.theme);
    themeColour();
  });
  // Forms below the board (not swapped by polling, so typing survives) keep their unit lists in
  // step with the board: a select[data-units] gets the board's units after its fixed options (each
  // value prefixed with its data-unit-value, e.g. a deck's "unit:u3"; the board lists them once).
  function syncUnits() {
    var source = document.getElementById("unit-options");
    if (!source) return;
    // a side select[data-sides] names the seats on each side as the board does ("Side B (Ben)"): a
    // form drawn before Ben joined learns his name with the next step (issue 28 §4)
    var labels = source.dataset.sideLabels ? JSON.parse(source.dataset.sideLabels) : {};
    document.querySelectorAll("select[data-sides]").forEach(function (sel) {
      // (only an option with a value of its own: without one, its text is what the form sends)
      Array.prototype.forEach.call(sel.options, function (o) {
        if (o.hasAttribute("value") && labels[o.value] && o.text !== labels[o.value]) o.text = labels[o.value];
      });
    });
    document.querySelectorAll("select[data-units]").forEach(function (sel) {
      var keep = sel.querySelectorAll("option:not([data-unit])").length;
      var fixed = Array.prototype.slice.call(sel.options, 0, keep).filter(function (o) { return !o.hasAttribute("data-unit"); });
      var chosen = sel.value;
      sel.innerHTML = "";
      fixed.forEach(function (o) { sel.appendChild(o); });
      Array.prototype.forEach.call(source.options, function (o) {
        if (sel.dataset.units && sel.dataset.units !== o.dataset.side && sel.dataset.units.charAt(0) !== "!") return;
        if (sel.dataset.units && sel.dataset.units.charAt(0) === "!" && sel.dataset.units.slice(1) === o.dataset.side) return;
        var copy = new Option(o.text, (sel.dataset.unitValue || "") + o.value);
        copy.setAttribute("data-unit", "");
        copy.dataset.side = o.dataset.side;
        sel.appendChild(copy);
      });
      if (Array.prototype.some.call(sel.options, function (o) { return o.value === chosen; })) sel.value = chosen;
    });
  }
  document.addEventListener("DOMContentLoaded", syncUnits);
  // A join page's address carries the table's secret: it is replaced in the browser's history by
  // the table's own address, so the secret is not left behind for the next person at this phone.
  document.addEventListener("DOMContentLoaded", function () {
    var el = document.querySelector("[data-replace-url]");
    if (el && window.history && history.replaceState) history.replaceState(null, "", el.getAttribute("data-replace-url"));
  });
  // also at once after a swap (before the page is painted): a deck's select on the board is not
  // drawn for a moment with "the discard" alone (its width would jump)
  document.addEventListener("htmx:afterSwap", syncUnits);
  document.addEventListener("htmx:afterSettle", syncUnits);

  // The board is drawn once for every phone of a view (companion/board): the phone's own seat is on
  // the page's body (data-seat, data-side), and the few things that depend on it are done here.
  function seatName() { return document.body ? document.body.dataset.seat || "" : ""; }
  // Undo asks first when the move it takes back is another seat's (issue 10 §5); the phone's own goes
  // without the question.
  document.addEventListener("htmx:confirm", function (e) {
    var form = e.target, label = form && form.id === "undo" && form.dataset.undo, me = seatName();
    if (!label || !me || label.indexOf(me + ": ") !== 0) return;
    e.preventDefault();
    e.detail.issueRequest(true);
  });
  // Next ▶ asks first when a game's panel says the phase leaves something undone (a ship not activated,
  // an attack not applied: [data-before-next], issue 40 §8); the table moves on only if the player says so.
  document.addEventListener("htmx:confirm", function (e) {
    var form = e.target;
    if (!form || form.id !== "next") return;
    var undone = Array.prototype.map.call(document.querySelectorAll("#board [data-before-next]"), function (n) {
      return n.getAttribute("data-before-next");
    }).filter(Boolean);
    if (!undone.length) return;
    e.preventDefault();
    if (window.confirm(undone.join(" ") + " Move on anyway?")) e.detail.issueRequest(true);
  });
  // The log page drawn again with a take-back refused (a later move needs it): the page opens at that
  // move, its sentence and its "Take back both" offer in view, not at the top (issue 40 §8).
  document.addEventListener("DOMContentLoaded", function () {
    var refused = document.querySelector("ol.log details.fix[open] .err-text");
    if (refused) refused.closest("details").scrollIntoView({block: "center"});
  });
  // A pick that fills a form's fields (select[data-fills]: each option's data-fill, {"field name": value}),
  // e.g. a card from a loaded deck list: the fields stay as typed-in ones, sent as before (issue 40 §10).
  document.addEventListener("change", function (e) {
    var sel = e.target;
    if (!sel.matches || !sel.matches("select[data-fills]") || !sel.form) return;
    var opt = sel.options[sel.selectedIndex], fill = opt && opt.dataset.fill ? JSON.parse(opt.dataset.fill) : null;
    if (!fill) return;
    Object.keys(fill).forEach(function (name) {
      var field = Array.prototype.find.call(sel.form.elements, function (f) { return f.name === name; });
      if (!field) return;
      if (field.type === "checkbox") field.checked = !!fill[name];
      else if (field.tagName !== "SELECT" || Array.prototype.some.call(field.options, function (o) { return (o.value || o.text) === String(fill[name]); })) field.value = String(fill[name]);
    });
  });
  // A plain form that takes back or corrects another seat's move (the log page) asks first, as Undo does.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form && form.dataset && form.dataset.ask && !window.confirm(form.dataset.ask)) e.preventDefault();
  });
  // A set-up field that names the player of a side starts with the seats joined on it (the server fills
  // it from the table's roster) or, on a table that does not know this phone's seat, with this phone's
  // seat on its own side (as drawn: a later board may fill it, companion/roster.py).
  function ownName() {
    var me = seatName(), side = document.body && document.body.dataset.side;
    if (!me || !side) return;
    document.querySelectorAll("input[data-seat-name-for]").forEach(function (input) {
      if (!input.value && input.dataset.seatNameFor === side) input.defaultValue = input.value = me;
    });
  }
  document.addEventListener("DOMContentLoaded", ownName);
  document.addEventListener("htmx:afterSwap", ownName);
  // fieldKey/putBack: the helpers' refresh (freshTools, below) keeps what was typed in them by these keys.
  function fieldKey(form, f) { return form.id + "|" + f.name + (f.type === "checkbox" || f.type === "radio" ? "|" + f.value : ""); }
  // put what was kept (by fieldKey) back into these fields; a select only to an option it still has
  function putBack(fields, kept) {
    Array.prototype.forEach.call(fields, function (f) {
      var key = f.name && f.form && fieldKey(f.form, f);
      if (!key || !(key in kept)) return;
      if (f.type === "checkbox" || f.type === "radio") f.checked = kept[key];
      else if (f.tagName !== "SELECT" || Array.prototype.some.call(f.options, function (o) { return o.value === kept[key]; })) f.value = kept[key];
    });
  }

  // A redraw never takes what a player holds (issue 40 §1): when a part of the board is drawn again (a
  // change pushed from another phone, a poll, the board after a join) every field the player typed in or
  // chose on it, in any form (a unit's card holds several: a damage box, a card's name, its type), keeps
  // what they put there, the field they were in keeps the focus and the caret, and a section they opened
  // stays open. A field left as it was drawn takes the new board's value. The one exception is this
  // phone's own accepted tap: the fields that went with it (those in the tapped button's row, else its
  // whole form) were sent, and its answer shows what they did.
  function heldFields(root) {
    return Array.prototype.filter.call(root.querySelectorAll("input[name], select[name], textarea[name]"), function (f) {
      return !/^(hidden|submit|button|reset|file|image)$/.test(f.type);
    });
  }
  // a key that finds the same field in the part drawn again: its form (or the part), name, label, and
  // for a tick its value; the n-th of equal keys (two fields named "dice" in one card)
  function heldKeys(fields) {
    var seen = {};
    return fields.map(function (f) {
      var owner = f.form || f.closest("[id]");
      var key = (owner ? owner.id : "") + "|" + f.name + "|" + (f.getAttribute("aria-label") || f.getAttribute("placeholder") || "") +
        (f.type === "checkbox" || f.type === "radio" ? "|" + f.value : "");
      seen[key] = (seen[key] || 0) + 1;
      return key + "#" + seen[key];
    });
  }
  function changedByPlayer(f) {
    if (f.type === "checkbox" || f.type === "radio") return f.checked !== f.defaultChecked;
    if (f.tagName === "SELECT") return Array.prototype.some.call(f.options, function (o) { return o.selected !== o.defaultSelected; });
    return f.value !== f.defaultValue;
  }
  function sectionKey(root, d) {
    var s = d.querySelector(":scope > summary");
    return (d.id ? "#" + d.id : (s ? s.textContent.trim() : "")) + "|" +
      Array.prototype.filter.call(root.querySelectorAll("details"), function (o) { return !o.id && o.querySelector(":scope > summary") && o.querySelector(":scope > summary").textContent.trim() === (s ? s.textContent.trim() : ""); }).indexOf(d);
  }
  var answering = null;  // the fields this phone's own accepted tap sent, while its answer goes in
  function holdIn(root) {
    var fields = heldFields(root), keys = heldKeys(fields), typed = {}, focus = null, at = document.activeElement;
    fields.forEach(function (f, i) {
      if (answering && answering.indexOf(f) >= 0) return;
      if (changedByPlayer(f)) typed[keys[i]] = f.type === "checkbox" || f.type === "radio" ? f.checked : f.value;
      if (f === at) {
        focus = {key: keys[i], field: f};
        try { focus.start = f.selectionStart; focus.end = f.selectionEnd; } catch (err) { /* (a field without a caret) */ }
      }
    });
    var open = Array.prototype.filter.call(root.querySelectorAll("details[open]"), function (d) { return !d.id; })
      .map(function (d) { return sectionKey(root, d); });
    return {typed: typed, focus: focus, open: open};
  }
  function giveBack(root, held) {
    if (!root || !held) return;
    var fields = heldFields(root), keys = heldKeys(fields), focused = null;
    fields.forEach(function (f, i) {
      var key = keys[i];
      if (key in held.typed) {
        var v = held.typed[key];
        if (f.type === "checkbox" || f.type === "radio") f.checked = v;
        else if (f.tagName !== "SELECT" || Array.prototype.some.call(f.options, function (o) { return o.value === v; })) f.value = v;
      }
      if (held.focus && key === held.focus.key) focused = f;
    });
    if (held.open.length) root.querySelectorAll("details:not([id])").forEach(function (d) {
      if (held.open.indexOf(sectionKey(root, d)) >= 0) d.open = true;
    });
    if (focused && document.activeElement !== focused && focused.focus) {
      focused.focus({preventScroll: true});
      try { if (held.focus.start !== null && held.focus.start !== undefined) focused.setSelectionRange(held.focus.start, held.focus.end); } catch (err) { /* (no caret) */ }
    }
  }
  // The field the player is in is not replaced at all where the browser can move it without losing the
  // focus (Element.moveBefore: the phone's keyboard stays up): it goes into the part drawn again in
  // place of its new copy (htmx's hx-preserve), taking the copy's attributes (and a select its options).
  var preserveIds = 0;
  function keepTheFieldInUse(target, fragment, held) {
    var f = held.focus && held.focus.field;
    if (!f || !("moveBefore" in Element.prototype) || !fragment || !fragment.querySelectorAll) return;
    var fresh = heldFields(fragment), keys = heldKeys(fresh), i = keys.indexOf(held.focus.key);
    if (i < 0) return;
    var copy = fresh[i];
    if (copy.hasAttribute("hx-preserve") && copy.id === f.id) return;  // htmx keeps it already
    Array.prototype.slice.call(f.attributes).forEach(function (a) {
      if (a.name !== "id" && a.name !== "value" && !copy.hasAttribute(a.name)) f.removeAttribute(a.name);
    });
    Array.prototype.forEach.call(copy.attributes, function (a) {
      if (a.name !== "id" && a.name !== "value" && a.name !== "hx-preserve") f.setAttribute(a.name, a.value);
    });
    if (f.tagName === "SELECT") {
      var chosen = f.value;
      f.innerHTML = copy.innerHTML;
      if (Array.prototype.some.call(f.options, function (o) { return o.value === chosen; })) f.value = chosen;
    }
    if (!f.id) f.id = "held-" + (++preserveIds);
    copy.id = f.id;
    copy.setAttribute("hx-preserve", "true");
  }
  var holds = {};
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var t = e.detail.target;
    if (!t || !t.id || !t.querySelectorAll || !e.detail.shouldSwap) return;
    holds[t.id] = holdIn(t);
    if (t.contains(document.activeElement)) keepTheFieldInUse(t, e.detail.fragment, holds[t.id]);
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var t = e.detail.target, held = t && holds[t.id];
    if (!held) return;
    delete holds[t.id];
    giveBack(document.getElementById(t.id), held);
  });
  // the whole board drawn again (far behind, a join, a refusal that came with a newer board)
  var boardHeld = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var t = e.detail.target;
    // (the board on the page: an answer that crossed another goes to it, boardSwap below)
    boardHeld = t && t.id === "board" ? holdIn(document.getElementById("board") || t) : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    var held = boardHeld;
    boardHeld = null;
    if (held) giveBack(document.getElementById("board"), held);
  });
  // this phone's own tap: which fields went with it, known while its answer goes in (htmx handles the
  // answer in the request's onload, set before htmx:beforeSend)
  document.addEventListener("htmx:beforeSend", function (e) {
    var xhr = e.detail.xhr, cfg = e.detail.requestConfig, load = xhr && xhr.onload;
    if (!cfg || cfg.verb === "get" || typeof load !== "function") return;
    var tapped = cfg.triggeringEvent && cfg.triggeringEvent.submitter, form = sentForm(e);
    var row = tapped && tapped.closest(".row");
    var sent = row ? heldFields(row) : [];
    if (!sent.length && form) sent = heldFields(document.body).filter(function (f) { return f.form === form; });
    xhr.onload = function () {
      answering = xhr.status >= 200 && xhr.status < 300 ? sent : null;
      try { return load.apply(this, arguments); } finally { answering = null; }
    };
  });

  // Recorded real-deck draws and a typed secret (a sealed order) survive polls (hx-preserve) and are
  // emptied once accepted: when the request itself ends, which the page hears whatever the answer
  // redrew (see accepted, below).
  function emptiedWhenAccepted(pattern, empty) {
    var tap = null;
    document.addEventListener("submit", function (e) {
      tap = e.submitter && pattern.test(e.submitter.value || "") ? e : null;
    }, true);
    document.addEventListener("htmx:beforeSend", function (e) {
      var xhr = e.detail.xhr, cfg = e.detail.requestConfig;
      if (!tap || !xhr || !cfg || cfg.triggeringEvent !== tap) return;
      var form = tap.target;
      tap = null;
      xhr.addEventListener("loadend", function () { if (xhr.status >= 200 && xhr.status < 300) empty(form); });
    });
  }
  emptiedWhenAccepted(/^deck-record /, function () {
    document.querySelectorAll("input[id^='rec-'][hx-preserve]").forEach(function (i) { i.value = ""; });
  });
  emptiedWhenAccepted(/^seal /, function (form) {
    document.querySelectorAll("input[data-clear-on-success]").forEach(function (i) {
      if (i.id && form.id && i.id.indexOf(form.id) === 0) i.value = "";
    });
  });

  // New table: "Your side" offers the chosen game's sides, or the sides typed in the field above it.
  function sideChoices() {
    var sel = document.querySelector("select[data-sides-of]");
    if (!sel) return;
    var form = document.getElementById(sel.dataset.sidesOf);
    if (!sel._all) sel._all = Array.prototype.map.call(sel.querySelectorAll("option[data-system]"), function (o) {
      return {system: o.dataset.system, value: o.value};
    });
    var system = form.querySelector("select[name=system]").value;
    var typed = form.querySelector("input[name=sides]").value.split(",").map(function (x) { return x.trim(); }).filter(Boolean);
    var sides = typed.length ? typed : sel._all.filter(function (o) { return o.system === system; }).map(function (o) { return o.value; });
    var chosen = sel.value;
    while (sel.options.length > 1) sel.remove(1);
    sides.forEach(function (side) { sel.appendChild(new Option(side, side)); });
    sel.value = sides.indexOf(chosen) >= 0 ? chosen : "";
  }
  document.addEventListener("DOMContentLoaded", sideChoices);
  document.addEventListener("input", function (e) { if (e.target.closest("#new-table") && e.target.name !== "side") sideChoices(); });
  document.addEventListener("change", function (e) { if (e.target.closest("#new-table") && e.target.name === "system") sideChoices(); });

  // A link to a folded section ("Add one", "Dice") opens it, so the tap lands on something usable.
  // A link into a unit's card from its row (a game's "Fire" on the row) whose card is not here yet (a folded
  // row: companion/board) opens the row and goes there once the card is in.
  var goingTo = null;
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[href^='#']");
    var id = a && a.getAttribute("href").slice(1);
    if (!id) return;
    // (a unit's own link sits beside its row, not in it: a link inside a summary is not reachable as
    // one by a screen reader, issue 28 §7)
    var box = a.closest(".unitbox"), row = a.closest("details.unitrow") || (box && box.querySelector("details.unitrow"));
    var target = document.getElementById(id);
    if (!target && row && row.querySelector(":scope > .unitcard[data-lazy]")) {
      e.preventDefault();
      goingTo = {a: a, id: id, at: Date.now()};
      if (row.open) askCard(row); else row.open = true;  // (opening asks for the card)
      return;
    }
    if (target) arrive(a, target);
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (goingTo && Date.now() - goingTo.at > 5000) goingTo = null;  // a card that never came: no jump later
    var target = goingTo && document.getElementById(goingTo.id);
    if (!target) return;
    var a = goingTo.a;
    goingTo = null;
    target.scrollIntoView({block: "start"});
    arrive(a, target);
  });
  function arrive(a, target) {
    var folded = target.matches("details") ? target : target.querySelector("details.lazy");
    if (folded && !folded.open) folded.open = true;
    // A unit's own way into a game's tool ("Fire" on a ship opens the broadside with that ship
    // chosen): data-pick='{"field name": "value"}' sets those fields in the target and says so.
    if (a.dataset.pick) {
      var picks = JSON.parse(a.dataset.pick);
      Object.keys(picks).forEach(function (name) {
        var field = target.querySelector("[name='" + name + "']");
        if (!field) return;
        if (field.type === "checkbox") field.checked = picks[name] !== "" && picks[name] !== "0";
        else field.value = picks[name];
        field.dispatchEvent(new Event("input", { bubbles: true }));
        field.dispatchEvent(new Event("change", { bubbles: true }));
      });
    }
  }

  // Forms tell the truth (issue 10 §4): an error sentence goes with the next success, what was typed
  // for the last action ([data-clear], e.g. real dice) is emptied once it is accepted, and the tracker
  // form shows (and sends) only the chosen kind's fields.
  function isAction(e) { return e.detail.requestConfig && e.detail.requestConfig.verb === "post"; }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (!isAction(e)) return;
    var form = e.detail.elt.closest && e.detail.elt.closest("form");
    var slot = form && form.id && document.getElementById(form.id + "-err");
    if (slot) slot.innerHTML = "";
  });
  // Done at htmx:afterRequest (before a game's own listeners, say its odds, read the emptied form), and
  // again when the request itself ends: an answer that redraws the part holding the form (the whole
  // board, when the table moved on while the tap was out) leaves htmx's afterRequest unheard by the page
  // (connection.js says why), and a hit typed beside its buttons must not stay to be sent twice.
  function accepted(form) {
    document.querySelectorAll("[id$='-err']").forEach(function (slot) {
      if (slot.querySelector(".err-text")) slot.innerHTML = "";
    });
    // the form that was sent, as it is now, and every field it owns, also those placed elsewhere with
    // form="..." (kept by hx-preserve)
    var live = form.id && document.getElementById(form.id) || form;
    Array.prototype.forEach.call(live.elements, function (i) {
      if (!i.matches("[data-clear]")) return;
      if (i.type === "checkbox") i.checked = false; else i.value = "";  // a one-shot option is unticked
    });
  }
  function sentForm(e) {
    var src = (e.detail.requestConfig && e.detail.requestConfig.elt) || e.detail.elt;
    return src && src.closest && src.closest("form");
  }
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = sentForm(e);
    if (isAction(e) && e.detail.successful && form) accepted(form);
  });
  document.addEventListener("htmx:beforeSend", function (e) {
    var xhr = e.detail.xhr, form = sentForm(e);
    if (!isAction(e) || !xhr || !form) return;
    xhr.addEventListener("loadend", function () {
      if (xhr.status >= 200 && xhr.status < 300) accepted(form);  // refused: what was typed stays, to be mended
    });
  });
  function kindFields(root) {
    (root || document).querySelectorAll("form[data-kind-form]").forEach(function (form) {
      var kind = form.querySelector("select[name='spec.kind']").value;
      form.querySelectorAll("[data-kinds]").forEach(function (el) {
        var on = el.dataset.kinds.split(" ").indexOf(kind) >= 0;
        el.hidden = !on;
        (el.matches("input") ? [el] : Array.prototype.slice.call(el.querySelectorAll("input"))).forEach(function (i) { i.disabled = !on; });
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { kindFields(); });
  document.addEventListener("htmx:afterSettle", function () { kindFields(); });
  document.addEventListener("change", function (e) { if (e.target.closest && e.target.closest("form[data-kind-form]")) kindFields(); });

  // Steppers (issue 28 §6): an input[data-stepper] gets a − and a + button (44 px) on either side. The
  // input stays a plain field, sent as typed, so the form works without this script; a tap writes the
  // number one lower or higher within data-min..data-max (the game's own input limits) and fires
  // input/change, so a live check redraws as after typing. An empty field steps from its placeholder
  // (what it shows), its data-start, or 0.
  var stepperIds = 0;
  function steppers(root) {
    (root || document).querySelectorAll("input[data-stepper]:not([data-stepped])").forEach(function (input) {
      input.setAttribute("data-stepped", "");
      // a label around the stepper would otherwise lend its taps to the − button (its first control)
      var label0 = input.closest("label");
      if (label0 && !label0.htmlFor) { input.id = input.id || "stepper-" + (++stepperIds); label0.htmlFor = input.id; }
      var wrap = document.createElement("span"), label = input.getAttribute("aria-label") || input.name;
      wrap.className = "stepper";
      input.parentNode.insertBefore(wrap, input);
      [["\u2212", -1, "one less"], null, ["+", 1, "one more"]].forEach(function (b) {
        if (!b) { wrap.appendChild(input); return; }
        var btn = document.createElement("button");
        btn.type = "button"; btn.textContent = b[0]; btn.dataset.step = b[1];
        btn.setAttribute("aria-label", label + ": " + b[2]);
        wrap.appendChild(btn);
      });
    });
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest(".stepper button[data-step]");
    if (!btn) return;
    var input = btn.parentNode.querySelector("input"), d = +btn.dataset.step;
    var lo = input.dataset.min === undefined ? -Infinity : +input.dataset.min;
    var hi = input.dataset.max === undefined ? Infinity : +input.dataset.max;
    var now = parseInt(String(input.value).replace(/[+\s]/g, ""), 10);
    // an empty field steps from what it shows (its placeholder), else from its usual value
    // (data-start, where the rules give one), else from 0, the result kept within its limits; not
    // from its lowest value (issue 40 §5: + on an empty Miss field gave -10; Armour, 1 to 6, gives 1)
    if (isNaN(now)) now = parseInt(String(input.getAttribute("placeholder") || "").replace(/[+\s]/g, ""), 10);
    if (isNaN(now) && input.dataset.start !== undefined) now = parseInt(input.dataset.start, 10);
    if (isNaN(now)) now = 0;
    var next = now + d;
    input.value = String(Math.min(hi, Math.max(lo, next)));
    input.dispatchEvent(new Event("input", {bubbles: true}));
    input.dispatchEvent(new Event("change", {bubbles: true}));
  });
  document.addEventListener("DOMContentLoaded", function () { steppers(); });
  document.addEventListener("htmx:afterSettle", function () { steppers(); });

  // The result sheet: dismissed, it stays away when the board is redrawn, until a newer result comes.
  var dismissed = null;
  function sheet() {
    var el = document.getElementById("result");
    if (el && el.dataset.resultSeq === dismissed) el.hidden = true;
  }
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("[data-dismiss]")) return;
    var el = e.target.closest("#result");
    dismissed = el.dataset.resultSeq;
    el.hidden = true;
  });
  document.addEventListener("htmx:afterSettle", sheet);
  // "Same hit?" answered "Keep both": the question goes, both moves stay (issue 28 item 3)
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("[data-same-hit-keep]")) return;
    document.getElementById("same-hit").innerHTML = "";
  });

  // No action moves the page away from the control the player used (issue 10 §2): when the board is
  // redrawn, the tapped control (or, for a poll, what is in the middle of the screen) stays where it
  // was on screen, keeps the focus, and folded sections stay as they were.
  function keyOf(el) {
    if (!el || !el.closest) return null;
    if (el.id) return "#" + el.id;
    var owner = el.closest("[id]");
    if (!owner) return null;
    if (el.matches("button[value], input[name], select[name], textarea[name]")) {
      return "#" + owner.id + " " + el.tagName + "|" + (el.value && el.tagName === "BUTTON" ? el.value : el.name);
    }
    return "#" + owner.id;
  }
  function find(key, root) {
    if (!key) return null;
    var sp = key.indexOf(" ");
    if (sp < 0) return document.getElementById(key.slice(1));
    var owner = document.getElementById(key.slice(1, sp));
    var rest = key.slice(sp + 1).split("|"), tag = rest[0], what = rest.slice(1).join("|");
    if (!owner) return null;
    return Array.prototype.find.call(owner.querySelectorAll(tag), function (el) {
      return tag === "BUTTON" ? el.value === what : el.name === what;
    }) || owner;
  }
  function openDetails(root) {
    return Array.prototype.map.call(root.querySelectorAll("details[open]"), function (d) {
      if (d.id) return d.id + "|self";
      var owner = d.parentElement.closest("[id]");
      return (owner ? owner.id : "") + "|" + Array.prototype.indexOf.call((owner || root).querySelectorAll("details"), d);
    });
  }
  var anchor = null, rowsAtSubmit = [];
  document.addEventListener("htmx:beforeRequest", function (e) {
    // the rows there were when a unit was added (a poll may bring the new one before the answer)
    if (e.detail.requestConfig && e.detail.requestConfig.verb === "post") {
      rowsAtSubmit = Array.prototype.map.call(document.querySelectorAll("details.unitrow"), function (d) { return d.id; });
    }
  });
  // An answer may come back to a board that another answer replaced meanwhile (a poll and an action
  // cross): swapped into that old element, the board's kept (hx-preserve) fields would leave the page.
  // An action's answer goes to the board on the page; a crossed poll is dropped (the next one follows).
  function liveTarget(e) {
    var t = e.detail.target;
    if (!t || t.isConnected || t.id !== "board") return;
    var live = document.getElementById("board");
    if (live && e.detail.requestConfig && e.detail.requestConfig.verb === "post") e.detail.target = live;
    else e.detail.shouldSwap = false;
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    // htmx announces the swap on the target itself: once that board has left the page the event no
    // longer reaches the document, so each board listens for itself (once per board)
    var t = e.detail.target;
    if (!t || t.id !== "board" || t.crossingWatched) return;
    t.crossingWatched = true;
    // (the action's answer then also keeps the page in place and opens a unit it added: boardSwap)
    t.addEventListener("htmx:beforeSwap", function (s) { if (!t.isConnected) boardSwap(s); });
  });
  document.addEventListener("htmx:beforeSwap", boardSwap);
  // A poll's answer no newer than the board on the page is dropped: a poll sent before this phone's
  // own tap can come back after the tap's answer, and swapping it in would take away what that
  // answer showed (a refusal next to the control, the sheet of a result) for a board no newer.
  function answerSeq(e) {
    var xhr = e.detail.xhr, header = xhr && xhr.getResponseHeader("X-Board-Seq");
    if (header) return +header;
    var m = /id="board" data-seq="(\d+)"/.exec(e.detail.serverResponse || "");
    return m ? +m[1] : null;
  }
  function stalePoll(e) {
    var cfg = e.detail.requestConfig, live = document.getElementById("board");
    if (!cfg || cfg.verb !== "get" || !cfg.elt || cfg.elt.id !== "board" || !live || !live.dataset.seq) return false;
    var seq = answerSeq(e);
    return seq !== null && seq <= +live.dataset.seq;
  }
  // The board's seq says how new what it shows is (a pushed step sets it in connection.js).  An answer
  // that brings only the parts that changed (X-Board-Seq) moves it; a whole board carries its own.  An
  // action's answer drawn before the board this phone now holds (its tap crossed a newer poll or push)
  // still goes in, for what it says to the player who tapped, and the board then asks at once for what
  // changed since that answer: the older parts it put back never stay.
  function answered(e) {
    var live = document.getElementById("board"), seq = answerSeq(e);
    if (!live || seq === null || !live.dataset.seq) return;
    var behind = seq < +live.dataset.seq;
    if (e.detail.xhr && e.detail.xhr.getResponseHeader("X-Board-Seq")) live.dataset.seq = seq;
    if (behind) setTimeout(function () { var b = document.getElementById("board"); if (b) htmx.trigger(b, "live"); }, 0);
  }
  function boardSwap(e) {
    if (stalePoll(e)) { e.detail.shouldSwap = false; anchor = null; return; }
    liveTarget(e);
    if (!e.detail.shouldSwap) { anchor = null; return; }
    answered(e);
    var board = e.detail.target;
    if (!board || board.id !== "board") { anchor = null; return; }
    var el = e.detail.requestConfig && e.detail.requestConfig.elt;
    var tapped = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent && e.detail.requestConfig.triggeringEvent.submitter;
    el = tapped || (el && board.contains(el) && el !== board ? el : null);
    if (!el || !el.getBoundingClientRect || !el.getBoundingClientRect().height) {
      // what is in the middle of the screen stays there, on the board or in a tool below it (a
      // taller board must not push the tool the player is reading down the page)
      var mid = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
      el = mid && mid !== document.body && mid !== document.documentElement && mid !== board ? mid : null;
    }
    var focused = document.activeElement && board.contains(document.activeElement) ? keyOf(document.activeElement) : null;
    var key = keyOf(el), same = find(key);  // measure what the key finds again after the swap
    anchor = {key: key, top: same ? same.getBoundingClientRect().top : 0, focus: focused, open: openDetails(board), y: window.scrollY,
      // a unit this phone has just put on the table opens, ready to be set up
      rows: tapped && tapped.closest("form[id^='add-'], form[id^='roster']") ? rowsAtSubmit : null};
  }
  document.addEventListener("htmx:afterSwap", function (e) {
    var board = document.getElementById("board"), a = anchor;
    if (!a || !board) return;
    anchor = null;
    a.open.forEach(function (k) {
      var parts = k.split("|"), owner = parts[0] ? document.getElementById(parts[0]) : board;
      var d = parts[1] === "self" ? owner : owner && owner.querySelectorAll("details")[+parts[1]];
      if (d) d.open = true;
    });
    if (a.rows) board.querySelectorAll("details.unitrow").forEach(function (d) { if (a.rows.indexOf(d.id) < 0) d.open = true; });
    var el = find(a.key);
    if (el && document.body.contains(el)) window.scrollBy(0, el.getBoundingClientRect().top - a.top);  // a tool outside the board too
    else window.scrollTo(0, a.y);
    var f = find(a.focus);
    if (f && f.focus) f.focus({preventScroll: true});
  });

  // A part of the board swapped out of band (a step: companion/board) keeps the sections folded or
  // open as the player left them (e.g. the earlier rolls): details with an id are opened again.
  var oobOpen = {};
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var t = e.detail.target;
    if (t && t.id && t.querySelectorAll) oobOpen[t.id] = Array.prototype.map.call(t.querySelectorAll("details[id][open]"), function (d) { return d.id; });
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var t = e.detail.target, ids = t && oobOpen[t.id];
    if (!ids) return;
    delete oobOpen[t.id];
    ids.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
  });

  // A game's helpers (below the board, loaded in their own request) list the table's players and units;
  // drawn before a player set up or a unit came, they would offer the old list. The board says which
  // roster it shows (#unit-options[data-roster]), the helpers which they were drawn with: when the two
  // differ the helpers are asked for again, what was typed in them kept (issue 28 §4).
  var toolsAsked = null;
  function freshTools(afterTap) {
    var source = document.getElementById("unit-options"), tools = document.getElementById("game-tools");
    var board = document.getElementById("board");
    if (!source || !tools || !board || !tools.dataset.roster || !board.getAttribute("hx-get")) return;
    var want = source.dataset.roster;
    if (!want || want === tools.dataset.roster || want === toolsAsked) return;
    // not under the player's thumb: while a field or button in the helpers has the focus, or a tap of
    // theirs is out (a form sending; a helper refreshing itself, say the odds, does not count), they stay
    // as they are (asked for again once the focus leaves them); the button of a form that redraws them,
    // its tap just answered, does not hold them (a setting changed there: they show the new one at once).
    // The fresh copy goes in only if the player is not in one of their fields by then (htmx:beforeSwap).
    var held = document.activeElement;
    if (tools.contains(held) && !(afterTap && held.tagName === "BUTTON")) return;
    if (tools.querySelector("form.htmx-request") || tools.matches(".htmx-request")) return;
    // the player is reading a refusal there: it stays a while (the next change refreshes them); a tap
    // just answered with success was not refused
    if (!afterTap && shownRefusal(tools) && Date.now() - toolsTapped < 8000) return;
    toolsAsked = want;
    refreshSent = Date.now();
    htmx.ajax("GET", tablePath(board) + "/tools/game", {target: "#game-tools", swap: "outerHTML"}).then(function () {
      var now = document.getElementById("game-tools"), was = toolsKept;
      toolsKept = null;
      if (!now || !was) return;
      was.opened.forEach(function (id) { var d = document.getElementById(id); if (d && now.contains(d)) d.open = true; });
      var again = find(was.focusKey);
      if (again && now.contains(again) && again.focus) again.focus({preventScroll: true});
      putBack(Array.prototype.filter.call(now.querySelectorAll("input[name], select[name], textarea[name]"), toolField), was.typed);
      if (was.top < window.innerHeight) window.scrollBy(0, now.getBoundingClientRect().top - was.top);  // the tool stays put
      syncUnits();
    });
  }
  // What the helpers hold for the player, taken as their fresh copy goes in (not when it was asked for:
  // the player may have typed or chosen meanwhile): what was typed, the sections opened, the button just
  // tapped (by its key), where they stood on the screen.
  var toolsKept = null;
  function toolField(f) { return f.type !== "hidden" && !!f.form && !!f.form.id; }
  function keepOf(tools) {
    var typed = {};
    tools.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (f) {
      if (toolField(f)) typed[fieldKey(f.form, f)] = f.type === "checkbox" || f.type === "radio" ? f.checked : f.value;
    });
    var held = document.activeElement;
    return {typed: typed, top: tools.getBoundingClientRect().top, focusKey: tools.contains(held) ? keyOf(held) : null,
            opened: Array.prototype.map.call(tools.querySelectorAll("details[open][id]"), function (d) { return d.id; })};
  }
  // A tap in the helpers made while their refresh was out wins: the refresh's answer is dropped (it
  // would wipe that tap's answer, a refusal next to the control) and asked for again later.
  var refreshSent = 0, toolsTapped = 0;
  function shownRefusal(tools) {
    return Array.prototype.some.call(tools.querySelectorAll(".err, [role=alert]"), function (n) { return n.textContent.trim(); });
  }
  // a player's tap in the helpers: a form they sent (a helper checking itself as it loads or is typed
  // into, as the ship designer does, is not one)
  function toolTap(e) {
    var tools = document.getElementById("game-tools"), cfg = e.detail.requestConfig, how = cfg && cfg.triggeringEvent;
    return !!(tools && e.detail.elt && tools.contains(e.detail.elt) && cfg.verb !== "get" && how &&
      (how.type === "submit" || how.type === "click"));
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (toolTap(e)) toolsTapped = Date.now();
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    var cfg = e.detail.requestConfig;
    if (!cfg || cfg.verb !== "get" || !/\/tools\/game$/.test(cfg.path || "")) return;
    var tools = document.getElementById("game-tools"), at = document.activeElement;
    // the player is in a field of the helpers now (choosing, typing): they are not swapped under the
    // thumb; asked for again once the focus leaves them (refreshSent: the newest refresh asked for, of
    // one or two on their way; 0 before any, when the helpers first load)
    var busy = tools && tools.contains(at) && /^(INPUT|SELECT|TEXTAREA)$/.test(at.tagName);
    if ((refreshSent && toolsTapped >= refreshSent) || busy || !tools) { e.detail.shouldSwap = false; toolsAsked = null; }
    else toolsKept = keepOf(tools);
  });
  document.addEventListener("htmx:afterSettle", function () { freshTools(false); });
  // a form of the helpers that changes what they show (a table setting: class "redraws-helpers") has
  // them drawn again as soon as its tap is answered, the focus still on its button
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = sentForm(e);
    if (e.detail.successful && toolTap(e) && form && form.matches(".redraws-helpers")) {
      setTimeout(function () { freshTools(true); }, 0);
    }
  });
  document.addEventListener("focusout", function (e) {
    var tools = document.getElementById("game-tools");
    if (tools && tools.contains(e.target)) setTimeout(function () { freshTools(false); }, 0);
  });
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(function () { freshTools(false); }, 0); });

  // The board polls from the seq it shows. A poll (or an action's answer) a change or two behind may
  // bring only the parts that changed (out of band, the board itself stays: companion/board) and
  // the new seq in X-Board-Seq (answered, above); the next poll then asks from there, not from the seq it was drawn at.
  document.addEventListener("htmx:configRequest", function (e) {
    var board = e.detail.elt;
    if (!board || board.id !== "board" || e.detail.verb !== "get" || !board.dataset.seq) return;
    e.detail.path = e.detail.path.replace(/([?&]seq=)\d+/, "$1" + board.dataset.seq);
  });

  // A unit's card comes only to a phone that has its row open (companion/board): every
  // request says which rows are open here, and a row opened later asks for its card alone.
  // An action also says which seq its phone's board shows, so its answer can be those parts too.
  function openRows() {
    return Array.prototype.map.call(document.querySelectorAll("details.unitrow[open]"), function (d) { return d.id.slice(4); });
  }
  function tablePath(board) { return board.getAttribute("hx-get").replace(/\/poll\?.*$/, ""); }
  document.addEventListener("htmx:configRequest", function (e) {
    e.detail.headers["X-Open-Units"] = openRows().join(" ");
    var board = document.getElementById("board");
    if (board && board.dataset.seq && e.detail.verb === "post") e.detail.headers["X-Board-Seq"] = board.dataset.seq;
  });
  function askCard(row) {
    var slot = row && row.open && row.querySelector(":scope > .unitcard[data-lazy]");
    var board = document.getElementById("board");
    if (!slot || !board || slot.dataset.asked) return;
    slot.dataset.asked = "1";
    var url = tablePath(board) + "/card/" + encodeURIComponent(row.id.slice(4));
    htmx.ajax("GET", url, {target: slot, swap: "outerHTML"}).then(function () {
      if (slot.isConnected) delete slot.dataset.asked;  // not answered (the unit left): the next opening asks again
    });
  }
  // The open rows are kept in a cookie of the table's own path too: a page loaded again (a phone
  // that slept, a reload) comes back with them open, their cards in it.
  function keepOpenRows() {
    var board = document.getElementById("board");
    if (!board) return;
    document.cookie = "open=" + openRows().join("~") + "; path=" + tablePath(board) + "; max-age=43200; SameSite=Lax";
  }
  document.addEventListener("toggle", function (e) {
    if (!e.target.matches || !e.target.matches("details.unitrow")) return;
    askCard(e.target);
    keepOpenRows();
  }, true);  // (toggle does not bubble; it is caught on its way down)
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest(".cardlink");
    if (!link) return;
    e.preventDefault();  // (the link is for a phone without JavaScript: a page load with the card open)
    askCard(link.closest("details.unitrow"));
  });

  // Rule tables: say so when a table scrolls sideways; the two-input lookup answers as you choose.
  function tables() {
    document.querySelectorAll("[data-scroll]").forEach(function (box) {
      var hint = box.parentElement.querySelector("[data-swipe]");
      if (hint) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
    });
    document.querySelectorAll("form[data-lookup]").forEach(function (form) {
      var table = document.querySelector("table.rules");
      if (!table) return;
      var row = form.elements.row.value, col = form.elements.col.value;
      var heads = Array.prototype.map.call(table.tHead.rows[0].cells, function (c) { return c.textContent.trim(); });
      var ci = heads.indexOf(col, 1);
      var tr = Array.prototype.find.call(table.tBodies[0].rows, function (r) { return r.cells[0].textContent.trim() === row; });
      form.querySelector("[data-answer]").textContent = tr && ci > 0 ? tr.cells[ci].textContent : "–";
      Array.prototype.forEach.call(table.querySelectorAll(".hit"), function (c) { c.classList.remove("hit"); });
      if (tr && ci > 0) tr.cells[ci].classList.add("hit");
    });
  }
  document.addEventListener("DOMContentLoaded", tables);
  window.addEventListener("resize", tables);
  document.addEventListener("change", function (e) { if (e.target.closest && e.target.closest("form[data-lookup]")) tables(); });

  // Unit rows: "My side" / "All" (remembered per table on this phone) and "Fold all".
  function filterKey() { var b = document.getElementById("board"); return "companion-filter-" + location.pathname; }
  function unitFilter() {
    var mode = localStorage.getItem(filterKey()) || "all";
    root.dataset.unitFilter = mode;
    // (the buttons only: <html data-unit-filter> carries the mode for the stylesheet, issue 28 §7)
    document.querySelectorAll("button[data-unit-filter]").forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.unitFilter === mode)); });
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-unit-filter], [data-rows]");
    if (!b) return;
    if (b.dataset.rows) { document.querySelectorAll("details.unitrow[open]").forEach(function (d) { d.open = false; }); return; }
    localStorage.setItem(filterKey(), b.dataset.unitFilter);
    unitFilter();
  });
  document.addEventListener("DOMContentLoaded", unitFilter);
  document.addEventListener("htmx:afterSettle", unitFilter);

  // Nothing hides under the bottom dock (bar + result sheet): scrolling to a control stops above it,
  // and the page can scroll far enough to bring the last control above it.
  function dockRoom() {
    var dock = document.querySelector(".dock");
    var h = dock ? dock.getBoundingClientRect().height : 0;
    root.style.setProperty("--dock", Math.ceil(h) + "px");
    root.style.scrollPaddingBottom = h ? Math.ceil(h) + 8 + "px" : "";
  }
  document.addEventListener("DOMContentLoaded", dockRoom);
  document.addEventListener("htmx:afterSettle", dockRoom);
  document.addEventListener("click", function (e) { if (e.target.closest && e.target.closest("[data-dismiss]")) setTimeout(dockRoom, 0); });
  window.addEventListener("resize", dockRoom);

  // Keep the screen on while a table is open (Secretariat #151). The Wake Lock API exists only in
  // secure contexts, and phones reach the host at http://<LAN address>, which is not one: there the
  // muted looping inline video of nosleep.js (vendored, MIT) does it, started from the first tap.
  // Both are taken again when the page becomes visible (the browser lets go of them when hidden).
  var lock = null, video = null, failed = false;
  // ("ask": nothing holds the screen yet and a tap may start it, e.g. over plain http before the first
  // tap; the page says so: issue 28 §8)
  function awake(how) {
    document.body.dataset.awake = how;
    var mark = document.querySelector("[data-awake-mark]"), hint = document.querySelector("[data-awake-hint]");
    var ask = document.querySelector("[data-awake-ask]");
    if (mark) mark.hidden = how !== "lock" && how !== "video";
    if (hint) hint.hidden = how !== "none";
    if (ask) ask.hidden = how !== "ask";
  }
  function byVideo() {
    if (!window.NoSleep) { awake("none"); return; }
    if (!video) { video = new window.NoSleep(); window.companionNoSleep = video; }
    var v = video.noSleepVideo;
    if (v) { v.muted = true; v.setAttribute("muted", ""); }
    video.enable().then(function () { awake("video"); }, function () { failed = true; awake("none"); });
  }
  function wake(e) {
    if (!document.body || !document.body.hasAttribute("data-wakelock") || document.visibilityState !== "visible") return;
    if (!document.body.dataset.awake) awake("ask");  // until the lock or the video holds it
    if ("wakeLock" in navigator && !failed) {
      if (lock) return;
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        awake("lock");
        l.addEventListener("release", function () { lock = null; if (document.body.dataset.awake === "lock") awake("ask"); });
      }).catch(function () {
        // not allowed yet (no tap so far) or refused: the video from the next tap
        if (e && e.isTrusted && e.type !== "visibilitychange") { failed = true; byVideo(); }
      });
      return;
    }
    // the video may only start from a tap; it pauses while hidden and plays again on the next tap
    if (e && (e.type === "click" || e.type === "touchend") && !(video && video.isEnabled && !video.noSleepVideo.paused)) byVideo();
    else if (e && e.type === "visibilitychange" && video && video.isEnabled) video.noSleepVideo.play().catch(function () {});
  }
  document.addEventListener("DOMContentLoaded", wake);
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("click", wake, true);
  document.addEventListener("touchend", wake, true);
})();
