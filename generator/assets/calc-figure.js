// A figure's SVG text -> nodes, parsed as SVG (never as HTML).

const FIGURE_ELEMENTS = new Set(["svg", "g", "title", "desc", "rect", "line", "path", "text", "tspan"]);

// Only the elements figures draw survive, without event handlers or links.
export function figureNodes(svgText) {
  const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  if (!svgText || parsed.localName !== "svg" || parsed.namespaceURI !== "http://www.w3.org/2000/svg") return [];
  for (const element of [parsed, ...parsed.querySelectorAll("*")]) {
    if (!FIGURE_ELEMENTS.has(element.localName)) { element.remove(); continue; }
    for (const { name } of [...element.attributes]) if (/^on|href$/i.test(name) || name === "style") element.removeAttribute(name);
  }
  return [document.importNode(parsed, true)];
}
