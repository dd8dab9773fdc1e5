// Bare baseline worker: load Pyodide from the site's own copy, then say "ready".
import { loadPyodide } from "/assets/pyodide/pyodide.mjs";

await loadPyodide({ indexURL: "/assets/pyodide/" });
postMessage("ready");
