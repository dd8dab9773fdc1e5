// The depth switcher: makes a topic's depth tabs (in the page, hidden without JavaScript) work
// as WAI-ARIA tabs. The reader picks a depth once; it is kept in localStorage and applied on
// every topic page. Before this script runs, the page's head script has already written the
// wanted depth onto <html data-lm-depth> and the stylesheet shows only that depth, so taking
// over moves nothing. A link into a depth (#depth-d4, a heading or exercise inside it) or a
// search hit for a term found only in one depth opens that depth; a link to a depth the topic
// lacks (#depth-d3) shows the nearest one with the notice that says so.
import { onPage } from "./boot.js";
import { searchWords, termsFound } from "./search-terms.js";

const STORAGE_KEY = "layermap.depth";
const DEPTH_KEY = /^D[1-5]$/;
const DEPTH_LINK = /^#depth-(d[1-5])(?:-|$)/i;  // as the head script reads it (depth_first_paint.py)

function storedDepth() {
  try {
    const key = localStorage.getItem(STORAGE_KEY);
    return DEPTH_KEY.test(key) ? key : null;
  } catch { return null; }
}

function storeDepth(key) {
  try { localStorage.setItem(STORAGE_KEY, key); } catch { /* private mode: keep it for this page */ }
}

// What the stylesheet reads before this script runs: kept current for instant navigation,
// where the head script does not run again.
function markWanted(key) {
  document.documentElement.dataset.lmDepth = key || "any";
  delete document.documentElement.dataset.lmDepthPending;
}

const sectionsOf = (container) => [...container.querySelectorAll(":scope > .lm-depth")];
const tabsOf = (container) => [...container.querySelectorAll(":scope > .lm-depth-tabs [role=tab]")];

// The section shown for a wanted depth: itself, or the nearest present one (worked out at build time).
function sectionFor(container, wanted) {
  return sectionsOf(container).find((section) => section.dataset.serves.split(" ").includes(wanted || "D1"));
}

// The tabs' row scrolls sideways on a narrow screen: the selected tab is brought into it.
function showTab(tablist, tab) {
  const row = tablist.getBoundingClientRect();
  const box = tab.getBoundingClientRect();
  if (box.left < row.left || box.right > row.right) tablist.scrollLeft += box.left - row.left - (row.width - box.width) / 2;
}

function select(container, section, wanted, { focus = false } = {}) {
  for (const tab of tabsOf(container)) {
    const on = tab.dataset.depth === section.dataset.depth;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
    if (on) showTab(tab.parentElement, tab);
  }
  for (const other of sectionsOf(container)) other.hidden = other !== section;
  for (const notice of container.querySelectorAll(".lm-depth-notice")) notice.hidden = notice.dataset.wanted !== wanted;
  markWanted(wanted);
  markContents();
}

function choose(container, tab, options) {
  storeDepth(tab.dataset.depth);
  select(container, sectionFor(container, tab.dataset.depth), tab.dataset.depth, options);
}

function onKey(event, container) {
  const tabs = tabsOf(container);
  const index = tabs.indexOf(document.activeElement);
  if (index < 0) return;
  const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  choose(container, tabs[(moves[event.key] + tabs.length) % tabs.length], { focus: true });
}

// The element the address points at, when it lies inside one of this topic's depths.
function hashTarget(container) {
  let id = "";
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return null; }
  const target = id && document.getElementById(id);
  return target && container.contains(target) && target.closest(".lm-depth") ? target : null;
}

// The words of a search hit. Material adds ?h=… to the links in its results, naming the words
// found in that part of the page; a page's own entry (its top) names none when the words are
// only further down, so then the words are those still in the search box.
function searchTerms() {
  const params = new URLSearchParams(location.search);
  if (!params.has("h")) return [];
  const query = params.get("h") || document.querySelector(".md-search__input")?.value || "";
  return searchWords(query);
}

// The section holding the most of a search hit's terms, when the wanted one holds fewer.
function sectionOfSearch(container, wantedSection) {
  const terms = searchTerms();
  if (!terms.length) return null;
  const score = (section) => termsFound(section.textContent, terms);
  const best = sectionsOf(container).reduce((a, b) => (score(b) > score(a) ? b : a), wantedSection);
  return score(best) > score(wantedSection) ? best : null;
}

