"""Is the built site's address (mkdocs `site_url`) one that a published copy can use?

Canonical links and sitemap.xml name the site's address. A build for publishing needs the real
one (the Pages workflow passes it in LAYERMAP_SITE_URL); without one, the engine adapter leaves
the sitemap out and the theme writes no canonical links, rather than advertising a wrong address.

The theme prints the address into every page as it is (and so into the scripts the CSP hashes):
:func:`checked_site_url` refuses one that is anything but an http(s) URL of a host and a path.
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

from generator.errors import LayermapError
from generator.terminal import shown

LOCAL_HOSTS = {"localhost", "127.0.0.1", "0.0.0.0", "::1", "[::1]"}
EXAMPLE = "https://USER.github.io/REPO/"
ENV_VARIABLE = "LAYERMAP_SITE_URL"
_URL_CHARACTER = re.compile(r"[A-Za-z0-9\-._~/%:\[\]]")  # a host, a port and a path; no quote, bracket or space
_NAMED = {" ": "a space", '"': "a quote (`\"`)", "'": "a quote (`'`)", "<": "an angle bracket (`<`)",
          ">": "an angle bracket (`>`)", "\\": "a backslash (`\\`)"}


def _odd_character(site_url: str) -> str | None:
    odd = next((char for char in site_url if not _URL_CHARACTER.fullmatch(char)), None)
    if odd is None:
        return None
    if odd in _NAMED:
        return f"it holds {_NAMED[odd]}"
    if not odd.isprintable() or odd.isspace():
        return f"it holds the control character or space `{shown(odd)}`"
    if not odd.isascii():
        return f"it holds `{odd}`, which is not ASCII: write the host as its `xn--` form and percent-encode the path"
    return f"it holds `{odd}`, which a site address does not need (percent-encode it, as `%{ord(odd):02X}`)"


def url_problem(site_url: str) -> str | None:
    """What makes ``site_url`` no site address (an http(s) URL of a host and a path only), or None."""
    parts = urlsplit(site_url)
    if not re.match(r"https?://", site_url, re.IGNORECASE):
        return "it does not start with `https://` or `http://`"
    if "@" in parts.netloc:
        return "it holds a user name or password (`…@`), which every page would show"
    if "?" in site_url or "#" in site_url:
        return "it has a query (`?…`) or a fragment (`#…`): the site's address is a folder"
    odd = _odd_character(site_url)
    if odd:
        return odd
    if not parts.hostname:
        return "it names no host"
    try:
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        return "its port is not a number from 0 to 65535"
    return None


def checked_site_url(site_url: str, setting: str | None = None) -> str:
    """``site_url`` ("" for none), or a LayermapError naming ``setting`` (by default the variable
    when it gave the address, else mkdocs.yml's `site_url`), what is wrong and how to fix it."""
    problem = url_problem(site_url) if site_url else None
    if problem is None:
        return site_url
    from_variable = os.environ.get(ENV_VARIABLE, "").rstrip("/") == site_url.rstrip("/")
    setting = setting or (ENV_VARIABLE if from_variable else "`site_url` in mkdocs.yml")
    raise LayermapError(f"{setting} is not a usable site address: {problem} ({shown(site_url)})",
                        f"set it to the address the site is published at, with nothing after its path, e.g. "
                        f"{EXAMPLE}; nothing was built and the previous site/ was kept")


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
