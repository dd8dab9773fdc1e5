// Page boot, shared by every script: onPage(start) runs start for each page the reader sees.
// Material announces each page on its document$ stream (replaying the current one to a late
// subscriber); with instant navigation a page is swapped in without reloading the scripts, so
// start runs again for each. Without the theme (a bare test page) start runs once, when the
// document has been parsed. start marks what it has set up, so a second run does nothing twice.
export function onPage(start) {
  const pages = globalThis.document$;
  if (pages?.subscribe) pages.subscribe(() => start());
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => start(), { once: true });
  else start();
}
