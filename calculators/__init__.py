"""Interactive calculators: pure standard-library Python, one module per calculator.

Each module declares its user interface as plain data (TITLE, INPUTS, OUTPUTS, PRESETS,
SOURCES, FIGURES) and offers one pure function ``compute(**inputs) -> dict``. The same files
run at build time in CPython and in the reader's browser in Pyodide, so they import nothing
outside the standard library (checked by ``calcview.check_browser_imports``).
"""
