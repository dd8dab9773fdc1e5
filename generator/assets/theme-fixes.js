// Accessible names Material's markup leaves out (found by axe-core): the search dialog.
function nameSearchDialog() {
  const dialog = document.querySelector(".md-search[role=dialog]");
  if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", "Search this site");
}

if (window.document$?.subscribe) window.document$.subscribe(nameSearchDialog);
else nameSearchDialog();
