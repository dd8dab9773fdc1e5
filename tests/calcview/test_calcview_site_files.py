"""What the browser gets, and the guard against imports Pyodide cannot satisfy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from calcview import browser_files, calculator_python_files, check_browser_imports, python_file_names

REPO = Path(__file__).resolve().parents[2]


def test_browser_files_hold_both_packages_under_assets_py():
    files = browser_files(REPO)
    assert "assets/py/calcview/__init__.py" in files
    assert "assets/py/calculators/parallelism.py" in files
    assert "assets/py/calculators/__init__.py" in files
    assert all(path.startswith("assets/py/") and path.endswith(".py") for path in files)
    assert all(source.is_file() for source in files.values())


def test_build_time_modules_stay_out_of_the_browser():
    files = browser_files(REPO)
    assert "assets/py/calcview/form.py" not in files
    assert "assets/py/calcview/site_files.py" not in files
    assert "assets/py/calcview/evaluate.py" in files


def test_importing_calcview_loads_only_what_evaluate_needs():
    """The worker imports calcview; the form and file shipping load only when asked for.
    (json is allowed: Pyodide has imported it before our code runs, and evaluate_json needs it.)"""
    probe = (
        "import sys, calcview\n"
        "print(sorted(m for m in ('calcview.form', 'calcview.site_files', 'ast', 'shutil', 'html') if m in sys.modules))\n"
        "calcview.render_form\n"
        "print('calcview.form' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-I", "-c", probe], capture_output=True, text=True, cwd=REPO, check=True)
    assert result.stdout.split("\n")[:2] == ["[]", "True"]


def test_an_unknown_name_is_still_an_attribute_error():
    import calcview

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        calcview.nope  # noqa: B018


def test_python_file_names_are_the_browser_files_relative_to_assets_py():
    assert ["assets/py/" + name for name in python_file_names(REPO)] == list(browser_files(REPO))
    assert python_file_names() == python_file_names(REPO)  # defaults to where the packages live


def test_a_calculator_block_lists_calcview_its_module_and_the_helpers_it_imports_only():
    files = calculator_python_files("ownership", REPO)
    assert [f for f in files if f.startswith("calcview/")] == [f for f in python_file_names(REPO) if f.startswith("calcview/")]
    assert [f for f in files if f.startswith("calculators/")] == [
        "calculators/__init__.py", "calculators/_checks.py", "calculators/_datasheets.py",
        "calculators/ownership.py"]  # no _moe: it imports none
    assert "calculators/_moe.py" in calculator_python_files("parallelism", REPO)
    assert "calculators/ownership.py" not in calculator_python_files("parallelism", REPO)


def test_helpers_are_followed_through_relative_and_indirect_imports(tmp_path):
    package = tmp_path / "calculators"
    (tmp_path / "calcview").mkdir()
    package.mkdir()
    (tmp_path / "calcview" / "__init__.py").write_text("")
    sources = {
        "__init__.py": "",
        "main.py": "from . import _first\nfrom calculators import GIB\n",
        "_first.py": "from calculators._second import x\n",
        "_second.py": "import calculators._third\nx = 1\n",
        "_third.py": "",
        "_unused.py": "",
        "other.py": "",
    }
    for name, text in sources.items():
        (package / name).write_text(text)
    assert calculator_python_files("main", tmp_path) == [
        "calcview/__init__.py", "calculators/__init__.py", "calculators/_first.py", "calculators/_second.py",
        "calculators/_third.py", "calculators/main.py"]
    assert calculator_python_files("nope", tmp_path) == ["calcview/__init__.py", "calculators/__init__.py"]


def test_the_shipped_python_imports_only_the_standard_library():
    check_browser_imports(browser_files(REPO))


def test_guard_names_file_and_line_of_a_third_party_import(tmp_path):
    bad = tmp_path / "calc.py"
    bad.write_text("import math\n\nimport numpy as np\nfrom calcview import evaluate\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{bad}:3: imports 'numpy'"):
        check_browser_imports([bad])


def test_guard_refuses_stdlib_modules_pyodide_lacks_and_allows_relative_imports(tmp_path):
    bad = tmp_path / "calc.py"
    bad.write_text("from . import values\nimport subprocess\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r":2: imports 'subprocess'"):
        check_browser_imports({"assets/py/x.py": bad})


def test_guard_catches_imports_inside_functions(tmp_path):
    bad = tmp_path / "calc.py"
    bad.write_text("def f():\n    import yaml\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r":2: imports 'yaml'"):
        check_browser_imports([bad])
