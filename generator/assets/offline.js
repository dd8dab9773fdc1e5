// Offline reading. Registers the site's service worker (sw.js at the site's root, built with
// Workbox: it precaches every page, asset and the search index, so one visit is enough to read and
// search offline); on a page with a calculator, has it keep the calculator runtime in the
// background; puts a "Save for offline" control in the footer (button, and what this browser holds
// as the worker finds it) that has the worker fetch every page and the calculator runtime with
// progress; shows a notice while the reader is offline, and says when a new version is ready: the
// new worker waits until the reader presses Reload, and a page never shows one version's shell
// with another's content.
import { onPage } from "./boot.js";
import { calculatorsSettled } from "./calc-runtime.js";

const WORKER_URL = new URL("../../sw.js", import.meta.url);
const UPDATE_CHECK_MS = 60_000;
const CALCULATOR_WAIT_MS = 30_000;  // the longest a calculator page holds the worker back
const canWork = "serviceWorker" in navigator;
const isServed = location.protocol === "http:" || location.protocol === "https:";

let statusText = "";
let saving = false;
let lastUpdateCheck = Date.now();
let registered = false;  // the worker is active for this page

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

// --- notices: offline, new version (fixed, so nothing on the page moves) -------------------------

function noticeArea() {
  let area = document.querySelector(".layermap-notices");
  if (!area) {
    area = element("div", "layermap-notices");
    area.setAttribute("role", "status");
    area.setAttribute("aria-live", "polite");
    document.body.append(area);
  }
  return area;
}

function showNotice(kind, text, action) {
  hideNotice(kind);
  const notice = element("p", `layermap-notice layermap-notice--${kind}`, text);
  if (action) {
    const button = element("button", "layermap-notice__action", action.label);
    button.type = "button";
    button.addEventListener("click", action.run);
    notice.append(button);
  }
  noticeArea().append(notice);
}

function hideNotice(kind) {
  document.querySelector(`.layermap-notice--${kind}`)?.remove();
}

function showConnection() {
  if (navigator.onLine) hideNotice("offline");
  else showNotice("offline", "You are offline: pages come from the copy kept in this browser.");
}

// --- Save for offline (in the footer of every page) --------------------------------------------

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function setStatus(text) {
  statusText = text;
  const status = document.querySelector(".layermap-offline__status");
  if (status) {
    status.textContent = text;
    if (saving) status.setAttribute("role", "status");  // saving is announced; what is held shows, unannounced, on every page
  }
  const button = document.querySelector(".layermap-offline__save");
  if (button) button.disabled = saving;
}

function onSaveMessage({ data }) {
  if (data.type === "progress") setStatus(`Saving: ${data.done} of ${data.total} files`);
  saving = data.type === "progress";
  if (data.type === "done") setStatus(`Saved: all ${data.total} files. This site now works offline in this browser.`);
  if (data.type === "failed") setStatus(`Saving stopped at ${data.done} of ${data.total} files (${data.reason}). Try again when online.`);
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

function addSaveControl() {
  const footer = document.querySelector(".md-footer-meta__inner");
  if (!footer || footer.querySelector(".layermap-offline")) return;
  const control = element("div", "layermap-offline");
  const status = element("span", "layermap-offline__status", statusText);
  status.id = "layermap-offline-status";
  if (saving) status.setAttribute("role", "status");
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
  footer.append(control);
}

// --- the worker and new versions ---------------------------------------------------------------

function announceUpdate(worker) {
  showNotice("update", "A new version is available — ", {
    label: "Reload",
    run: () => worker.postMessage({ type: "SKIP_WAITING" }),
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
  addSaveControl();
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
