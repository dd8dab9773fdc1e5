// Fixes to Material's own parts. Accessible names its markup leaves out (found by axe-core):
// the search dialog. Regions that scroll sideways reachable by keyboard. The address and scroll
// position of a page left while the theme was still saving the old one's.
import { onPage } from "./boot.js";

// --- a page left moments after a scroll --------------------------------------------------------
// Instant navigation pushes the next page's address as soon as a link is clicked, then fetches it.
// The theme saves the scroll offset into the current history entry 100 ms after a scroll, and
// navigation.tracking writes the heading in view into the address 250-500 ms after: either, when
// the reader clicked meanwhile, lands on the next page's entry (its address gets the old page's
// #anchor; its saved offset scrolls it to where the old page was). While the address names
// another page than the one shown, such a write belongs to the page being left, and is dropped.
let shownPath = location.pathname;
const replaceState = history.replaceState;
history.replaceState = function replaceShownEntry(...args) {
  if (location.pathname !== shownPath) return undefined;
  return replaceState.apply(this, args);
};

// --- regions that scroll sideways --------------------------------------------------------------
// A code block (the formulas), a table or a calculator's figure wider than the screen scrolls in
// its own box; a keyboard reader reaches it by Tab and scrolls it with the arrow keys. The theme
// makes a code block focusable only on screens with a pointer that hovers (and takes the focus off
// it again on a phone): here every such box takes the focus while it scrolls, with a role and a
// name that say what it is.
const SCROLLERS = [
  [".md-typeset pre > code", () => "Code, scrolls sideways"],
  [".md-typeset .md-typeset__scrollwrap", () => "Table, scrolls sideways"],
  [".lm-calc__figure-art", (box) => `${box.closest("figure")?.querySelector("figcaption")?.textContent.trim() || "Figure"}, scrolls sideways`],
];
const scrollerNamed = new WeakMap();

function keepReachable(box) {
  const scrolls = box.scrollWidth > box.clientWidth + 1;
  box.dataset.lmScrolls = String(scrolls);
  if (scrolls) {
    if (box.getAttribute("tabindex") !== "0") box.tabIndex = 0;
    if (box.getAttribute("role") !== "region") box.setAttribute("role", "region");
    if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", scrollerNamed.get(box)(box));
  } else {
    for (const name of ["tabindex", "role", "aria-label"]) if (box.hasAttribute(name)) box.removeAttribute(name);
  }
}

const scrollerSizes = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => { for (const entry of entries) keepReachable(entry.target); })
  : null;
// The theme's own code-block watcher removes a tabindex when it sees the block scroll on a phone.
const scrollerFocus = new MutationObserver((records) => {
  for (const { target } of records) if (target.dataset.lmScrolls === "true" && target.getAttribute("tabindex") !== "0") keepReachable(target);
});

function watchScrollers() {
  for (const [selector, name] of SCROLLERS) {
    for (const box of document.querySelectorAll(selector)) {
      if (scrollerNamed.has(box)) continue;
      scrollerNamed.set(box, name);
      keepReachable(box);
      scrollerSizes?.observe(box);
      scrollerFocus.observe(box, { attributes: true, attributeFilter: ["tabindex"] });
    }
  }
}

function nameSearchDialog() {
  const dialog = document.querySelector(".md-search[role=dialog]");
  if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", "Search this site");
}

// Material's "Back to top" button floats under the header while the reader scrolls up. It never
// covers a control: whenever something a reader presses, types in or reads as a control (a link,
// a field, the drawn map and its buttons, a calculator, the exercise player) lies under it, it
// stays hidden (.lm-top-covering in layermap.css) until the page moves on.
const CONTROLS = "a[href], button, input, select, textarea, summary, label, [role=tab], .lm-map-frame, .lm-map-tools, .lm-calc, .lm-player";

function controlUnder(button) {
  const box = button.getBoundingClientRect();
  if (!box.width) return false;
  const xs = [box.left + 1, box.left + box.width / 2, box.right - 1];
  const ys = [box.top + 1, box.top + box.height / 2, box.bottom - 1];
  return xs.some((x) => ys.some((y) => document.elementsFromPoint(x, y).some(
    (el) => el !== button && !button.contains(el) && el.closest(CONTROLS))));
}

let checkQueued = false;
function keepTopButtonOffControls() {
  if (checkQueued) return;
  checkQueued = true;
  requestAnimationFrame(() => {
    checkQueued = false;
    const button = document.querySelector(".md-top");
    if (button && !button.hidden) button.classList.toggle("lm-top-covering", controlUnder(button));
  });
}

function watchTopButton() {
  const button = document.querySelector(".md-top");
  if (!button || button.dataset.lmWatched) return;
  button.dataset.lmWatched = "true";
  new MutationObserver(keepTopButtonOffControls).observe(button, { attributes: true, attributeFilter: ["hidden"] });
  keepTopButtonOffControls();
}

window.addEventListener("scroll", keepTopButtonOffControls, { passive: true });
window.addEventListener("resize", keepTopButtonOffControls, { passive: true });

function setUpPage() {
  shownPath = location.pathname;
  nameSearchDialog();
  watchTopButton();
  watchScrollers();
}

onPage(setUpPage);
