// What a page does as it opens.
import {one, on} from "./dom.js";

export function install() {
  on("DOMContentLoaded", () => {
    // a join page's address carries the table's secret: the history keeps the table's own address instead
    const to = one("[data-replace-url]")?.getAttribute("data-replace-url");
    if (to && window.history?.replaceState) history.replaceState(null, "", to);
    // the log drawn again with a take-back refused (a later move needs it) opens at that move, its
    // sentence and "Take back both" in view (issue 40 §8)
    one("ol.log details.fix[open] .err-text")?.closest("details").scrollIntoView({block: "center"});
  });
}
