// Page boot, shared by every script: onPage(start) runs start once per page the reader sees.
// With Material's instant navigation a page is swapped in without reloading the scripts, and
// Material announces each one on its document$ stream (replaying the current page to a late
// subscriber); without it (the downloadable copy, a page outside the theme) start runs once,
// when the document has been parsed. start finds its elements and marks them set up, so it may
// run again on the same element without doing anything twice.
export function onPage(start) {
  const pages = globalThis.document$;
  if (pages?.subscribe) pages.subscribe(() => start());
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => start(), { once: true });
  else start();
}
