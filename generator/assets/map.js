// The drawn map: highlight a node's edges and neighbours on hover or focus, show its
// summary from the map index, zoom and pan. The SVG itself is built at build time and
// works without this script (links, labels, text list); this only adds to it.
import { onPage } from "./boot.js";

const indexes = new Map(); // index URL → Promise of the map index

function mapIndex(url) {
  if (!indexes.has(url)) {
    // The downloadable copy (read from disk, where fetch is refused) embeds the index as a script.
    const embedded = window.layermapMapIndex;
    indexes.set(url, embedded ? Promise.resolve(embedded) : fetch(url).then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  return indexes.get(url);
}

function highlight(svg, id) {
  svg.classList.toggle("lm-active", Boolean(id));
  for (const el of svg.querySelectorAll(".lm-on, .lm-near")) el.classList.remove("lm-on", "lm-near");
  if (!id) return;
  const near = new Set();
  for (const el of svg.querySelectorAll(`[data-s="${id}"], [data-o="${id}"]`)) {
    el.classList.add("lm-on");
    near.add(el.dataset.s).add(el.dataset.o);
  }
  for (const node of svg.querySelectorAll(".lm-node")) {
    if (node.dataset.id === id) node.classList.add("lm-on");
    else if (near.has(node.dataset.id)) node.classList.add("lm-near");
  }
}

async function describe(figure, id) {
  const info = figure.querySelector(".lm-map-info");
  if (!info) return;
  figure.dataset.showing = id || "";
  const index = id && (await mapIndex(new URL(figure.dataset.index, location.href).href));
  if (figure.dataset.showing !== (id || "")) return; // the reader has moved on meanwhile
  const topic = index?.topics.find((t) => t.id === id);
  const layer = !topic && index?.layers.find((l) => `layer-${l.number}` === id);
  const entry = topic ? [topic.title, topic.summary] : layer ? [layer.label, layer.description] : null;
  info.hidden = !entry;
  info.textContent = "";
  if (!entry) return;
  const name = document.createElement("strong");
  name.textContent = entry[0];
  info.append(name, `: ${entry[1]}`);
}

function show(figure, svg, id) {
  highlight(svg, id);
  describe(figure, id);
}

// Arrow keys move the focus between boxes: left and right along a band, up and down to the
// nearest box in the next band with boxes (bands are stacked bottom-up, first layer lowest).
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

function boxCentre(node) {
  const box = node.querySelector("rect");
  return Number(box.getAttribute("x")) + Number(box.getAttribute("width")) / 2;
}

function nodeInDirection(svg, from, [across, up]) {
  const nodes = [...svg.querySelectorAll(".lm-node")].map((node) => ({ node, band: Number(node.dataset.band), x: boxCentre(node) }));
  const here = nodes.find((entry) => entry.node === from);
  if (across) {
    const row = nodes.filter((entry) => entry.band === here.band).sort((a, b) => a.x - b.x);
    return row[row.indexOf(here) + across]?.node ?? null;
  }
  const bands = nodes.map((entry) => entry.band).filter((band) => (band - here.band) * up > 0);
  if (!bands.length) return null;
  const band = up > 0 ? Math.min(...bands) : Math.max(...bands);
  const row = nodes.filter((entry) => entry.band === band);
  return row.reduce((best, entry) => (Math.abs(entry.x - here.x) < Math.abs(best.x - here.x) ? entry : best)).node;
}

function addArrowKeys(svg) {
  svg.addEventListener("keydown", (event) => {
    const from = event.target.closest?.(".lm-node");
    const step = ARROWS[event.key];
    if (!from || !step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();  // even at an edge of the map: the page should not scroll instead
    nodeInDirection(svg, from, step)?.focus();
  });
  const desc = svg.querySelector("desc");
  if (desc) desc.textContent += " Arrow keys move between neighbouring boxes.";
}

function addZoom(figure, frame, svg) {
  const width = svg.viewBox.baseVal.width;
  let scale = null; // null: as laid out by CSS (fit, never below its min-width)
  const apply = (next, anchor) => {
    const before = svg.getBoundingClientRect().width;
    const cx = (anchor ?? frame.clientWidth / 2) + frame.scrollLeft;
    const cy = frame.clientHeight / 2 + frame.scrollTop;
    scale = Math.min(4, Math.max(0.2, next));
    svg.classList.add("lm-zoomed");
    svg.style.width = `${width * scale}px`;
    const ratio = svg.getBoundingClientRect().width / before;
    frame.scrollLeft = cx * ratio - (anchor ?? frame.clientWidth / 2);
    frame.scrollTop = cy * ratio - frame.clientHeight / 2;
  };
  const current = () => scale ?? svg.getBoundingClientRect().width / width;
  const tools = document.createElement("div");
  tools.className = "lm-map-tools";
  const buttons = [
    ["−", "Zoom out", () => apply(current() / 1.25)],
    ["+", "Zoom in", () => apply(current() * 1.25)],
    ["Fit", "Fit the map to the frame", () => apply(Math.min(1, frame.clientWidth / width))],
    ["1:1", "1:1, actual size", () => apply(1)],  // the name holds the visible text (WCAG 2.5.3)
  ];
  for (const [text, label, action] of buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.setAttribute("aria-label", label);
    button.title = label;
    button.addEventListener("click", action);
    tools.append(button);
  }
  const skip = figure.querySelector(".lm-map-skip");
  if (skip) skip.after(tools);
  else figure.prepend(tools);
  frame.addEventListener("wheel", (event) => {
    if (!event.ctrlKey && !event.metaKey) return; // plain wheel scrolls the page and the frame
    event.preventDefault();
    const left = event.clientX - frame.getBoundingClientRect().left;
    apply(current() * (event.deltaY < 0 ? 1.15 : 1 / 1.15), left);
  }, { passive: false });
}

function addDragPan(frame) {
  let start = null;
  frame.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "mouse" || event.button !== 0 || event.target.closest(".lm-node")) return;
    start = { x: event.clientX, y: event.clientY, left: frame.scrollLeft, top: frame.scrollTop };
    frame.setPointerCapture(event.pointerId);
    frame.classList.add("lm-dragging");
  });
  frame.addEventListener("pointermove", (event) => {
    if (!start) return;
    frame.scrollLeft = start.left - (event.clientX - start.x);
    frame.scrollTop = start.top - (event.clientY - start.y);
  });
  const stop = () => { start = null; frame.classList.remove("lm-dragging"); };
  frame.addEventListener("pointerup", stop);
  frame.addEventListener("pointercancel", stop);
}

