// report.html's script, shared part: the page's data, its texts and small helpers. The script
// is plain JavaScript run once on load; it loads nothing and draws only inline SVG.

const SVG_NS = document.getElementById("ratelab-defs").namespaceURI;
const DATA = JSON.parse(document.getElementById("ratelab-data").textContent);
const TEXT = DATA.text;

// "%1 of %2" with the arguments after the template.
function fmt(template) {
  const args = arguments;
  return template.replace(/%(\d)/g, function (_, i) { return String(args[Number(i)]); });
}

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function htmlEl(name, cls, parent, text) {
  const e = document.createElement(name);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

// The smallest of 1, 2, 5 x 10^k at or above x (at least 1): how many steps one drawn step sums.
function niceAtLeast(x) {
  if (!(x > 1)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

// A 1, 2, 5 x 10^k step giving about `ticks` intervals over `span`.
function niceStep(span, ticks) {
  const raw = span / Math.max(ticks, 1);
  if (!(raw > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5]) if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

// "200 ms", "1 s", "5 min".
function durationText(ms) {
  if (ms >= 60000 && ms % 60000 === 0) return fmt(TEXT.min, ms / 60000);
  if (ms >= 1000 && ms % 1000 === 0) return fmt(TEXT.s, ms / 1000);
  return fmt(TEXT.ms, ms);
}

// ms as seconds with as many decimals as a step of `stepMs` needs.
function secondsText(ms, stepMs) {
  const decimals = stepMs >= 1000 ? 0 : stepMs >= 100 ? 1 : stepMs >= 10 ? 2 : 3;
  return (ms / 1000).toFixed(decimals);
}

// Coordinates to 1/100 px: exact enough to read the figures back, short enough to keep the
// drawing small.
function px(v) {
  return String(Math.round(v * 100) / 100);
}

// A figure as the tables show it: whole, or to 3 decimals.
function figure(v) {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}
