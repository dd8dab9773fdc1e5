"""An import-linter contract type: the given packages import nothing outside the standard library.

calculators/ and calcview/ run unchanged in Pyodide, whose standard library is all they may count on.
Registered in pyproject.toml (``[tool.importlinter] contract_types``); run by ``lint-imports``.
"""

from __future__ import annotations

import sys

from importlinter import Contract, ContractCheck, fields, output

STANDARD_LIBRARY = set(sys.stdlib_module_names) | {"__future__"}


class StdlibOnlyContract(Contract):
    type_name = "stdlib_only"
    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph, verbose: bool) -> ContractCheck:  # noqa: ANN001 - grimp's ImportGraph
        roots = set(self.session_options["root_packages"])
        outside = []
        for package in self.packages:  # type: ignore[attr-defined]
            for module in sorted(graph.find_descendants(package) | {package}):
                for imported in sorted(graph.find_modules_directly_imported_by(module)):
                    top = imported.split(".")[0]
                    if top not in STANDARD_LIBRARY and top not in roots:
                        outside.append((module, imported))
                    elif top in roots and top != package:
                        outside.append((module, imported))
        return ContractCheck(kept=not outside, metadata={"outside": outside})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for module, imported in check.metadata["outside"]:
            output.print_error(f"{module} imports {imported}, which is not in the standard library")
            output.new_line()