// Material's instant navigation only follows HTML links: a click on an SVG box would reload the
// page (restarting every script and the calculator runtime). A plain click is handed to it as a
// click on an HTML link to the same address; Material takes it over when it can, and otherwise
// the browser follows that link as usual. Clicks with a modifier key open tabs or windows as
// the reader asked; none of them reaches Material, which cannot read an SVG link's address.
function followThroughInstantNavigation(svg) {
  svg.addEventListener("click", (event) => {
    const node = event.target.closest?.("a.lm-node");
    if (!node) return;
    event.stopPropagation();
    if (event.defaultPrevented || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    const link = document.createElement("a");
    link.href = node.href.baseVal;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  });
}

// On a narrow screen the drawing is scaled down to fit and the same map as text is shown (by
// map.css, from the first paint); here the disclosure is opened for real, so it says what it shows.
const NARROW_SCREEN = window.matchMedia("screen and (max-width: 44.984375em)");

function showTextOnNarrowScreens(figure) {
  const list = figure.querySelector(".lm-map-text");
  if (!list) return;
  if (NARROW_SCREEN.matches) list.open = true;
  list.classList.add("lm-ready");
  figure.querySelector(".lm-map-hint a")?.addEventListener("click", (event) => {
    event.preventDefault();  // instant navigation would leave it under the header, the focus behind
    event.stopPropagation();
    list.open = true;
    list.querySelector("summary").focus({ preventScroll: true });
    list.scrollIntoView({ block: "start" });  // below the header: scroll-margin-top in map.css
  });
}

// A frame that scrolls (a wide map, or zoomed in) takes the focus itself, so a keyboard reader
// can scroll it with the arrow keys; one that fits stays out of the tab order.
function keepScrollingFrameFocusable(frame) {
  const update = () => {
    const scrolls = frame.scrollWidth > frame.clientWidth + 1 || frame.scrollHeight > frame.clientHeight + 1;
    if (scrolls === (frame.tabIndex === 0)) return;
    if (scrolls) {
      frame.tabIndex = 0;
      frame.setAttribute("role", "group");
      frame.setAttribute("aria-label", "The drawn map, wider than the page: arrow keys scroll it");
    } else {
      frame.removeAttribute("tabindex");
      frame.removeAttribute("role");
      frame.removeAttribute("aria-label");
    }
  };
  update();
  if (window.ResizeObserver) {
    const observer = new ResizeObserver(update);
    observer.observe(frame);
    if (frame.firstElementChild) observer.observe(frame.firstElementChild);
  }
}

// A frame that shows only a region of the drawing (a phone, a large map) opens on the box of the
// topic the page is about.
function showCurrentBox(frame, svg) {
  const box = svg.querySelector(".lm-current rect");
  if (!box || (frame.scrollWidth <= frame.clientWidth + 1 && frame.scrollHeight <= frame.clientHeight + 1)) return;
  const view = frame.getBoundingClientRect();
  const at = box.getBoundingClientRect();
  frame.scrollLeft += at.left - view.left - (view.width - at.width) / 2;
  frame.scrollTop += at.top - view.top - (view.height - at.height) / 2;
}

function setUp(figure) {
  if (figure.dataset.ready) return;
  figure.dataset.ready = "true";
  const frame = figure.querySelector(".lm-map-frame");
  const svg = frame?.querySelector("svg");
  showTextOnNarrowScreens(figure);
  if (!svg) return;
  const nodeOf = (event) => event.target.closest?.(".lm-node");
  svg.addEventListener("pointerover", (event) => {
    const node = nodeOf(event);
    if (node) show(figure, svg, node.dataset.id);
  });
  svg.addEventListener("pointerleave", () => {
    const focused = document.activeElement?.closest?.(".lm-node");
    show(figure, svg, focused && svg.contains(focused) ? focused.dataset.id : null);
  });
  svg.addEventListener("focusin", (event) => {
    const node = nodeOf(event);
    if (node) show(figure, svg, node.dataset.id);
  });
  svg.addEventListener("focusout", (event) => {
    if (!event.relatedTarget || !svg.contains(event.relatedTarget)) show(figure, svg, null);
  });
  addArrowKeys(svg);
  followThroughInstantNavigation(svg);
  addZoom(figure, frame, svg);
  keepScrollingFrameFocusable(frame);
  showCurrentBox(frame, svg);
  addDragPan(frame);
  figure.querySelector(".lm-map-skip")?.addEventListener("click", (event) => {
    const end = document.getElementById(event.currentTarget.hash.slice(1));
    if (!end) return;
    event.preventDefault(); // instant navigation would scroll without moving the focus
    end.focus();
  });
}

function setUpPage() {
  document.querySelectorAll(".lm-map").forEach(setUp);
}

onPage(setUpPage);