// The depth a #depth-d3 link names, when this topic lacks it (the head script read it the same way).
function missingDepthLinked(container) {
  const link = DEPTH_LINK.exec(location.hash);
  const key = link?.[1].toUpperCase();
  return key && !sectionsOf(container).some((section) => section.dataset.depth === key) ? key : null;
}

function showAddressed(container) {
  const target = hashTarget(container);
  const missing = !target && missingDepthLinked(container);
  const stored = storedDepth();
  const wantedSection = sectionFor(container, missing || stored);
  const section = target?.closest(".lm-depth") || (!missing && sectionOfSearch(container, wantedSection)) || wantedSection;
  const hiddenBefore = target && !target.getClientRects().length;
  select(container, section, section === wantedSection ? missing || stored : section.dataset.depth);
  if (hiddenBefore) target.scrollIntoView();  // the browser or the theme looked for it while it was hidden
}

// --- the theme's table of contents and address, over hidden depths --------------------------------
// Material's table of contents follows every heading of the page, hidden ones too, and reckons a
// heading in a hidden depth to lie where the depths begin. So from the tabs down to the shown
// depth's first heading, it marks a hidden depth's last heading as the one being read, and its
// navigation.tracking writes that heading into the address (a reload would then open the other
// depth). Both are moved to the shown depth's title.

function shownTitleFor(id) {
  const target = id && document.getElementById(id);
  const hidden = target?.closest(".lm-depth[hidden]");
  const shown = hidden && sectionsOf(hidden.parentElement).find((section) => !section.hidden);
  return shown ? `${shown.id}-title` : null;
}

const linkTarget = (link) => {
  try { return decodeURIComponent(link.hash.slice(1)); } catch { return ""; }
};

function markContents() {
  for (const nav of document.querySelectorAll("[data-md-component=toc]")) {
    for (const active of nav.querySelectorAll(".md-nav__link--active")) {
      const title = shownTitleFor(linkTarget(active));
      const instead = title && [...nav.querySelectorAll(".md-nav__link")].find((link) => link.hash === `#${title}`);
      if (!instead) continue;
      active.classList.remove("md-nav__link--active");
      instead.classList.add("md-nav__link--active", "md-nav__link--passed");
    }
  }
}

const watchedContents = new WeakSet();
function watchContents() {
  for (const nav of document.querySelectorAll("[data-md-component=toc]")) {
    if (watchedContents.has(nav)) continue;
    watchedContents.add(nav);
    new MutationObserver(markContents).observe(nav, { subtree: true, attributes: true, attributeFilter: ["class"] });
  }
  markContents();
}

const replaceState = history.replaceState;
history.replaceState = function replaceAddress(...args) {
  const [state, unused, url] = args;
  if (url !== undefined && url !== null) {
    try {
      const next = new URL(url, location.href);
      const title = next.pathname === location.pathname && shownTitleFor(decodeURIComponent(next.hash.slice(1)));
      if (title) {
        next.hash = title;
        return replaceState.call(this, state, unused, next.href);
      }
    } catch { /* not an address this page can read: leave it to the browser */ }
  }
  return replaceState.apply(this, args);
};

function setUp(container) {
  if (container.dataset.ready || !sectionsOf(container).length) return;
  const tablist = container.querySelector(":scope > .lm-depth-tabs");
  tablist.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (tab) choose(container, tab);
  });
  tablist.addEventListener("keydown", (event) => onKey(event, container));
  for (const section of sectionsOf(container)) {
    section.setAttribute("role", "tabpanel");
    section.setAttribute("aria-labelledby", `tab-${section.id}`);
    section.tabIndex = 0;
  }
  document.querySelector(".lm-depth-index")?.setAttribute("hidden", "");
  showAddressed(container);
  tablist.hidden = false;
  container.dataset.ready = "true";
}

const containers = () => document.querySelectorAll(".lm-depths");

function setUpPage() {
  containers().forEach(setUp);
  if (containers().length) watchContents();
}

// A link to a place in another depth of the same page: open that depth.
function followAddress() {
  for (const container of containers()) {
    if (container.dataset.ready && hashTarget(container)) showAddressed(container);
  }
}

window.addEventListener("hashchange", followAddress);
onPage(setUpPage);
