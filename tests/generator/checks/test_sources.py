"""The map's bibliography: one record per source, every citation resolved, every record cited."""

from __future__ import annotations

from mini_project import BOARDS, MiniProject

from generator.calculation.port import typed_calculator_sources
from generator.calculation.sources import bibliography_of, declared_sources
from generator.checks.sources import check_sources, unknown_citations
from generator.content.yaml_source import parse_yaml


def cite(mini: MiniProject, body: str) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("Boards hold chips.", body))


# --- citations --------------------------------------------------------------------------------


def test_an_unknown_citation_in_a_block_is_placed_at_its_key() -> None:
    doc = parse_yaml("depths:\n  D1:\n    analogy: |\n      Line one.\n      Claimed here [@lee2012].\n")
    (found,) = unknown_citations("content/a.yaml", doc, {"lee2021"})
    assert (found.path, found.line, found.column) == ("depths.D1.analogy", 5, 20)
    assert found.message == "citation of unknown source `[@lee2012]`"
    assert found.hint == "did you mean `[@lee2021]`?"


def test_a_later_key_of_a_multi_key_citation_is_pointed_at() -> None:
    doc = parse_yaml("depths:\n  D1:\n    flow:\n      steps:\n        - detail: see [@lee2021; @zed]\n")
    (found,) = unknown_citations("content/a.yaml", doc, {"lee2021"})
    assert found.path == "depths.D1.flow.steps[0].detail"
    assert (found.line, found.column) == (5, 34)  # at `@zed`, not at the citation's start


def test_an_unknown_key_with_nothing_close_says_where_to_add_it() -> None:
    doc = parse_yaml("depths:\n  D1:\n    body: Cited [@qqq].\n")
    (found,) = unknown_citations("content/a.yaml", doc, {"lee2021"})
    assert found.hint == "add a record with the key `qqq` to content/sources.yaml"


def test_any_topic_may_cite_a_calculators_source(mini: MiniProject) -> None:
    cite(mini, "The H100 datasheet [@nvidia-h100-datasheet].")  # boards embeds no calculator
    assert "nvidia-h100-datasheet" in mini.load().bibliography


def test_a_misspelt_datasheet_citation_suggests_the_calculators_source(mini: MiniProject) -> None:
    cite(mini, "See [@nvidia-h100-datasheat].")
    assert "did you mean `[@nvidia-h100-datasheet]`?" in mini.report()


def test_a_citation_of_a_broken_record_is_not_also_unknown(mini: MiniProject) -> None:
    mini.add_source("lee2021", date="last year")
    cite(mini, "Boards hold chips [@lee2021].")
    text = mini.report()
    assert "`sources.lee2021.date`" in text and "unknown source" not in text


# --- one record per source --------------------------------------------------------------------


def test_a_record_nobody_cites_is_a_warning_at_its_key(mini: MiniProject) -> None:
    mini.add_source("lee2021")
    [warning] = mini.load().warnings
    assert (warning.file, warning.path, warning.line) == ("content/sources.yaml", "sources.lee2021", 9)
    assert warning.message == "source `lee2021` is cited by no topic"


def test_two_keys_for_one_url_are_an_error(mini: MiniProject) -> None:
    mini.add_source("power-again", url="https://example.org/power/")  # the mini map's smith2020, with a slash
    cite(mini, "Boards hold chips [@power-again].")
    assert "`power-again` and `smith2020` are the same source (https://example.org/power)" in mini.report()


def test_an_arxiv_id_and_an_arxiv_link_are_the_same_source(mini: MiniProject) -> None:
    mini.add_source("first", url="https://arxiv.org/abs/2407.21783v2")
    mini.add_source("second", url=None, arxiv="2407.21783")
    cite(mini, "Boards hold chips [@first; @second].")
    text = mini.report()
    assert "are the same source (arxiv:2407.21783)" in text
    assert "grattafiori2024" in text  # a calculator declares that paper too


def test_a_key_in_sources_yaml_and_a_calculator_is_an_error_at_the_key(mini: MiniProject) -> None:
    mini.add_source("kaplan2020", url="https://example.org/kaplan")
    cite(mini, "Boards hold chips [@kaplan2020].")
    text = mini.report()
    assert "content/sources.yaml:9:3: error: `sources.kaplan2020` source `kaplan2020` is also declared in calculators/" in text
    assert "keep the calculator's record and delete this one" in text


def test_calculators_sharing_a_key_share_one_record(mini: MiniProject) -> None:
    declared = declared_sources({}, "content/sources.yaml")["grattafiori2024"]
    assert len(declared) > 1  # several calculators cite the Llama 3 paper
    assert len({d.source.model_dump_json() for d in declared}) == 1


def test_every_calculator_source_is_a_valid_findable_record() -> None:
    from generator.calculation.port import calculator_names

    for name in calculator_names():
        for source in typed_calculator_sources(name):
            assert source.link.startswith("https://"), (name, source.id)


def test_the_bibliography_is_sources_yaml_then_the_calculators(mini: MiniProject) -> None:
    content = mini.load()
    assert list(content.bibliography)[0] == "smith2020"
    assert content.bibliography == bibliography_of(content.sources, content.sources_file)
    assert check_sources(content) == []
