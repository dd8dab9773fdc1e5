"""Author-year labels and in-text citations."""

from __future__ import annotations

import pytest

from generator.content.citations import cited_keys
from generator.content.schema import Source
from generator.render.citations import family_name, reference_labels, render_citations, short_reference, source_anchor, year_suffix


def source(key: str = "k", authors: list[str] | None = None, date: str = "2024-05", title: str = "A title") -> Source:
    return Source.model_construct(id=key, kind="paper", title=title, authors=authors or [], date=date,
                                  url=f"https://example.org/{key}", doi=None, arxiv=None, note=None)


@pytest.mark.parametrize(
    ("author", "family"),
    [
        ("Grattafiori, Aaron", "Grattafiori"),
        ("Aaron Grattafiori", "Grattafiori"),
        ("Smith, Sarah J.", "Smith"),
        ("Norman P. Jouppi", "Jouppi"),
        ("O'Brien, John", "O'Brien"),
        ("NVIDIA", "NVIDIA"),
        ("Epoch AI", "Epoch AI"),
        ("International Energy Agency", "International Energy Agency"),
        ("Tom's Hardware", "Tom's Hardware"),
        ("Union of Concerned Scientists", "Union of Concerned Scientists"),
        ("Electrical Contractor Magazine", "Electrical Contractor Magazine"),
    ],
)
def test_family_name(author: str, family: str) -> None:
    assert family_name(author) == family


@pytest.mark.parametrize(
    ("authors", "label"),
    [
        (["Kaplan, Jared"], "Kaplan, 2024"),
        (["Jared Kaplan"], "Kaplan, 2024"),
        (["Smith, Alice", "Bob Jones"], "Smith and Jones, 2024"),
        (["Smith, Alice", "Jones, Bob", "Lee, Carol"], "Smith et al., 2024"),
        (["Shoeybi, Mohammad", "Patwary, Mostofa", "Puri, Raul", "LeGresley, Patrick"], "Shoeybi et al., 2024"),
        (["International Energy Agency"], "International Energy Agency, 2024"),
        (["NVIDIA"], "NVIDIA, 2024"),
    ],
)
def test_short_reference_by_number_of_authors(authors: list[str], label: str) -> None:
    assert short_reference(source(authors=authors)) == label


def test_short_reference_without_authors_uses_the_title_and_the_year_of_a_partial_date() -> None:
    assert short_reference(source(title="DGX H100 datasheet", date="2022")) == "DGX H100 datasheet, 2022"


def test_cited_keys_with_offsets_including_multi_key_citations() -> None:
    text = "Power [@smith2020] and chips [@a; @b-2]."
    assert list(cited_keys(text)) == [("smith2020", 6), ("a", 29), ("b-2", 29)]


def test_email_like_text_is_not_a_citation() -> None:
    assert list(cited_keys("write to me@example.org or [see @x]")) == []


def test_render_single_citation_links_to_the_source_anchor() -> None:
    sources = {"smith2020": source("smith2020", ["Smith, Alice"], "2020-05-01")}
    out = render_citations("Power comes from the wall [@smith2020].", sources)
    assert out == (f'Power comes from the wall (<a href="#{source_anchor("smith2020")}" class="lm-cite">'
                   "Smith, 2020</a>).")


def test_render_multi_key_citation_is_one_parenthesis_with_both_links() -> None:
    sources = {"a": source("a", ["Ann Lee"], "2021"), "b": source("b", ["Kim, Bo", "Park, Jin"], "2023")}
    out = render_citations("See [@a; @b].", sources)
    assert out == ('See (<a href="#source-a" class="lm-cite">Lee, 2021</a>; '
                   '<a href="#source-b" class="lm-cite">Kim and Park, 2023</a>).')


def test_unknown_key_is_left_as_typed() -> None:
    sources = {"a": source("a", ["Ann Lee"])}
    assert render_citations("Claim [@nobody] and [@a; @nobody].", sources) == "Claim [@nobody] and [@a; @nobody]."


def test_custom_link_function_is_used() -> None:
    sources = {"a": source("a", ["Ann Lee"])}
    assert 'href="#ref-a"' in render_citations("[@a]", sources, link=lambda key: f"ref-{key}")


@pytest.mark.parametrize(("index", "suffix"), [(0, "a"), (1, "b"), (25, "z"), (26, "aa"), (27, "ab"), (701, "zz"), (702, "aaa")])
def test_year_suffix_counts_like_spreadsheet_columns(index: int, suffix: str) -> None:
    assert year_suffix(index) == suffix


def test_sources_with_the_same_author_and_year_get_letters_in_list_order() -> None:
    sources = [
        source("h100", ["NVIDIA"], "2023-03"),
        source("lee", ["Ann Lee"], "2023"),
        source("h200", ["NVIDIA"], "2023-11"),
        source("b200", ["NVIDIA"], "2024"),
    ]
    assert reference_labels(sources) == {
        "h100": "NVIDIA, 2023a", "lee": "Lee, 2023", "h200": "NVIDIA, 2023b", "b200": "NVIDIA, 2024"}


def test_citations_of_same_author_year_sources_link_each_to_its_own_entry() -> None:
    sources = {"h100": source("h100", ["NVIDIA"], "2023-03"), "h200": source("h200", ["NVIDIA"], "2023-11")}
    out = render_citations("Both [@h200; @h100].", sources)
    assert out == ('Both (<a href="#source-h200" class="lm-cite">NVIDIA, 2023b</a>; '
                   '<a href="#source-h100" class="lm-cite">NVIDIA, 2023a</a>).')
