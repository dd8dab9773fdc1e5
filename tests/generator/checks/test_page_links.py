"""A link from a topic's text to another page of the map is checked before the engine sees it."""

from __future__ import annotations

from mini_project import BOARDS, MiniProject

from generator.checks.page_links import check_page_links


def links_in_boards(mini: MiniProject, body: str) -> list[tuple[str, str, str]]:
    mini.write("layer-2/boards.yaml", BOARDS.replace("    body: Boards hold chips.", f"    body: |\n      {body}\n"))
    return [(d.path, d.message, d.hint) for d in check_page_links(mini.load())]


def test_links_to_pages_of_the_map_pass(mini: MiniProject) -> None:
    assert links_in_boards(mini, "See [chips](chips.md#depth-d2), [power](../layer-1/power.md), "
                                 "[home](../index.md), [a file](https://example.org/a.md).") == []


def test_a_link_to_a_page_in_another_layer_written_as_if_beside_it_is_an_error_with_the_fix(mini: MiniProject) -> None:
    found = links_in_boards(mini, "Fed by [power](power.md).")
    assert found == [("depths.D1.body", "the link `power.md` names no page of the map (from this topic's page it is "
                      "`layer-2/power.md`)", "write `../layer-1/power.md`")]
    problem = check_page_links(mini.load())[0]
    line = (mini.content / "layer-2" / "boards.yaml").read_text().splitlines()[problem.line - 1]
    assert "power.md" in line or "body" in line  # placed at the field that holds the link
