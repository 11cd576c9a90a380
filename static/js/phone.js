// The phone's script, on every page (htmx does the rest): a module per concern, installed with the one
// object they share: root (<html>) and link (in touch with the host: connection.js, push.js). A module
// keeps its own state in its install(). This order is the order they hear an event.
import * as anchor from "./anchor.js";
import * as ask from "./ask.js";
import * as boardSeq from "./board-seq.js";
import * as cards from "./cards.js";
import * as clear from "./clear.js";
import * as connection from "./connection.js";
import * as dock from "./dock.js";
import * as filter from "./filter.js";
import * as forms from "./forms.js";
import * as helpers from "./helpers.js";
import * as keepTyped from "./keep-typed.js";
import * as links from "./links.js";
import * as pageOpen from "./page-open.js";
import * as push from "./push.js";
import * as ruleTables from "./rule-tables.js";
import * as steppers from "./steppers.js";
import * as theme from "./theme.js";
import * as units from "./units.js";
import * as wakeLock from "./wake-lock.js";

const page = {root: document.documentElement, link: null};
for (const m of [theme, units, pageOpen, ask, keepTyped, clear, forms, links, steppers, dock, anchor, helpers,
  boardSeq, cards, ruleTables, filter, wakeLock, connection, push]) m.install(page);
