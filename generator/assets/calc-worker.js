// Module Web Worker that runs the calculators' Python (calcview + calculators/) in Pyodide,
// off the main thread. Everything is loaded from the site itself:
//   assets/pyodide/   the Pyodide runtime       assets/py/   our Python files (calcview/, calculators/)
// Protocol: in  {type: "init", files}  first: Python files to fetch, relative to assets/py/
//           in  {id, module, raw}           -> out {type: "result", id, json} | {type: "error", id, reason}
//           (json: calcview.evaluate's result as JSON text; one string crosses into and out of
//           Python and into the message, cheaper than converting and cloning nested objects)
//           out {type: "progress", text} while starting, then {type: "ready"} or {type: "failed", reason}
import { loadPyodide } from "../pyodide/pyodide.mjs";

const PYODIDE_URL = new URL("../pyodide/", import.meta.url).href;
const PYTHON_URL = new URL("../py/", import.meta.url).href;
const PYTHON_ROOT = "/home/pyodide/layermap";
const MODULE_NAME = /^[a-z_][a-z0-9_]*$/;
const RUNTIME_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

const progress = (text) => postMessage({ type: "progress", text });
let receiveFileList;
const fileList = new Promise((resolve) => { receiveFileList = resolve; });

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

// loadPyodide never settles when the wasm is missing, so check the runtime files alongside it
// and fail with the missing file's name.
async function checkRuntimeFiles() {
  const responses = await Promise.all(RUNTIME_FILES.map((name) => fetch(new URL(name, PYODIDE_URL), { method: "HEAD" })));
  const missing = responses.filter((response) => !response.ok);
  if (missing.length) throw new Error(`missing ${missing.map((r) => `${r.url} (HTTP ${r.status})`).join(", ")}`);
}

async function fetchPythonFiles() {
  const files = await fileList;
  const sources = await Promise.all(files.map((name) => fetchText(new URL(name, PYTHON_URL))));
  return files.map((name, index) => [name, sources[index]]);
}

function installPythonFiles(pyodide, files) {
  for (const [name, source] of files) {
    const path = `${PYTHON_ROOT}/${name}`;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, source);
  }
  // No importlib.invalidate_caches(): nothing has looked in the new folder yet, and the call
  // would import importlib.metadata (about 80 ms here).
  pyodide.globals.set("python_root", PYTHON_ROOT);
  return pyodide.runPython(`
import importlib, sys
if python_root not in sys.path:
    sys.path.insert(0, python_root)
import calcview

def evaluate_request(module_name, raw_json):
    return calcview.evaluate_json(importlib.import_module("calculators." + module_name), raw_json)

evaluate_request
`);
}

// The runtime check, the runtime and our Python files load side by side; only the install
// and the import of calcview wait for the runtime.
async function start() {
  progress("loading the Python runtime");
  const pythonFiles = fetchPythonFiles();
  pythonFiles.catch(() => {});  // reported below, once the runtime is up
  const [pyodide] = await Promise.all([loadPyodide({ indexURL: PYODIDE_URL, packageBaseUrl: PYODIDE_URL }), checkRuntimeFiles()]);
  progress("loading the calculator code");
  const evaluate = installPythonFiles(pyodide, await pythonFiles);
  return { evaluate };
}

const ready = start();
ready.then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "failed", reason: String(error?.message ?? error) }),
);

self.onmessage = async ({ data: { type, files, id, module, raw } }) => {
  if (type === "init") return receiveFileList(files);
  try {
    const { evaluate } = await ready;
    if (!MODULE_NAME.test(module)) throw new Error(`not a calculator name: ${module}`);
    postMessage({ type: "result", id, json: evaluate(module, JSON.stringify(raw)) });
  } catch (error) {
    postMessage({ type: "error", id, reason: String(error?.message ?? error) });
  }
};
