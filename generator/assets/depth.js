// The depth switcher: turns a topic's depth sections into WAI-ARIA tabs.
// The reader picks a depth once; it is kept in localStorage and applied on every
// topic page. Without JavaScript every depth stays visible as its own section.
const STORAGE_KEY = "layermap.depth";

function storedDepth() {
  try { return localStorage.getItem(STORAGE_KEY); } catch { return null; }
}

function storeDepth(key) {
  try { localStorage.setItem(STORAGE_KEY, key); } catch { /* private mode: keep it for this page */ }
}

function levelNames(container) {
  return Object.fromEntries(container.dataset.levels.split("|").map((pair) => pair.split(":")));
}

// The present depth closest to the wanted one (a tie goes to the gentler depth).
function nearestDepth(wanted, present) {
  if (!wanted || present.includes(wanted)) return wanted || present[0];
  const level = (key) => Number(key.slice(1));
  return [...present].sort((a, b) => Math.abs(level(a) - level(wanted)) - Math.abs(level(b) - level(wanted)) || level(a) - level(b))[0];
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function buildTabs(container, sections, names) {
  const tablist = document.createElement("div");
  tablist.className = "lm-depth-tabs";
  tablist.setAttribute("role", "tablist");
  tablist.setAttribute("aria-label", "Depth level");
  for (const section of sections) {
    const key = section.dataset.depth;
    const tab = document.createElement("button");
    tab.type = "button";
    tab.id = `tab-${section.id}`;
    tab.className = "lm-depth-tab";
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-controls", section.id);
    tab.dataset.depth = key;
    tab.append(span("lm-depth-key", key), " ", span("lm-depth-name", names[key] || ""));
    section.setAttribute("role", "tabpanel");
    section.setAttribute("aria-labelledby", tab.id);
    section.tabIndex = 0;
    tablist.append(tab);
  }
  const notice = document.createElement("p");
  notice.className = "lm-depth-notice";
  notice.setAttribute("role", "status");
  container.before(tablist, notice);
  return { tablist, notice };
}

function select(container, parts, key, { focus = false, wanted = key } = {}) {
  const names = levelNames(container);
  for (const tab of parts.tablist.querySelectorAll("[role=tab]")) {
    const on = tab.dataset.depth === key;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
  }
  for (const section of container.querySelectorAll(".lm-depth")) {
    section.hidden = section.dataset.depth !== key;
  }
  parts.notice.hidden = wanted === key;
  parts.notice.textContent = wanted === key ? "" :
    `This topic has no ${wanted} · ${names[wanted] || ""} yet, so it opens at ${key} · ${names[key] || ""}, the nearest depth. Your choice of ${wanted} is kept for other topics.`;
}

function onKey(event, container, parts) {
  const tabs = [...parts.tablist.querySelectorAll("[role=tab]")];
  const index = tabs.indexOf(document.activeElement);
  if (index < 0) return;
  const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const next = tabs[(moves[event.key] + tabs.length) % tabs.length];
  storeDepth(next.dataset.depth);
  select(container, parts, next.dataset.depth, { focus: true });
}

function depthOfHash(container) {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  return target && container.contains(target) ? target.closest(".lm-depth")?.dataset.depth : null;
}

function setUp(container) {
  if (container.dataset.ready) return;
  container.dataset.ready = "true";
  const sections = [...container.querySelectorAll(":scope > .lm-depth")];
  const present = sections.map((s) => s.dataset.depth);
  if (!present.length) return;
  document.querySelector(".lm-depth-index")?.setAttribute("hidden", "");
  const parts = buildTabs(container, sections, levelNames(container));
  parts.tablist.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (!tab) return;
    storeDepth(tab.dataset.depth);
    select(container, parts, tab.dataset.depth);
  });
  parts.tablist.addEventListener("keydown", (event) => onKey(event, container, parts));
  const show = () => {
    const fromHash = depthOfHash(container);
    const wanted = fromHash || storedDepth() || present[0];
    select(container, parts, nearestDepth(wanted, present), { wanted: present.includes(wanted) ? wanted : wanted });
  };
  show();
  window.addEventListener("hashchange", () => { if (container.isConnected && depthOfHash(container)) show(); });
}

function setUpPage() {
  document.querySelectorAll(".lm-depths").forEach(setUp);
}

if (window.document$) window.document$.subscribe(setUpPage);
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpPage);
else setUpPage();
