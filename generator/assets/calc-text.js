// The calculator's pure parts: number text <-> slider position, and a scenario <-> the page
// address. Nothing here touches the page, so node's test runner checks it (tests/js/).

function roundToStep(value, step) {
  const rounded = step > 0 ? Math.round(value / step) * step : value;
  return String(Number(rounded.toPrecision(12)));
}

// The text a slider at `position` stands for (a log slider's position is the power of ten).
export function sliderText(position, step, scale) {
  if (scale !== "log") return roundToStep(position, step);
  const value = 10 ** position;
  return roundToStep(step >= 1 ? value : Number(value.toPrecision(3)), step);
}

// The slider position for a number's text, or null when the text is no number it can show.
export function sliderPosition(text, scale) {
  const value = Number(String(text).replaceAll(",", ""));
  if (!Number.isFinite(value) || (scale === "log" && value <= 0)) return null;
  return String(scale === "log" ? Math.log10(value) : value);
}

// A calculator's scenario in the query of the page's address: ?calc-x.tp=2&calc-x.pp=8 names
// the values that differ from the defaults; other calculators' keys and other parameters stay.
export function scenarioSearch(search, prefix, raw, defaults) {
  const params = new URLSearchParams(search);
  for (const key of [...params.keys()]) if (key.startsWith(prefix)) params.delete(key);
  for (const [name, text] of Object.entries(raw)) if (defaults[name] !== text) params.set(prefix + name, text);
  const query = params.toString();
  return query ? `?${query}` : "";
}

// The [name, text] pairs a shared address sets on the calculator whose keys start with prefix.
export function sharedScenario(search, prefix) {
  return [...new URLSearchParams(search)].filter(([key]) => key.startsWith(prefix)).map(([key, text]) => [key.slice(prefix.length), text]);
}
