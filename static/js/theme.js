// The theme chosen with ◐, remembered on this phone; the browser's chrome takes its background.
import {all, on} from "./dom.js";

export function install({root}) {
  const colour = () => {
    if (root.dataset.theme) for (const m of all("meta[name=theme-color]")) m.content = root.dataset.theme === "dark" ? "#121417" : "#f4f1ea";
  };
  const saved = localStorage.getItem("companion-theme");
  if (saved) root.dataset.theme = saved;
  on("DOMContentLoaded", colour);
  on("click", (e) => {
    if (!e.target.closest("[data-theme-toggle]")) return;
    const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.theme = dark ? "light" : "dark";
    localStorage.setItem("companion-theme", root.dataset.theme);
    colour();
  });
}
