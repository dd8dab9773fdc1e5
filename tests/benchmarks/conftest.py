"""The benchmark scripts import their sibling modules (``scale_*.py``) by name, as they do when run
from ``benchmarks/``: put that folder on the path for the tests of their pure parts."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
