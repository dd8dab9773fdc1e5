// Fixes to Material's own parts. Accessible names its markup leaves out (found by axe-core):
// the search dialog.
import { onPage } from "./boot.js";

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
  nameSearchDialog();
  watchTopButton();
}

onPage(setUpPage);
