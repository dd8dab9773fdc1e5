"""The browser's Python (Pyodide 3.14, run here in Node) shows exactly what the build showed.

One implementation serves both: this runs calcview.evaluate on the same scenarios in CPython
and, through evaluate_json as the browser worker does, in Pyodide (with the files browser_files
lists, written into its file system the way the worker does) and compares every formatted
number, error and SVG string.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from calcview import browser_files, evaluate
from generator.calculation.port import calculator_module

REPO = Path(__file__).resolve().parents[2]
PYODIDE = REPO / "node_modules" / "pyodide" / "pyodide.mjs"
# (calculator, raw form text): defaults, typical moves, and refused input for each calculator.
SCENARIOS = [
    ("parallelism", {}),
    ("parallelism", {"tp": "8", "pp": "2"}),
    ("parallelism", {"pp": "8", "micro_batches": "128", "sharding": "everything", "dp": "16"}),
    ("parallelism", {"params": "405", "tokens": "15.6", "memory_per_accelerator": "192", "peak_flops": "1307.4", "utilisation": "0.38"}),
    ("parallelism", {"tp": "0"}),
    ("parallelism", {"params": "seventy"}),
    ("parallelism", {"utilisation": "1.5"}),
    ("allreduce", {}),
    ("allreduce", {"ring_size": "4096", "latency": "5", "params": "0.125", "model_split": "1", "overlap": "1"}),
    ("allreduce", {"gradient_type": "fp32", "bandwidth": "450", "compute_seconds": "0.2", "overlap": "0.5"}),
    ("allreduce", {"ring_size": "0"}),
    ("allreduce", {"model_split": "8", "ring_size": "126", "scale_up_domain": "72", "scale_up_bandwidth": "900", "reduction": "in_network"}),
    ("allreduce", {"params": "8", "model_split": "1", "ring_size": "1024", "phases": "one_after_another", "latency": "2"}),
    ("ownership", {}),
    ("ownership", {"utilisation": "0.9"}),
    ("ownership", {"utilisation": "0.05"}),
    ("ownership", {"pue": "0.9"}),
    ("ownership", {"rental_terms": "committed", "rental_price": "1.7", "cost_of_capital": "0.16", "lifetime_years": "8"}),
    ("serving", {}),
    ("serving", {"weight_precision": "fp8", "batch": "32", "requests_per_second": "100"}),
    ("serving", {"batch": "8", "context_tokens": "8192"}),
    ("serving", {"context_tokens": "0"}),
    ("local", {}),
    ("local", {"precision": "fp16", "hardware_price": "0"}),
    ("local", {"params": "70", "memory": "24", "bandwidth": "1008"}),
    ("local", {"hours_per_day": "25"}),
    ("scaling", {}),
    ("scaling", {"loss_fit": "besiroglu2024", "params": "8", "tokens": "15", "layers": "32", "d_model": "4096", "context": "8192"}),
    ("scaling", {"compute_budget": "1e27"}),
    ("scaling", {"tokens_per_param": "0"}),
]
SCRIPT = """
import { loadPyodide } from %(pyodide)s;
const files = %(files)s;
const scenarios = %(scenarios)s;
const pyodide = await loadPyodide();
for (const [name, text] of Object.entries(files)) {
  const path = "/home/pyodide/layermap/" + name;
  pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
  pyodide.FS.writeFile(path, text);
}
pyodide.globals.set("scenarios_json", JSON.stringify(scenarios));
const out = pyodide.runPython(`
import importlib, json, sys
sys.path.insert(0, "/home/pyodide/layermap")
importlib.invalidate_caches()
import calcview
"[" + ",".join(calcview.evaluate_json(importlib.import_module("calculators." + name), json.dumps(raw)) for name, raw in json.loads(scenarios_json)) + "]"
`);
process.stdout.write(out);
"""


@pytest.fixture(scope="module")
def pyodide_results(tmp_path_factory) -> list[dict]:
    if shutil.which("node") is None or not PYODIDE.is_file():
        pytest.skip("needs node and node_modules/pyodide (run `npm ci`)")
    files = {path.removeprefix("assets/py/"): source.read_text(encoding="utf-8") for path, source in browser_files(REPO).items()}
    script = tmp_path_factory.mktemp("parity") / "parity.mjs"
    script.write_text(SCRIPT % {"pyodide": json.dumps(PYODIDE.as_uri()), "files": json.dumps(files), "scenarios": json.dumps(SCENARIOS)}, encoding="utf-8")
    done = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("index", range(len(SCENARIOS)))
def test_pyodide_shows_what_cpython_showed(pyodide_results, index):
    name, raw = SCENARIOS[index]
    expected = json.loads(json.dumps(evaluate(calculator_module(name), raw)))
    actual = pyodide_results[index]
    assert actual["ok"] == expected["ok"]
    assert actual["display"] == expected["display"]
    assert actual["errors"] == expected["errors"]
    assert actual["figures"] == expected["figures"]
    assert actual["announcement"] == expected["announcement"]
