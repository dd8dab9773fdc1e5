"""Is the built site's address (mkdocs `site_url`) one that a published copy can use?

Canonical links and sitemap.xml name the site's address. A build for publishing needs the real
one (the Pages workflow passes it in LAYERMAP_SITE_URL); without one, the engine adapter leaves
the sitemap out and the theme writes no canonical links, rather than advertising a wrong address.
"""

from __future__ import annotations

from urllib.parse import urlsplit

LOCAL_HOSTS = {"localhost", "127.0.0.1", "0.0.0.0", "::1", "[::1]"}
EXAMPLE = "https://USER.github.io/REPO/"


def address_problem(site_url: str) -> str | None:
    """What is wrong with ``site_url`` for a published copy, or None when nothing is."""
    if not site_url:
        return ("no site URL is set (LAYERMAP_SITE_URL is empty): the pages carry no canonical link and the "
                "site no sitemap.xml")
    host = (urlsplit(site_url).hostname or "").lower()
    if host in LOCAL_HOSTS or host.endswith(".localhost"):
        return f"the site URL {site_url} is a local address: canonical links and sitemap.xml would name it"
    return None


def fix_for_publishing() -> str:
    return f"for a copy you publish, set LAYERMAP_SITE_URL to its address, e.g. LAYERMAP_SITE_URL={EXAMPLE}"
