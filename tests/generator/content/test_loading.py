"""load_content: every file read and validated, every problem reported together."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mini_project import BOARDS, MINI, MiniProject

from generator.content.loading import topic_paths
from generator.diagnostics import ContentError
from generator.pipeline import load_content


def test_the_mini_project_loads(mini: MiniProject) -> None:
    content = mini.load()
    assert content.map.title == "Mini map"
    assert content.map_file == "content/map.yaml"
    assert [tf.topic.id for tf in content.topics] == ["power", "boards", "chips"]
    assert [tf.file for tf in content.topics] == [
        "content/layer-1/power.yaml", "content/layer-2/boards.yaml", "content/layer-2/chips.yaml"]
    assert content.warnings == []
    assert content.map_doc is not None and content.map_doc.key_positions[("layers",)].line == 9


def test_topic_paths_are_sorted_and_exclude_the_map(mini: MiniProject) -> None:
    mini.write("layer-9/deep/zeta.yaml", "x: 1\n")
    names = [p.relative_to(mini.content).as_posix() for p in topic_paths(mini.content)]
    assert names == ["layer-1/power.yaml", "layer-2/boards.yaml", "layer-2/chips.yaml", "layer-9/deep/zeta.yaml"]


def test_names_are_relative_to_the_project_root(tmp_path: Path) -> None:
    content = load_content(MINI, MINI.parent)
    assert content.map_file == "content/map.yaml"


def test_all_problems_of_all_files_are_reported_together(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("layer: 2", "layer: two") + "colour: red\n")
    mini.write("layer-2/chips.yaml", "id: chips\ntitle: [unclosed\n")
    mini.write("layer-1/power.yaml", (MINI / "layer-1/power.yaml").read_text().replace("2026-10-30", "2026-10-32"))
    mini.write("map.yaml", (MINI / "map.yaml").read_text().replace("title: Mini map\n", ""))
    try:
        mini.load()
    except ContentError as error:
        log = error.log
    else:
        raise AssertionError("broken content loaded")
    files = {d.file for d in log.errors}
    assert files == {"content/layer-1/power.yaml", "content/layer-2/boards.yaml", "content/layer-2/chips.yaml",
                     "content/map.yaml"}
    assert len(log.errors) == 5
    assert log.report().endswith("5 error(s), 0 warning(s)")


def test_content_error_message_is_the_report(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("layer: 2", "layer: 7"))
    try:
        mini.load()
    except ContentError as error:
        assert str(error) == error.log.report()
        assert "content/layer-2/boards.yaml:3:8: error: `layer` unknown layer 7" in str(error)
    else:
        raise AssertionError("broken content loaded")


def test_cross_file_topic_checks_still_run_when_the_map_is_invalid(mini: MiniProject) -> None:
    mini.write("map.yaml", "title: [\n")
    mini.write("layer-2/boards.yaml", BOARDS.replace("Boards hold chips.", "Boards hold chips [@nobody].")
               + "edges:\n  - {subject: boards, verb: hold, object: chipz}\n")
    report = mini.report()
    assert "content/map.yaml:2:1: error: YAML syntax: the file ends in the middle of a value" in report
    assert "citation of unknown source `[@nobody]`" in report
    assert "edge to unknown topic `chipz`" in report
    assert "unknown layer" not in report  # needs the map: not guessed


def test_a_topic_with_schema_errors_does_not_cascade_into_edge_errors(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("summary: Where chips are mounted.\n", ""))
    mini.write("layer-2/chips.yaml", (MINI / "layer-2/chips.yaml").read_text()
               + "edges:\n  - {subject: boards, verb: carry, object: chips}\n")
    report = mini.report()
    assert "missing required field `summary`" in report
    assert "unknown topic" not in report
    assert report.endswith("1 error(s), 0 warning(s)")


def test_a_byte_that_is_not_utf8_is_reported_at_its_line_and_column(mini: MiniProject) -> None:
    (mini.content / "layer-2" / "boards.yaml").write_bytes(b"id: boards\ntitle: \xff\xfe\n")
    report = mini.report()
    assert "content/layer-2/boards.yaml:2:8: error: the byte 0xff is not UTF-8 text" in report
    assert "fix: save the file as UTF-8" in report


def test_scalar_file_is_explained(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", "just some words\n")
    assert "the file holds only a single value, not `key: value` lines" in mini.report()


def test_empty_map_file_gets_map_advice(mini: MiniProject) -> None:
    mini.write("map.yaml", "")
    report = mini.report()
    assert "content/map.yaml:1:1: error: the file is empty" in report
    assert "`introduction:`" in report and "`id:`" not in report


def test_warnings_are_returned_sorted_on_success(mini: MiniProject) -> None:
    mini.add_source("zed")
    mini.add_source("abe")
    content = mini.load()
    assert [w.message for w in content.warnings] == ["source `zed` is cited by no topic", "source `abe` is cited by no topic"]
    assert all(w.severity == "warning" for w in content.warnings)


def test_a_file_with_a_syntax_error_does_not_cascade_either(mini: MiniProject) -> None:
    mini.write("layer-2/chips.yaml", "id: chips\ntitle: [\n")  # power.yaml's edge points at `chips`
    report = mini.report()
    assert "unknown topic" not in report
    assert report.endswith("1 error(s), 0 warning(s)")


# --- no input reaches the editor as a traceback ------------------------------------------


KEYS = ["id", "title", "layer", "summary", "depths", "D1", "D4", "D6", "body", "hook", "flow", "steps", "label",
        "detail", "analogy", "tradeoffs", "calculator", "name", "values", "exercises", "prompt", "examples",
        "as_of", "items", "kind", "sources", "date", "url", "authors", "edges", "subject", "verb", "object", "x"]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 200), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["boards", "chips", "power", "Boards", "2024", "2026-13-01", "2024-02-30", "https://x.org",
                     "ftp://x", "text [@smith2020] more", "[@nobody]", "D1", "parallelism", "", " "]),
    st.text(max_size=12),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)), max_leaves=12)
TOPICS = st.fixed_dictionaries(
    {"id": st.sampled_from(["boards", "chips", "Bad Id"]), "title": SCALARS, "layer": st.sampled_from([1, 2, 7, "two"]),
     "summary": SCALARS, "depths": VALUES},
    optional={"sources": VALUES, "edges": VALUES, "examples": VALUES, "x": VALUES},
)
NOISE = ("constrained-str", "function-", "[str]", ".str", ".int", ".float", ".bool", "union[", "tagged-union")


def assert_clean_report(project: MiniProject) -> None:
    try:
        content = project.load()
        diagnostics = content.warnings
    except ContentError as error:
        diagnostics = error.log.items
        assert error.log.errors
    for d in diagnostics:
        assert d.line >= 1 and d.column >= 1 and d.file.startswith("content/")
        assert d.message and d.hint, d.format()
        assert not any(noise in d.path for noise in NOISE), d.format()
        assert "Input should" not in d.message and "Traceback" not in d.message, d.format()


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(topic=TOPICS)
def test_any_mapping_is_loaded_or_reported(mini: MiniProject, topic: dict) -> None:
    mini.write("layer-2/boards.yaml", yaml.safe_dump(topic, allow_unicode=True))
    assert_clean_report(mini)


MAP_KEYS = ["key", "name", "audience", "number", "description", "id", "label", "colour", "x"]
MAP_ITEMS = st.lists(st.dictionaries(st.sampled_from(MAP_KEYS), SCALARS, max_size=4), max_size=3)
MAPS = st.fixed_dictionaries(
    {"title": SCALARS, "introduction": SCALARS, "depths": st.one_of(MAP_ITEMS, VALUES), "layers": st.one_of(MAP_ITEMS, VALUES)},
    optional={"edge_kinds": MAP_ITEMS, "titel": SCALARS},
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(config=MAPS)
def test_any_map_is_loaded_or_reported(mini: MiniProject, config: dict) -> None:
    mini.write("map.yaml", yaml.safe_dump(config, allow_unicode=True))
    assert_clean_report(mini)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(list(":-[]{}\t #'\"|>&*@!%\n ")),
                                st.booleans()), min_size=1, max_size=4))
def test_any_damaged_file_is_loaded_or_reported(mini: MiniProject, edits: list[tuple[int, str, bool]]) -> None:
    text = (MINI / "layer-1" / "power.yaml").read_text()
    for where, char, insert in edits:
        where %= len(text) + 1
        text = text[:where] + char + text[where:] if insert else text[:where] + text[where + 1:]
    mini.write("layer-1/power.yaml", text)
    assert_clean_report(mini)


@pytest.mark.parametrize("text", ["a: &x [*x]\n", "id: &x {b: *x}\n", "[1, 2]: x\n", "a: *undefined\n",
                                  "%YAML 1.1\n---\nid: x\n", "\ufeffid: boards\n", "id: boards\n...\n"])
def test_odd_yaml_is_loaded_or_reported(mini: MiniProject, text: str) -> None:
    mini.write("layer-2/boards.yaml", text)
    assert_clean_report(mini)



def test_hidden_files_and_folders_named_yaml_are_skipped(mini: MiniProject) -> None:
    mini.write("layer-2/.#boards.yaml", "not: [yaml\n")  # an editor's lock file
    mini.write(".drafts/idea.yaml", "not: [yaml\n")
    (mini.content / "layer-2" / "folder.yaml").mkdir()
    assert [p.name for p in topic_paths(mini.content)] == ["power.yaml", "boards.yaml", "chips.yaml"]
    assert mini.load().warnings == []


def test_a_yml_file_is_an_error_not_silence(mini: MiniProject) -> None:
    mini.write("layer-2/cables.yml", "id: cables\n")
    mini.write("layer-2/fans.YAML", "id: fans\n")
    report = mini.report()
    assert report == (
        "content/layer-2/cables.yml:1:1: error: `cables.yml` is not read: content files end in `.yaml`\n"
        "    fix: rename it to `cables.yaml`\n"
        "content/layer-2/fans.YAML:1:1: error: `fans.YAML` is not read: content files end in `.yaml`\n"
        "    fix: rename it to `fans.yaml`\n"
        "2 error(s), 0 warning(s)")


def test_a_schema_error_does_not_hide_citation_errors_in_the_same_file(mini: MiniProject) -> None:
    power = (MINI / "layer-1" / "power.yaml").read_text()
    mini.write("layer-1/power.yaml", power.replace("analogy:", "analagy:").replace("[@smith2020]", "[@smith2002]"))
    report = mini.report()
    assert "content/layer-1/power.yaml:14:5: error: `depths.D1.analagy` unknown key `analagy`" in report
    assert "content/layer-1/power.yaml:8:37: error: `depths.D1.body` citation of unknown source `[@smith2002]`" in report
    assert "fix: did you mean `[@smith2020]`?" in report
    assert report.endswith("2 error(s), 1 warning(s)")  # and smith2020 is never cited


def test_deep_nesting_is_an_error_with_file_and_line(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS + "edges: " + "[" * 3000 + "]" * 3000 + "\n")
    report = mini.report()
    assert "content/layer-2/boards.yaml:8:71: error: YAML syntax: values are nested more than 64 levels deep here" in report
    assert report.endswith("1 error(s), 0 warning(s)")


def outside_topic(tmp_path: Path) -> Path:
    """A valid topic file in a folder next to the project, not inside it."""
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    path = outside / "secret.yaml"
    path.write_text(BOARDS.replace("id: boards", "id: secret"), encoding="utf-8")
    return path


def test_a_symlinked_file_leaving_the_project_is_refused_by_name_and_target(mini: MiniProject) -> None:
    target = outside_topic(mini.root)
    (mini.content / "layer-2" / "secret.yaml").symlink_to(target)
    with pytest.raises(ContentError) as caught:
        mini.load()
    [error] = caught.value.log.errors
    assert error.file == "content/layer-2/secret.yaml"
    assert error.message == f"`content/layer-2/secret.yaml` is a symbolic link to `{target.resolve()}`, outside the project"
    assert "copy the file into content/" in error.hint


def test_a_symlinked_folder_leaving_the_project_is_refused(mini: MiniProject) -> None:
    target = outside_topic(mini.root).parent
    (mini.content / "layer-2" / "more").symlink_to(target, target_is_directory=True)
    report = mini.report()
    assert f"content/layer-2/more:1:1: error: `content/layer-2/more` is a symbolic link to `{target.resolve()}`" in report
    assert "secret" not in report.replace(str(target.resolve()), "")


def test_a_symlinked_map_leaving_the_project_is_refused_and_not_read(mini: MiniProject) -> None:
    outside = outside_topic(mini.root).parent / "map.yaml"
    (mini.content / "map.yaml").rename(outside)
    (mini.content / "map.yaml").symlink_to(outside)
    report = mini.report()
    assert f"`content/map.yaml` is a symbolic link to `{outside.resolve()}`, outside the project" in report
    assert "map file is missing" not in report


def test_a_symlink_within_the_project_is_followed(mini: MiniProject) -> None:
    shared = mini.root / "shared"
    shared.mkdir()
    (shared / "extra.yaml").write_text(BOARDS.replace("id: boards", "id: extra"), encoding="utf-8")
    (mini.content / "layer-2" / "extra.yaml").symlink_to(Path("..", "..", "shared", "extra.yaml"))
    assert "extra" in {tf.topic.id for tf in mini.load().topics}


def test_many_files_parsed_on_two_cores_read_as_on_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``MIN_SHARED_FILES`` a forked process parses half the topic files: the same topics in
    the same order, the same failed files, the same problems in the same order as one process."""
    from generator.content import loading
    from tests.benchmarks.test_build_scale_content import build_scale

    build_scale().write_project(tmp_path, topics=loading.MIN_SHARED_FILES + 20, seed=4)
    paths = topic_paths(tmp_path / "content")
    paths[3].write_text("id: [unclosed\n", encoding="utf-8")  # a YAML syntax error, in the first half
    paths[-5].write_text(paths[-5].read_text(encoding="utf-8") + "id: again\n", encoding="utf-8")  # a duplicate key
    paths[-2].write_text("id: not-a-topic\nlayer: eleven\n", encoding="utf-8")  # schema errors, in the second half

    def reading() -> tuple[list[str], list[str], list[str]]:
        read = loading.read_content(tmp_path / "content", tmp_path)
        return [t.topic.id for t in read.topics], [f.file for f in read.failed_topics], [d.format() for d in read.problems]

    shared = reading()
    monkeypatch.setattr(loading, "fork_context", lambda: None)
    assert reading() == shared
    topics, failed, problems = shared
    assert len(topics) == loading.MIN_SHARED_FILES + 20 - 2 and len(failed) == 2  # a duplicate key still reads
    assert len(problems) >= 3 and any("appears twice" in problem for problem in problems)
