"""Calculator declarations are checked at `layermap check` time, at the line of the calculator's file
that declares the mistake, naming the field, what is wrong and the fix (never an internal error)."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mini_project import MiniProject

import calculators
from generator.calculation.port import calculator_names
from generator.checks.calculator_declarations import check_calculator, check_calculators
from generator.cli import main

PROBE = '''\
TITLE = "Probe calculator"
INPUTS = [
    {"name": "size", "label": "Size", "unit": "GB", "control": "number", "min": 1, "max": 100, "step": 1, "default": 10},
    {"name": "mode", "label": "Mode", "control": "select", "default": "fast",
     "options": [{"value": "fast", "label": "Fast"}, {"value": "slow", "label": "Slow"}]},
]
OUTPUTS = [{"name": "double", "label": "Double", "format": "number"}]
PRESETS = [
    {"name": "sizes", "label": "Size", "fields": ["size"],
     "options": [{"id": "small", "label": "Small", "values": {"size": 2}, "source": "sheet"}]},
]
SOURCES = [
    {"id": "sheet", "kind": "datasheet", "title": "A datasheet", "authors": "Vendor",
     "date": "2024-03-18", "url": "https://example.org/sheet"},
]
FIGURES = [{"name": "parts", "kind": "share_bar", "title": "Parts", "parts": [{"value": "half", "label": "Half"}]}]
ASSUMPTIONS = ["Sizes are whole."]


def compute(size, mode):
    return {"double": 2 * size, "half": 0.5}
'''

Write = Callable[..., Path]


@pytest.fixture
def probe(tmp_path: Path) -> Iterator[Write]:
    """Writes a temporary calculator module ``calculators.<name>`` (PROBE with replacements)."""
    folder = tmp_path / "calculators"
    folder.mkdir()
    calculators.__path__.append(str(folder))
    written: list[str] = []

    def write(*replacements: tuple[str, str], name: str = "probe", text: str = PROBE) -> Path:
        for old, new in replacements:
            assert old in text, old
            text = text.replace(old, new)
        path = folder / f"{name}.py"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        written.append(name)
        importlib.invalidate_caches()
        return path

    yield write
    calculators.__path__.remove(str(folder))
    for name in written:
        sys.modules.pop(f"calculators.{name}", None)


def line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def only(found: list) -> object:
    assert len(found) == 1, [d.format() for d in found]
    return found[0]


def test_the_probe_itself_is_well_declared(probe: Write) -> None:
    probe()
    assert check_calculator("probe") == []


@pytest.mark.parametrize("name", calculator_names())
def test_every_real_calculator_is_well_declared_and_states_its_assumptions(name: str) -> None:
    assert [d.format() for d in check_calculator(name)] == []
    calculator = importlib.import_module(f"calculators.{name}")
    assert len(getattr(calculator, "ASSUMPTIONS", [])) >= 3, "list where the model stops holding"


def test_a_bad_datasheet_date_is_named_at_its_line(probe: Write) -> None:
    path = probe(('"date": "2024-03-18"', '"date": "2024-13-45"'))
    found = only(check_calculator("probe"))
    assert (found.file, found.line, found.path) == (str(path), line_of(path, '"date"'), "SOURCES[0].date")
    assert "'2024-13-45' is not a date: month must be in 1..12" in found.message
    assert "YYYY-MM-DD" in found.hint


def test_an_unknown_input_kind_names_the_kinds(probe: Write) -> None:
    path = probe(('"control": "number"', '"control": "dial"'))
    found = only(check_calculator("probe"))
    assert (found.line, found.path) == (line_of(path, '"dial"'), "INPUTS[0].control")
    assert found.message == "unknown input kind `dial`"
    assert '"number"' in found.hint and '"select"' in found.hint


def test_a_misspelt_key_is_an_unknown_key(probe: Write) -> None:
    probe(('"default": 10', '"defualt": 10'))
    paths = {d.path: d for d in check_calculator("probe")}
    assert paths["INPUTS[0].defualt"].message == "unknown key"
    assert "a required key is missing" in paths["INPUTS[0].default"].message


def test_a_preset_naming_a_missing_input(probe: Write) -> None:
    probe(('"fields": ["size"]', '"fields": ["sise"]'), ('"values": {"size": 2}', '"values": {"sise": 2}'))
    found = only(check_calculator("probe"))
    assert found.path == "PRESETS[0].fields[0]"
    assert found.message == "preset `sizes` sets `sise`, which is not an input"
    assert found.hint == "did you mean `size`?"


def test_a_preset_value_outside_its_inputs_range(probe: Write) -> None:
    probe(('"values": {"size": 2}', '"values": {"size": 500}'))
    found = only(check_calculator("probe"))
    assert found.path == "PRESETS[0].options[0].values.size"
    assert "500 GB is outside the input's range 1 to 100" in found.message


def test_a_preset_citing_an_undeclared_source(probe: Write) -> None:
    path = probe(('"source": "sheet"', '"source": "leaflet"'))
    found = only(check_calculator("probe"))
    assert (found.line, found.path) == (line_of(path, '"leaflet"'), "PRESETS[0].options[0].source")
    assert found.message == "preset `sizes` option `small` cites `leaflet`, which is not in SOURCES"


def test_a_preset_option_without_a_datasheet_figure_names_the_fact(probe: Write) -> None:
    probe(('"values": {"size": 2}', '"values": {}, "missing": {"size": "memory"}'))
    found = only(check_calculator("probe"))
    assert found.message == "preset `sizes` option `small` has no value for `size`: its datasheet entry gives no `memory`"
    assert "calculators/_datasheets.py" in found.hint


def test_a_datasheet_without_the_fact_keeps_the_option_and_names_the_gap(probe: Write) -> None:
    # h100-sxm's entry gives no "no_such_fact": the option is kept, with the gap named.
    group = ('{"name": "chips", "label": "Chip", "fields": ["size"], '
             '"options": accelerator_options({"size": "no_such_fact"}, "h100-sxm")}')
    path = probe(('PRESETS = [\n', 'from calculators._datasheets import accelerator_options, shared_sources\n'
                  'PRESETS = [\n    ' + group + ',\n'),
                 ('SOURCES = [\n', 'SOURCES = [\n    *shared_sources("nvidia-h100-datasheet"),\n'))
    found = only(check_calculator("probe"))
    assert (found.path, found.line) == ("PRESETS[0].options[0].values", line_of(path, "accelerator_options({"))
    assert found.message == ("preset `chips` option `h100-sxm` has no value for `size`: "
                             "its datasheet entry gives no `no_such_fact`")
    assert found.hint == ("add the `no_such_fact` figure (with its source) to `h100-sxm` in calculators/_datasheets.py, "
                          "or leave `h100-sxm` out of this preset")


def test_a_figure_drawing_a_value_compute_does_not_return(probe: Write) -> None:
    path = probe(('"value": "half"', '"value": "halve"'))
    found = only(check_calculator("probe"))
    assert (found.line, found.path) == (line_of(path, '"halve"'), "FIGURES[0].parts[0].value")
    assert found.message == "figure `parts` draws `halve`, which compute() does not return"
    assert found.hint == "did you mean `half`?"


def test_an_output_compute_does_not_return(probe: Write) -> None:
    probe(('"name": "double"', '"name": "triple"'))
    found = only(check_calculator("probe"))
    assert found.path == "OUTPUTS[0].name"
    assert found.message == "compute() returns no value `triple` (at the defaults)"


def test_an_unknown_output_format(probe: Write) -> None:
    probe(('"format": "number"', '"format": "furlongs"'))
    found = only(check_calculator("probe"))
    assert found.path == "OUTPUTS[0].format"
    assert "bytes" in found.hint and "usd" in found.hint


def test_an_unknown_figure_kind(probe: Write) -> None:
    probe(('"kind": "share_bar"', '"kind": "pie"'))
    found = only(check_calculator("probe"))
    assert (found.path, found.message) == ("FIGURES[0].kind", "unknown figure kind `pie`")
    assert "memory_bar" in found.hint


def test_duplicate_input_names(probe: Write) -> None:
    path = probe(('"name": "mode"', '"name": "size"'), ("def compute(size, mode)", "def compute(size)"))
    found = [d for d in check_calculator("probe") if "twice" in d.message]
    assert [(d.path, d.line) for d in found] == [("INPUTS[1].name", line_of(path, '"name": "size", "label": "Mode"'))]
    assert found[0].message == "`size` is declared twice (also at INPUTS[0])"


def test_duplicate_source_ids(probe: Write) -> None:
    record = '{"id": "sheet", "kind": "datasheet", "title": "T", "authors": "V", "date": "2024", "url": "https://e.org/x"},\n'
    probe(("SOURCES = [\n", "SOURCES = [\n    " + record))
    assert [d.path for d in check_calculator("probe") if "twice" in d.message] == ["SOURCES[1].id"]


def test_a_default_outside_its_range(probe: Write) -> None:
    probe(('"default": 10', '"default": 1000'))
    found = [d for d in check_calculator("probe") if d.path == "INPUTS[0].default"]
    assert "1,000 GB is outside the input's range 1 to 100" in only(found).message


def test_a_select_default_that_is_no_option(probe: Write) -> None:
    probe(('"default": "fast"', '"default": "warp"'))
    found = [d for d in check_calculator("probe") if d.path == "INPUTS[1].default"]
    assert "'warp' is not one of the options (fast, slow)" in only(found).message


def test_a_log_scale_through_zero(probe: Write) -> None:
    probe(('"min": 1, "max": 100, "step": 1,', '"min": 0, "max": 100, "step": 1, "scale": "log",'))
    assert only(check_calculator("probe")).message == "a log-scale input needs min > 0 (got 0)"


def test_assumptions_must_be_sentences(probe: Write) -> None:
    probe(('ASSUMPTIONS = ["Sizes are whole."]', 'ASSUMPTIONS = "Sizes are whole."'))
    found = only(check_calculator("probe"))
    assert found.path == "ASSUMPTIONS" and found.hint == "write ASSUMPTIONS as a list with at least one entry"


def test_assumptions_must_not_be_empty_sentences(probe: Write) -> None:
    probe(('ASSUMPTIONS = ["Sizes are whole."]', 'ASSUMPTIONS = ["", "Sizes are whole."]'))
    found = only(check_calculator("probe"))
    assert found.path == "ASSUMPTIONS[0]"


def test_a_memory_bar_template_with_an_unknown_blank(probe: Write) -> None:
    figure = ('[{"name": "bar", "kind": "memory_bar", "parts": [{"value": "half", "label": "Half"}], '
              '"capacity": "double", "words": {"fits": "Fits in {room}"}}]')
    probe(('[{"name": "parts", "kind": "share_bar", "title": "Parts", "parts": [{"value": "half", "label": "Half"}]}]', figure))
    found = only(check_calculator("probe"))
    assert found.path == "FIGURES[0].words.fits" and "`{room}`" in found.message


def test_compute_failing_at_the_defaults(probe: Write) -> None:
    probe(('return {"double"', 'raise ValueError("size must be small")\n    return {"double"'))
    found = only(check_calculator("probe"))
    assert found.path == "compute" and "ValueError: size must be small" in found.message


def test_a_value_a_figure_cannot_draw(probe: Write) -> None:
    probe(('"half": 0.5', '"half": "a half"'))
    found = only(check_calculator("probe"))
    assert found.path == "compute" and found.message.startswith("the calculator cannot be drawn at its defaults: ValueError")


def test_a_calculator_that_cannot_be_imported(probe: Write) -> None:
    probe(("TITLE = ", "import not_a_module\nTITLE = "))
    found = only(check_calculator("probe"))
    assert found.file == "calculators/probe.py" and "cannot be imported: ModuleNotFoundError" in found.message


def test_a_shared_datasheet_is_named_in_the_file_that_writes_it(probe: Write, monkeypatch: pytest.MonkeyPatch) -> None:
    from calculators import _datasheets

    monkeypatch.setitem(_datasheets.SHARED, "nvidia-h100-datasheet",
                        {**_datasheets.SHARED["nvidia-h100-datasheet"], "date": "2022-02-30"})
    probe(('SOURCES = [\n', 'from calculators._datasheets import shared_sources\nSOURCES = [\n    *shared_sources("nvidia-h100-datasheet"),\n'))
    found = only(check_calculator("probe"))
    assert (found.file, found.path) == ("calculators/_datasheets.py", "SOURCES[0].date")
    datasheets = Path(_datasheets.__file__)
    start = line_of(datasheets, '"id": "nvidia-h100-datasheet"')
    assert found.line == start + next(i for i, line in enumerate(datasheets.read_text().splitlines()[start - 1:]) if '"date"' in line)


def test_unused_calculators_have_only_their_sources_checked(probe: Write) -> None:
    probe(('"value": "half"', '"value": "halve"'), ('"date": "2024-03-18"', '"date": "someday"'))
    assert [d.path for d in check_calculators(set())] == ["SOURCES[0].date"]
    assert sorted(d.path for d in check_calculators({"probe"})) == ["FIGURES[0].parts[0].value", "SOURCES[0].date"]


@pytest.mark.parametrize("command", ["check", "build"])
def test_check_and_build_report_a_bad_datasheet_date_and_exit_non_zero(command: str, probe: Write, mini: MiniProject,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = probe(('"date": "2024-03-18"', '"date": "2024-13-45"'))
    mini.write("layer-2/boards.yaml", "id: boards\ntitle: Boards\nlayer: 2\nsummary: Where chips are mounted.\n"
               "depths:\n  D1:\n    body: Boards hold chips.\n    calculator:\n      name: probe\n")
    assert main(["--project", str(mini.root), command]) == 1
    _, err = capsys.readouterr()
    line = line_of(path, '"date"')
    assert f"{path}:{line}:14: error: `SOURCES[0].date` '2024-13-45' is not a date" in err
    assert "fix: write the publication date as YYYY, YYYY-MM or YYYY-MM-DD" in err
    assert "Traceback" not in err and "internal error" not in err
    assert not (mini.root / "site").exists()
