// Module Web Worker that runs the calculators' Python (calcview + calculators/) in Pyodide,
// off the main thread. Everything is loaded from the site itself:
//   assets/pyodide/   the Pyodide runtime       assets/py/   our Python files (calcview/, calculators/)
// In a built site this worker runs from assets/layermap-<digest>/, a folder named after the bytes
// of layermap's scripts, stylesheet and Python (generator/emit/revisioned.py), and takes the Python
// from the copy in that folder (py/): a page of one deployment never runs another's Python, even
// while the browser still holds the other's files (GitHub Pages lets it reuse them ten minutes).
// Unversioned (assets/layermap/, `layermap serve`), it takes them from assets/py/.
// One worker serves every page of a reading session (calculator.js keeps it across instant
// navigation), so calculators arrive one at a time, as pages need them.
// Protocol: in  {type: "load", module, files}   a calculator's Python files, relative to the Python folder
//                                               (the page's data-python-files); each file is fetched once
//           in  {id, module, raw}           -> out {type: "result", id, json} | {type: "error", id, reason}
//           (json: calcview.evaluate's result as JSON text; one string crosses into and out of
//           Python and into the message, cheaper than converting and cloning nested objects)
//           out {type: "progress", text} while starting, then {type: "ready"} (the runtime is up and
//           every calculator asked for so far is installed) or {type: "failed", reason, unreachable,
//           notKept} (unreachable: the runtime's files could not be fetched, e.g. the network failed;
//           notKept: offline, and the site's service worker holds no copy of them)
const DIRECT_URL = new URL("../pyodide/", import.meta.url).href;
const SAVED_URL = new URL("../pyodide-saved/", import.meta.url).href;  // the service worker's saved copy
const SAVED_RUNTIME = "saved-runtime";  // this worker's name when it must use the saved copy (calc-runtime.js)
const PROBE = "pyodide.asm.wasm";  // the largest file: the first one a browser's cache lets go
const VERSIONED = /\/assets\/layermap-[0-9a-f]+\/$/.test(new URL("./", import.meta.url).pathname);
const PYTHON_URL = new URL(VERSIONED ? "py/" : "../py/", import.meta.url).href;
const PYTHON_ROOT = "/home/pyodide/layermap";
const MODULE_NAME = /^[a-z_][a-z0-9_]*$/;
const PYTHON_FILE = /^(calcview|calculators)\/[a-z_][a-z0-9_]*\.py$/;  // a name under PYTHON_URL, nothing else
const RUNTIME_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

const progress = (text) => postMessage({ type: "progress", text });
const sources = new Map();  // file name -> promise of its text, fetched once per worker
const installs = new Map();  // calculator name -> promise settled when its files are installed
const failedLoads = new Set();  // calculators whose files could not be fetched or installed
const written = new Set();  // files already in the Pyodide file system

// A file's headers come back at once from any server that is there: a network that gives no
// answer for this long is not going to (the page says so now, not after the start's 120 s).
const ANSWER_TIMEOUT_MS = 15_000;
// A look in the browser's own HTTP cache (only-if-cached) needs no network: it answers at once or
// not at all; past this, the runtime is taken to be not cached.
const CACHE_LOOK_TIMEOUT_MS = 2_000;

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

function source(name) {
  if (!sources.has(name)) {
    const text = fetchText(new URL(name, PYTHON_URL));
    text.catch(() => sources.delete(name));  // a later page may try again
    sources.set(name, text);
  }
  return sources.get(name);
}

// loadPyodide never settles when the wasm is missing, so check the runtime files alongside it
// and fail with the missing file's name.
class Unreachable extends Error {}

// Offline with no copy kept: said as such, and nothing is asked of a network that is not there.
class NotKept extends Unreachable {}

// Whether the site's service worker holds a copy of every runtime file (it checks each one's bytes
// when it serves it).
async function savedCopyHeld() {
  if (typeof caches === "undefined") return false;
  const names = ["pyodide.mjs", ...RUNTIME_FILES];
  const held = await Promise.all(names.map((name) => caches.match(DIRECT_URL + name).catch(() => undefined)));
  return held.every(Boolean);
}

// Where the runtime comes from: the browser's HTTP cache when it holds it (Chromium keeps the
// compiled wasm beside it, so the runtime starts fastest from there); else the site's service
// worker's saved copy; else the network. Offline, or when the page restarted this worker after the
// network failed (its name says so), the saved copy. (The name, not a query: a script the service
// worker answers from its cache has the cached copy's address.)
async function runtimeFolder() {
  if (navigator.onLine === false || self.name === SAVED_RUNTIME) {
    if (!(await savedCopyHeld())) throw new NotKept("the Python runtime is not kept in this browser");
    return SAVED_URL;
  }
  try {
    const cached = await fetch(DIRECT_URL + PROBE, { method: "HEAD", cache: "only-if-cached", mode: "same-origin",
                                                    signal: AbortSignal.timeout(CACHE_LOOK_TIMEOUT_MS) });
    if (cached.ok) return DIRECT_URL;
  } catch {
    // not in the browser's cache
  }
  const saved = typeof caches === "undefined" ? undefined : await caches.match(DIRECT_URL + PROBE).catch(() => undefined);
  return saved ? SAVED_URL : DIRECT_URL;
}

