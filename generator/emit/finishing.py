"""layermap's own finishing step for each page an engine wrote: what must hold on any engine that
converts Markdown the Material way, whether or not it runs layermap's hooks (Zensical runs none).

- **Content sanitised.** Each page's content sits between the region marks render wrote about its
  Markdown body (``content/sanitise.py``). A region the sanitiser hook marked ``layermap-sanitised``,
  whose digest still matches, is taken as it is (on MkDocs the hook, and the page cache with it,
  already did the work); any other region is sanitised here. The marks go. A page with no region
  (the engine lost one: a fence or comment left open swallows the end mark) stops the build.
- **Links resolved.** Links layermap wrote into raw HTML in the form every engine keeps
  (``emit/site_links.py``) become relative to the page.
- **The depth script first in the head** (``emit/depth_first_paint.py``), so the reader's depth
  shows before the first paint.
- **The 404 page leads back in** (``emit/not_found.py``): where the theme's bare heading is still
  there (an engine that ran no hook), layermap's way back in takes its place.

Pure text in, text out; no engine imported (``emit/engine/`` calls it for the build and for serve).
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.content.sanitise import CONTENT_MARK, SANITISED_MARK, region_key, sanitise
from generator.emit.depth_first_paint import with_head_script
from generator.emit.not_found import THEME_CONTENT
from generator.emit.site_links import resolved_links
from generator.errors import LayermapError

NOT_FOUND_PAGE = "404.html"
# Pages the theme writes from its own templates, with no content of the map's.
THEME_PAGES = frozenset({NOT_FOUND_PAGE})
_REGION_START = re.compile(rf"<!--({CONTENT_MARK}|{SANITISED_MARK}):([0-9a-f]{{32}})-->")


def sanitised_regions(html: str, page: str) -> str:
    """The page with every content region sanitised (unless the hook's mark vouches for it) and
    the region marks removed."""
    out: list[str] = []
    done = regions = 0
    while (start := _REGION_START.search(html, done)) is not None:
        kind, key = start.groups()
        end_mark = f"<!--/{kind}:{key}-->"
        end = html.find(end_mark, start.end())
        if end < 0:
            raise LayermapError(f"{page}: the engine's page has the start of its content but not its end",
                                "look for a code fence, HTML comment or tag left open at the end of a Markdown "
                                "field of this page (`layermap check` names most); the previous site/ was kept")
        region = html[start.end():end]
        vouched = kind == SANITISED_MARK and region_key(region) == key
        out += [html[done:start.start()], region if vouched else sanitise(region)]
        done, regions = end + len(end_mark), regions + 1
    if regions == 0 and page not in THEME_PAGES:
        raise LayermapError(f"{page}: the engine's page holds no content region of layermap's",
                            "the engine dropped the comments that mark where a page's content starts and ends; "
                            "build with an engine that keeps raw HTML comments (MkDocs, ProperDocs)")
    out.append(html[done:])
    return "".join(out)


def with_way_back(html: str, page: str, not_found: str) -> str:
    """The 404 page with ``not_found`` (``not_found.not_found_content``) in place of the theme's
    bare heading; on MkDocs the hook has put it there already. Any other page as it is."""
    if page != NOT_FOUND_PAGE or not not_found:
        return html
    return html.replace(THEME_CONTENT, not_found, 1)


def finished_page(html: str, page: str, not_found: str = "") -> str:
    """An engine's page as layermap publishes it (before compaction and its security policy);
    ``not_found``: what the 404 page says instead of the theme's heading."""
    return with_head_script(resolved_links(sanitised_regions(with_way_back(html, page, not_found), page), page))


def finish_file(site: Path, page: str) -> None:
    """Finish the page ``page`` of the site folder ``site`` in place (``layermap serve``'s pages)."""
    path = site / page
    text = path.read_text(encoding="utf-8")
    finished = finished_page(text, page)
    if finished != text:
        path.write_text(finished, encoding="utf-8")
