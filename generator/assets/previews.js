// Hover previews: a link to another topic shows its title and summary, a citation its entry in
// the page's Sources list, on hover or keyboard focus (as Distill and Quartz do). Everything comes
// from the page itself (render/previews.py writes the topics' summaries into a hidden block): no
// request, so previews work offline and from disk. Escape or moving away hides the preview; the
// link names the preview as its description while it shows.
import { onPage } from "./boot.js";

const SHOW_AFTER_MS = 300;
let tip = null;
let owner = null;
let timer = 0;

function tooltip() {
  if (!tip) {
    tip = document.createElement("div");
    tip.id = "lm-preview";
    tip.className = "lm-preview";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    document.body.append(tip);
  }
  return tip;
}

function pageKey(href) {
  try {
    const url = new URL(href, location.href);
    return url.origin + url.pathname.replace(/index\.html$/, "");
  } catch { return ""; }
}

// The preview of each topic this page links to, by its address; citations are read on demand.
function topicPreviews() {
  const found = new Map();
  for (const item of document.querySelectorAll(".lm-previews [data-preview-for]")) {
    found.set(pageKey(item.dataset.previewFor), item);
  }
  return found;
}

// The theme's instant navigation makes every link absolute: a citation is a link to this page's #source-….
function previewOf(link, topics) {
  let target = null;
  try { target = new URL(link.getAttribute("href") || "", location.href); } catch { return null; }
  if (pageKey(target.href) === pageKey(location.href)) {
    return target.hash.startsWith("#source-") ? document.getElementById(decodeURIComponent(target.hash.slice(1))) : null;
  }
  if (target.origin !== location.origin && location.protocol !== "file:") return null;
  return topics.get(pageKey(target.href)) ?? null;
}

function hide() {
  clearTimeout(timer);
  if (owner) owner.removeAttribute("aria-describedby");
  owner = null;
  if (tip) tip.hidden = true;
}

function place(link) {
  const box = link.getBoundingClientRect();
  const card = tooltip();
  const width = Math.min(360, document.documentElement.clientWidth - 16);
  card.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8));
  const below = box.bottom + 8 + card.offsetHeight < innerHeight;
  card.style.left = `${left}px`;
  card.style.top = `${below ? box.bottom + 6 : Math.max(8, box.top - card.offsetHeight - 6)}px`;
}

function show(link, source) {
  const card = tooltip();
  card.replaceChildren(...[...source.childNodes].map((node) => node.cloneNode(true)));
  for (const inner of card.querySelectorAll("[id]")) inner.removeAttribute("id");
  for (const inner of card.querySelectorAll("a")) inner.replaceWith(...inner.childNodes); // a tooltip holds no links
  card.hidden = false;
  place(link);
  owner = link;
  link.setAttribute("aria-describedby", card.id);
}

function bind(content) {
  if (content.dataset.previews !== undefined) return;
  content.dataset.previews = "";
  const topics = topicPreviews();
  const start = (event, delay) => {
    const link = event.target.closest?.("a[href]");
    if (!link || link === owner || !content.contains(link)) return;
    const source = previewOf(link, topics);
    if (!source) return;
    hide();
    timer = setTimeout(() => show(link, source), delay);
  };
  content.addEventListener("mouseover", (event) => start(event, SHOW_AFTER_MS));
  content.addEventListener("focusin", (event) => start(event, 0));
  content.addEventListener("mouseout", (event) => {
    const link = event.target.closest?.("a[href]");
    if (link && !link.contains(event.relatedTarget)) hide();
  });
  content.addEventListener("focusout", hide);
}

addEventListener("keydown", (event) => { if (event.key === "Escape" && owner) hide(); });
addEventListener("scroll", () => { if (owner && tip && !tip.hidden) place(owner); }, { passive: true }); // follows its link

onPage(() => {
  hide();
  const content = document.querySelector(".md-content");
  if (content) bind(content);
});
