// How new a board is (its seq) and what an answer or a pushed step brings. Pure: tests/js/seq.test.js.

// an answer's seq: X-Board-Seq (only the parts that changed), else its whole board's own
export function answerSeq(header, html) {
  if (header) return +header;
  const m = /id="board" data-seq="(\d+)"/.exec(html || "");
  return m ? +m[1] : null;
}
// a poll's answer no newer than the board shown is dropped (it would take away what a tap's answer showed)
export const stale = (seq, shown) => seq !== null && seq <= shown;
// an action's answer drawn before the board shown still goes in; the board then asks for what changed
export const behind = (seq, shown) => seq !== null && seq < shown;
// the board polls from the seq it shows, not the one it was drawn at
export const pollPath = (path, seq) => path.replace(/([?&]seq=)\d+/, "$1" + seq);

// A pushed step: "since to" on its first line, then the parts that changed since the board at "since".
export function parseStep(data) {
  const cut = data.indexOf("\n"), head = (cut < 0 ? data : data.slice(0, cut)).split(" ");
  return {since: +head[0], to: +head[1], parts: cut < 0 ? null : data.slice(cut + 1)};
}
// what a board at seq does with it: "have" it already, "ask" for it (a change missed), "swap" its parts in
export function stepFate(seq, step) {
  if (step.to <= seq) return "have";
  return step.parts === null || seq < step.since ? "ask" : "swap";
}
// an event's seq: a plain event's data, a step's "to"
export function eventSeq(data) {
  const head = String(data || "").split("\n", 1)[0].split(" ");
  return +(head.length > 1 ? head[1] : head[0]) || 0;
}
// a board at "shown" asks for what the stream told of, once per (shown, told): the key to keep, or null
export function askKey(told, shown, asked) {
  const key = shown + ":" + told;
  return told > shown && key !== asked ? key : null;
}
