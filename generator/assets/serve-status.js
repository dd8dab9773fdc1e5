// Serve only (`layermap serve`): shows over the page the problems that stopped the last
// regeneration, read from serve-status.json, and takes them away once the content is good again.
// The status is read when the page opens and every second while the tab is visible.
import { onPage } from "./boot.js";
import { heading, problemsOf, sameProblems } from "./serve-problems.js";

const STATUS_URL = new URL("serve-status.json", import.meta.url);
const EVERY_MS = 1000;
let shown = null; // the problems on screen (or hidden by the reader), null when none
let overlay = null;
let focusBefore = null;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function problemItem({ where, what, fix }) {
  const item = element("li", "lm-serve-problem");
  if (where) item.append(element("code", "lm-serve-where", where));
  item.append(element("p", "lm-serve-what", what));
  if (fix) item.append(element("p", "lm-serve-fix", fix));
  return item;
}

function hide() {
  overlay?.remove();
  overlay = null;
  if (focusBefore?.isConnected) focusBefore.focus();
  focusBefore = null;
}

function show(problems) {
  hide();
  const box = element("section", "lm-serve-overlay");
  box.setAttribute("role", "alertdialog");
  box.setAttribute("aria-labelledby", "lm-serve-heading");
  box.setAttribute("aria-describedby", "lm-serve-list");
  const title = element("h2", "lm-serve-heading", heading(problems.length));
  title.id = "lm-serve-heading";
  title.tabIndex = -1;
  const list = element("ol", "lm-serve-list");
  list.id = "lm-serve-list";
  list.append(...problems.map(problemItem));
  const close = element("button", "lm-serve-hide", "Hide");
  close.type = "button";
  close.addEventListener("click", hide);
  box.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  box.append(title, list, close);
  document.body.append(box);
  overlay = box;
  focusBefore = document.activeElement;
  close.focus();
}

function update(status) {
  const problems = problemsOf(status);
  if (!problems.length) {
    shown = null;
    hide();
  } else if (!sameProblems(problems, shown)) {
    shown = problems;
    show(problems);
  }
}

async function check() {
  try {
    const response = await fetch(STATUS_URL, { cache: "no-store" });
    if (response.ok) update(await response.json());
  } catch {
    // the server is restarting or gone: keep what is shown and ask again
  }
}

let started = false;
function start() {
  check(); // each page the reader opens
  if (started) return;
  started = true;
  setInterval(() => { if (document.visibilityState === "visible") check(); }, EVERY_MS);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") check(); });
}

onPage(start);
