"""A link from a topic's text to another page of the map is checked before the engine sees it."""

from __future__ import annotations

from mini_project import BOARDS, MiniProject

from generator.checks.page_links import check_page_links


def test_links_to_pages_of_the_map_pass(mini: MiniProject) -> None:
    body = "See [chips](chips.md#depth-d2), [power](../layer-1/power.md), [home](../index.md), [a file](https://example.org/a.md)."
    mini.write("layer-2/boards.yaml", BOARDS.replace("    body: Boards hold chips.", f"    body: |\n      {body}\n"))
    assert check_page_links(mini.load()) == []


def test_a_link_to_a_page_in_another_layer_written_as_if_beside_it_is_an_error_with_the_fix(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("    body: Boards hold chips.",
                                                     "    body: |\n      Fed by [power](power.md).\n"))
    report = mini.report()  # loading refuses the content: the engine never sees the link
    assert ("content/layer-2/boards.yaml:7:11: error: `depths.D1.body` the link `power.md` names no page of the map "
            "(from this topic's page it is `layer-2/power.md`)\n    fix: write `../layer-1/power.md`") in report
