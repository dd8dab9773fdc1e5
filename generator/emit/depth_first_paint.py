"""The depth a topic page opens at, known before its first paint, and a search index fetched on demand: scripts layermap's finishing step puts first in every page's head (``emit/finishing.py``).

A tiny inline script at the top of every page's ``<head>`` writes the wanted depth onto
``<html data-lm-depth>``: the depth in a ``#depth-dN`` link, or the depth holding the element
another link names, else the reader's stored choice, else ``any``. The stylesheet (``layermap.css``, "before the switcher script") then shows only
that depth's section, its tab bar and notice, so the page does not move when ``depth.js`` takes
over 1–3 s later on a slow phone. Without JavaScript the attribute is never set and every depth
shows as its own section. The script runs on full page loads only; on the theme's instant
navigation the attribute stays and ``depth.js`` keeps it current.

A second small script there holds back the search index until the reader opens search
(``LAZY_SEARCH_SCRIPT`` below), so a first page view downloads none of it. A third notes a
click on a "Mark as read" button that ``progress.js`` has not bound yet (``EARLY_MARK_SCRIPT``),
so that a reader quicker than a slow network loses nothing.

The scripts are inline so that they run before the body is parsed (and before the theme's bundle); the page's Content-Security-Policy
allows it by its hash, worked out from the built page like the theme's own inline scripts
(``generator/csp.py``).
"""

from __future__ import annotations

import re

STORAGE_KEY = "layermap.depth"  # the same key as depth.js
# A link into a depth: #depth-d4 (or #depth-d4-title) names it; for any other id (a heading or
# exercise inside a depth) the depths wait, hidden, until the parser reaches that id or passes
# the depths, and the depth holding it is shown: content only ever appears below, never moves.
HEAD_SCRIPT = (
    "(function(root){var key=null,hash=location.hash,link=/^#depth-(d[1-5])(?:-|$)/i.exec(hash),id,watch;"
    f'try{{key=localStorage.getItem("{STORAGE_KEY}")}}catch(e){{}}'
    "if(link)key=link[1].toUpperCase();"
    'root.setAttribute("data-lm-depth",/^D[1-5]$/.test(key)?key:"any");'
    "if(link||hash.length<2||!window.MutationObserver)return;"
    "try{id=decodeURIComponent(hash.slice(1))}catch(e){return}"
    'function stop(){root.removeAttribute("data-lm-depth-pending");watch.disconnect()}'
    "watch=new MutationObserver(function(){var target=document.getElementById(id),"
    'depths=document.querySelector(".lm-depths"),section=target&&target.closest(".lm-depth");'
    'if(section)root.setAttribute("data-lm-depth",section.getAttribute("data-depth"));'
    "if(target||(depths&&depths.nextElementSibling))stop()});"
    'root.setAttribute("data-lm-depth-pending","");'
    "watch.observe(root,{childList:true,subtree:true});"
    'document.addEventListener("DOMContentLoaded",stop)})(document.documentElement)'
)
# The search index is fetched when the reader opens search, not on every page view: Material's
# bundle asks for search/search_index.json (an XMLHttpRequest) as soon as it loads, so this script,
# which runs before the bundle, holds that one request back until the search field gets focus (a
# click, or the theme's shortcuts, which focus it) or the search toggle is checked (the phone's
# search button). The theme says "Initializing search" meanwhile. Every other request goes through
# untouched; from file:// (the downloadable copy) the theme loads the index as a script and this
# never applies. On instant navigation the page's window stays, so the index is fetched once a visit.
LAZY_SEARCH_SCRIPT = (
    "(function(w,d){var X=w.XMLHttpRequest,open,send,opened=false,waiting=[];"
    'if(!X||location.protocol==="file:")return;open=X.prototype.open;send=X.prototype.send;'
    'function isField(t){return!!(t&&t.matches&&t.matches("[data-md-component=search-query]"))}'
    "function start(){var held=waiting;if(opened)return;opened=true;waiting=[];"
    "held.forEach(function(h){try{send.apply(h[0],h[1])}catch(e){}})}"
    'function watch(e){var t=e.target;if(isField(t)||(t&&t.id==="__search"&&t.checked))start()}'
    'd.addEventListener("focusin",watch,true);d.addEventListener("change",watch,true);'
    "function isIndex(url){try{url=new URL(String(url),location.href)}catch(e){return false}"
    'return url.origin===location.origin&&url.pathname.slice(-25)==="/search/search_index.json"}'
    "X.prototype.open=function(method,url){this.__lmSearchIndex=isIndex(url);return open.apply(this,arguments)};"
    "X.prototype.send=function(){if(!this.__lmSearchIndex||opened||isField(d.activeElement))"
    "return send.apply(this,arguments);waiting.push([this,arguments])}})(window,document)"
)
# A read mark shows from the head script on (no shift), but answers once progress.js, a module at
# the end of the page, has bound it: a click before that is noted on the mark (data-lm-clicked),
# and progress.js marks the depth read when it binds it, as the button offered.
EARLY_MARK_SCRIPT = (
    '(function(d){d.addEventListener("click",function(e){var t=e.target,'
    'm=t&&t.closest&&t.closest(".lm-read-mark:not([data-bound])");'
    'if(m&&t.closest("button"))m.setAttribute("data-lm-clicked","")},true)})(document)'
)
HEAD_SCRIPTS = (HEAD_SCRIPT, LAZY_SEARCH_SCRIPT, EARLY_MARK_SCRIPT)
HEAD_TAG = "".join(f"<script>{script}</script>" for script in HEAD_SCRIPTS)
_HEAD_START = re.compile(r"<head\b[^>]*>(\s*<meta\s+charset\s*=[^>]*>)?", re.IGNORECASE)


def with_head_script(html: str) -> str:
    """The page with the script first in ``<head>`` (after the charset; the policy goes before it)."""
    head = _HEAD_START.search(html)
    if head is None or HEAD_TAG in html:
        return html
    return html[: head.end()] + HEAD_TAG + html[head.end():]
