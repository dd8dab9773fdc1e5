// A page of an earlier deployment that the browser still holds (GitHub Pages lets it reuse a page
// for ten minutes, and Back shows a kept page even later) names that deployment's folder of
// layermap's scripts, stylesheet and Python, assets/layermap-<digest>/ (generator/emit/revisioned.py),
// which the site no longer has once a newer deployment replaced it: the page would show unstyled,
// with none of its scripts. This classic script, under a name every deployment keeps
// (assets/stale-page.js), runs once the page is parsed, when its stylesheets have loaded or failed:
// if the versioned stylesheet failed and the server says it is gone (404), the page is loaded again,
// which asks the server for the page itself (the current deployment's, naming its own folder).
// Never when the network failed (nothing newer would come), and once per page and folder in this
// tab: a site that really lacks the folder is not reloaded in a loop.
(() => {
  const VERSIONED_STYLESHEET = /\/assets\/layermap-[0-9a-f]+\/[^/]+\.css$/;
  const RELOADED = "layermap.reloaded-for";  // sessionStorage: the page and folder this tab reloaded for
  const link = [...document.querySelectorAll('link[rel="stylesheet"]')]
    .find((candidate) => VERSIONED_STYLESHEET.test(new URL(candidate.href).pathname));
  if (!link) return;
  const mark = `${location.pathname} ${link.href}`;
  try {
    if (link.sheet?.cssRules.length) return;  // it applies (Chromium gives a failed stylesheet an empty sheet)
    if (sessionStorage.getItem(RELOADED) === mark) return;
  } catch {
    return;  // a sheet that cannot be read, or a tab that cannot remember the reload: none
  }
  fetch(link.href, { method: "HEAD", cache: "no-store" }).then((response) => {
    if (response.status !== 404) return;
    sessionStorage.setItem(RELOADED, mark);
    location.reload();
  }).catch(() => {});  // the network failed: the page stays as it is
})();
