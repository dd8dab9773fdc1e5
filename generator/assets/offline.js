// Offline reading. Registers the site's service worker (sw.js at the site's root, built with
// Workbox: it precaches every page, asset and the search index, so one visit is enough to read and
// search offline); on a page with a calculator, has it keep the calculator runtime in the
// background; puts a "Save for offline" control (button and what this browser holds, as the worker
// finds it) at the end of the navigation and in the footer, which has the worker fetch everything
// with progress in bytes; says in the header when the reader is offline and when a new version is
// ready (each notice dismissable, over the header's title, never over the page): the new worker
// waits until the reader presses Reload, and a page never shows one version's shell with
// another's content.
import { onPage } from "./boot.js";
import { calculatorsSettled } from "./calc-runtime.js";

const WORKER_URL = new URL("../../sw.js", import.meta.url);
const UPDATE_CHECK_MS = 60_000;
const CALCULATOR_WAIT_MS = 30_000;  // the longest a calculator page holds the worker back
const canWork = "serviceWorker" in navigator;
const isServed = location.protocol === "http:" || location.protocol === "https:";
const UPDATE_DISMISSED = "layermap.update-dismissed";  // sessionStorage: not asked again in this tab

let statusText = "";
let saving = false;
let lastUpdateCheck = Date.now();
let offlineDismissed = false;
let registered = false;  // the worker is active for this page

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

// --- notices: offline, new version (in the header, over its title; each can be dismissed) ----------

function noticeArea() {
  let area = document.querySelector(".layermap-notices");
  if (!area) {
    area = element("div", "layermap-notices");
    area.setAttribute("role", "status");
    area.setAttribute("aria-live", "polite");
    area.addEventListener("keydown", (event) => {
      if (event.key === "Escape") event.target.closest(".layermap-notice")?.querySelector(".layermap-notice__dismiss")?.click();
    });
  }
  // In the header (never over the page); a bare page without the theme's header: at the top of the body.
  const place = document.querySelector(".md-header__ellipsis") ?? document.body;
  if (area.parentElement !== place) place.prepend(area);
  return area;
}

function showNotice(kind, text, action, onDismiss) {
  hideNotice(kind);
  const notice = element("p", `layermap-notice layermap-notice--${kind}`);
  notice.append(element("span", "layermap-notice__text", text));
  if (action) {
    const button = element("button", "layermap-notice__action", action.label);
    button.type = "button";
    button.addEventListener("click", action.run);
    notice.append(button);
  }
  const dismiss = element("button", "layermap-notice__dismiss", "×");
  dismiss.type = "button";
  dismiss.setAttribute("aria-label", "Dismiss this notice");
  dismiss.title = "Dismiss (Escape)";
  dismiss.addEventListener("click", () => {
    hideNotice(kind);
    onDismiss?.();
  });
  notice.append(dismiss);
  noticeArea().append(notice);
}

function hideNotice(kind) {
  document.querySelector(`.layermap-notice--${kind}`)?.remove();
}

function showConnection(event) {
  if (event) offlineDismissed = false;  // a change of connection is news again
  if (navigator.onLine || offlineDismissed) hideNotice("offline");
  else showNotice("offline", "Offline: reading the copy kept in this browser.", null, () => { offlineDismissed = true; });
}

// --- Save for offline (at the end of the navigation and in the footer of every page) ---------------

// One live region, the footer's, and only once the reader saves: what is held shows on every page,
// unannounced.
const FOOTER_STATUS = ".layermap-offline--footer .layermap-offline__status";

function setStatus(text) {
  statusText = text;
  if (saving) document.querySelector(FOOTER_STATUS)?.setAttribute("role", "status");
  for (const status of document.querySelectorAll(".layermap-offline__status")) status.textContent = text;
  for (const button of document.querySelectorAll(".layermap-offline__save")) button.disabled = saving;
}

function onSaveMessage({ data }) {
  saving = data.type === "progress";
  if (data.type === "progress") setStatus(`Saving: ${megabytes(data.done)} of ${megabytes(data.total)}`);
  if (data.type === "done") setStatus(`Saved: all ${megabytes(data.total)}. Every page, search and the calculators now work offline in this browser.`);
  if (data.type === "failed") setStatus(`Saving stopped at ${megabytes(data.done)} of ${megabytes(data.total)} (${data.reason}). Try again when online.`);
}

async function askWorker(type, onMessage) {
  const registration = await navigator.serviceWorker.ready;
  const channel = new MessageChannel();
  channel.port1.onmessage = onMessage;
  registration.active.postMessage({ type }, [channel.port2]);
}

async function saveForOffline() {
  if (saving) return;
  saving = true;
  setStatus("Saving: preparing the file list");
  try {
    await navigator.serviceWorker.register(WORKER_URL);  // already registered: resolves at once
    await askWorker("SAVE_FOR_OFFLINE", onSaveMessage);
  } catch (error) {
    saving = false;
    setStatus(`Could not save: this copy of the site has no service worker (${error.message}).`);
  }
}

// What this browser holds, as the worker found it (each file present and its bytes this build's).
function describeHeld({ pages, runtime }) {
  const calculators = runtime.total > 0;
  if (pages.files === pages.total && runtime.files === runtime.total) {
    return `Works offline in this browser: every page, search${calculators ? " and the calculators" : ""}.`;
  }
  if (pages.files === pages.total && keepingRuntime) {
    return "Works offline in this browser: every page and search; keeping the calculators too, in the background.";
  }
  if (pages.files === pages.total) {
    return `Works offline in this browser: every page and search; the calculators need “Save for offline” (${megabytes(runtime.totalBytes - runtime.bytes)}).`;
  }
  if (pages.files === 0 && runtime.files === 0) return "Not saved for offline in this browser yet.";
  const missing = pages.total - pages.files + runtime.total - runtime.files;
  const bytes = megabytes(pages.totalBytes - pages.bytes + runtime.totalBytes - runtime.bytes);
  return `Not all saved for offline: ${missing === 1 ? `1 file (${bytes}) is` : `${missing} files (${bytes}) are`} missing.`;
}