async function checkRuntimeFiles(folder) {
  const head = (name) => fetch(new URL(name, folder), { method: "HEAD", signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) }).catch((error) => {
    const why = error?.name === "TimeoutError" ? `no answer from the server in ${ANSWER_TIMEOUT_MS / 1000} s` : error.message;
    throw new Unreachable(`${name}: ${why}`);
  });
  const responses = await Promise.all(RUNTIME_FILES.map(head));
  const missing = responses.filter((response) => !response.ok);
  if (missing.length) throw new Unreachable(`missing ${missing.map((r) => `${r.url} (HTTP ${r.status})`).join(", ")}`);
}

async function startPyodide(folder) {
  let loaded;
  try {
    loaded = await import(`${folder}pyodide.mjs`);
  } catch (error) {
    throw new Unreachable(`pyodide.mjs: ${error.message}`);
  }
  return loaded.loadPyodide({ indexURL: folder, packageBaseUrl: folder });
}

async function loadRuntime() {
  const folder = await runtimeFolder();
  const [pyodide] = await Promise.all([startPyodide(folder), checkRuntimeFiles(folder)]);
  pyodide.globals.set("python_root", PYTHON_ROOT);
  const evaluate = pyodide.runPython(`
import importlib, sys
sys.path.insert(0, python_root)

def evaluate_request(module_name, raw_json):
    import calcview
    return calcview.evaluate_json(importlib.import_module("calculators." + module_name), raw_json)

evaluate_request
`);
  return { pyodide, evaluate };
}

const runtime = loadRuntime();
runtime.catch(() => {});  // reported by start()

// Files that are new to this worker go into the file system. The first install needs no cache
// invalidation (nothing has looked in the folder yet; importlib.invalidate_caches() would also
// import importlib.metadata, about 80 ms); later ones reset only our folders' finders.
function installFiles(pyodide, names, texts) {
  const fresh = names.map((name, index) => [name, texts[index]]).filter(([name]) => !written.has(name));
  if (!fresh.length) return;
  const firstInstall = written.size === 0;
  for (const [name, text] of fresh) {
    const path = `${PYTHON_ROOT}/${name}`;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, text);
    written.add(name);
  }
  pyodide.runPython(firstInstall ? "import calcview" : `
import sys
for folder, finder in list(sys.path_importer_cache.items()):
    if folder.startswith(python_root) and hasattr(finder, "invalidate_caches"):
        finder.invalidate_caches()
`);
}

// The files download while the runtime loads; only the install waits for it.
// A failed load stays (its reason answers the requests that need it) until the calculator is
// asked for again, e.g. by the next page that has it.
function load(module, files) {
  const odd = files.find((name) => !PYTHON_FILE.test(name));
  const texts = odd === undefined ? Promise.all(files.map(source)) : Promise.reject(new Error(`not a calculator file: ${odd}`));
  const installed = Promise.all([runtime, texts]).then(([{ pyodide }, loaded]) => installFiles(pyodide, files, loaded));
  failedLoads.delete(module);
  installed.catch(() => failedLoads.add(module));
  installs.set(module, installed);
}

async function start() {
  progress("loading the Python runtime");
  await runtime;
  progress("loading the calculator code");
  await Promise.all(installs.values());
}

start().then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "failed", reason: String(error?.message ?? error), unreachable: error instanceof Unreachable,
                          notKept: error instanceof NotKept }),
);

async function answer({ id, module, raw }) {
  try {
    if (!MODULE_NAME.test(module)) throw new Error(`not a calculator name: ${module}`);
    const { evaluate } = await runtime;
    await (installs.get(module) ?? Promise.reject(new Error(`the page did not load calculator ${module}`)));
    postMessage({ type: "result", id, json: evaluate(module, JSON.stringify(raw)) });
  } catch (error) {
    postMessage({ type: "error", id, reason: String(error?.message ?? error) });
  }
}

self.onmessage = ({ data }) => {
  if (data.type === "load") {
    const wanted = MODULE_NAME.test(data.module) && Array.isArray(data.files) && (!installs.has(data.module) || failedLoads.has(data.module));
    if (wanted) load(data.module, data.files);
    return;
  }
  answer(data);
};
