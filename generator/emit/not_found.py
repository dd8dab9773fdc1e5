"""The page a missing address gets (``404.html``): an engine hook that leads the reader back in.

The theme's 404 page says "404 - Not found" and nothing else. This hook (``on_post_template``, the
theme's static templates) puts in its place what a reader needs there: the map, every layer, the
learning plans and the sources, each a link, and a search form. GitHub Pages answers every missing
address with this page, at that address, so its links are absolute: the theme renders the page
with the site's own path as its base (``base_url``, from ``site_url``, else ``/``), and so do they.
The layers come from the engine config's navigation, which layermap writes (a top-level section
per layer, its index page first). The search form sends the words to the home page as ``?q=``,
which the theme's search opens with. Only the standard library is imported: the generated tree
stays buildable alone (this file is copied into it, like the sanitiser). On an engine that runs no
hooks, layermap's finishing step puts the same content in (``emit/finishing.py``).
"""

from __future__ import annotations

import html
from urllib.parse import urlsplit

THEME_CONTENT = "<h1>404 - Not found</h1>"


def _first_page(entry: object) -> str | None:
    """The first page of a navigation entry: a page's path, or a section's first page."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        for value in entry.values():
            return _first_page(value)
    if isinstance(entry, list):
        for item in entry:
            page = _first_page(item)
            if page:
                return page
    return None


def page_url(path: str) -> str:
    """A docs page's directory URL, relative to the site's root: ``layer-1/index.md`` -> ``layer-1/``."""
    stem = path.removesuffix(".md")
    if stem == "index":
        return ""
    return stem.removesuffix("/index") + "/"


def places(nav: list) -> list[tuple[str, str]]:
    """(title, URL relative to the site's root) of each top-level entry of the navigation."""
    found = []
    for entry in nav or []:
        if isinstance(entry, dict):
            for title, value in entry.items():
                page = _first_page(value)
                if page:
                    found.append((str(title), page_url(page)))
        elif isinstance(entry, str):
            found.append((entry, page_url(entry)))
    return found


def not_found_content(nav: list, site_url: str) -> str:
    """What the page says instead of the theme's heading: the way back in, as links from the site's root."""
    base = urlsplit(site_url or "/").path
    base = base if base.endswith("/") else base + "/"

    def link(url: str, text: str) -> str:  # a navigation title is HTML already (the theme prints it so): as text again
        return f'<a href="{html.escape(base + url, quote=True)}">{html.escape(html.unescape(text))}</a>'

    listed = "".join(f"<li>{link(url, title)}</li>" for title, url in places(nav) if url)  # the home page is linked below
    return (
        '<h1 id="page-not-found">Page not found</h1>'
        "<p>Nothing lives at this address: the link may be old, or mistyped. "
        f"Start again from {link('#map', 'the map of every topic')} on the home page, or go to a part of it:</p>"
        f'<ul class="lm-not-found-places">{listed}</ul>'
        f'<form class="lm-not-found-search" role="search" action="{html.escape(base, quote=True)}" method="get">'
        '<label for="lm-not-found-q">Search the map</label> '
        '<input type="search" id="lm-not-found-q" name="q" required autocomplete="off"> '
        '<button type="submit" class="md-button md-button--primary">Search</button></form>'
    )


def on_post_template(output: str, template_name: str, config, **_: object) -> str:  # noqa: ANN001 - the engine's config
    if template_name != "404.html" or THEME_CONTENT not in output:
        return output
    return output.replace(THEME_CONTENT, not_found_content(config["nav"], config["site_url"] or ""), 1)