function showHeld() {
  askWorker("OFFLINE_STATUS", ({ data }) => {
    if (!saving && data.type === "status") setStatus(describeHeld(data));
  }).catch(() => {});
}

let controlCount = 0;

function saveControl(place) {
  const control = element("div", `layermap-offline layermap-offline--${place}`);
  const status = element("span", "layermap-offline__status", statusText);
  status.id = `layermap-offline-status-${++controlCount}`;
  if (place === "footer" && saving) status.setAttribute("role", "status");
  if (canWork) {
    const button = element("button", "layermap-offline__save", "Save for offline");
    button.type = "button";
    button.disabled = saving;
    button.setAttribute("aria-describedby", status.id);
    button.addEventListener("click", saveForOffline);
    control.append(button);
  } else {
    status.textContent = "This browser cannot keep a copy of the site for offline reading.";
  }
  control.append(status);
  return control;
}

// Appended at the end of the footer and of the navigation's top list (the sidebar, or the drawer
// on a phone): nothing on the page moves when they appear.
function addSaveControls() {
  const footer = document.querySelector(".md-footer-meta__inner");
  if (footer && !footer.querySelector(".layermap-offline")) footer.append(saveControl("footer"));
  const navigation = document.querySelector(".md-sidebar--primary .md-nav--primary > .md-nav__list");
  if (navigation && !navigation.querySelector(".layermap-offline")) {
    const item = element("li", "md-nav__item layermap-offline__item");
    item.append(saveControl("navigation"));
    navigation.append(item);
  }
}

// --- the worker and new versions ---------------------------------------------------------------

function updateDismissed() {
  try {
    return sessionStorage.getItem(UPDATE_DISMISSED) === "1";
  } catch {
    return false;
  }
}

function announceUpdate(worker) {
  if (updateDismissed()) return;
  showNotice("update", "A new version is available.", {
    label: "Reload",
    run: () => worker.postMessage({ type: "SKIP_WAITING" }),
  }, () => {
    try {
      sessionStorage.setItem(UPDATE_DISMISSED, "1");  // until this tab closes, which lets the new version take over
    } catch {
      // storage refused: dismissed on this page only
    }
  });
}

function watchForUpdates(registration) {
  if (registration.waiting && navigator.serviceWorker.controller) announceUpdate(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) announceUpdate(worker);
    });
  });
}

// A page that was served by one version reloads when another takes over (here or in another
// tab), so it never mixes the two; the very first install only starts serving this page.
function reloadOnNewController() {
  let controlled = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controlled) location.reload();
    controlled = true;
  });
}

// A reader who has been on a calculator page can use it offline: the worker keeps the runtime in
// the background (from the browser's HTTP cache when the calculator has just loaded it), once per visit.
let runtimeAsked = false;
let keepingRuntime = false;
function keepRuntimeIfCalculators() {
  if (runtimeAsked || !document.querySelector(".lm-calc") || !navigator.onLine) return;
  runtimeAsked = true;
  keepingRuntime = true;
  askWorker("KEEP_RUNTIME", () => {
    keepingRuntime = false;
    showHeld();
  }).catch(() => {
    runtimeAsked = false;
    keepingRuntime = false;
  });
}

async function register() {
  try {
    const registration = await navigator.serviceWorker.register(WORKER_URL);
    watchForUpdates(registration);
    await navigator.serviceWorker.ready;
    registered = true;
    keepRuntimeIfCalculators();
    showHeld();
  } catch {
    // No sw.js here (e.g. `layermap serve`): drop a worker left by an earlier build on this address.
    const stale = await navigator.serviceWorker.getRegistration(WORKER_URL);
    if (stale) await stale.unregister();
  }
}

function checkForUpdate() {
  if (!navigator.onLine || Date.now() - lastUpdateCheck < UPDATE_CHECK_MS) return;
  lastUpdateCheck = Date.now();
  navigator.serviceWorker.getRegistration(WORKER_URL).then((registration) => registration?.update()).catch(() => {});
}

// After the page has loaded, so that precaching the site never competes with the page itself;
// on a page with a calculator, also after its runtime has started (on a first visit the worker's
// install slowed Pyodide's start by about 0.9 s: benchmarks/CALCULATOR_RESULTS.md), or failed,
// or CALCULATOR_WAIT_MS passed (a calculator that never started: the runtime is kept anyway).
function afterPageAndCalculators(run) {
  const afterCalculators = () => Promise.race([calculatorsSettled(), new Promise((wait) => setTimeout(wait, CALCULATOR_WAIT_MS))]).then(run);
  if (document.readyState === "complete") afterCalculators();
  else addEventListener("load", afterCalculators, { once: true });
}

function setUpPage() {
  addSaveControls();
  if (document.querySelector(".layermap-notices")) noticeArea();  // into this page's header (instant navigation)
  if (!canWork) return;
  checkForUpdate();
  if (registered) afterPageAndCalculators(keepRuntimeIfCalculators);
}

if (isServed) {
  if (canWork) {
    reloadOnNewController();
    afterPageAndCalculators(register);
  }
  addEventListener("online", showConnection);
  addEventListener("offline", showConnection);
  showConnection();
  onPage(setUpPage);
}
