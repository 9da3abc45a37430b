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

// Clears `svg` and sizes it `width` x `height` px, its viewBox the same.
function resetSvg(svg, width, height) {
  clear(svg);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
}

// A plot's grid, tick labels and axis titles: time in [t0, t1] ms across, values in [0, yTop]
// up in steps of yStep, inside `box` ({left, top, right, bottom}); `x` and `y` map a time and a
// value to pixels.
function drawAxes(svg, box, x, y, t0, t1, yTop, yStep, yTitle) {
  const grid = svgEl("g", { class: "grid" }, svg);
  const xStep = niceStep(t1 - t0, (box.right - box.left) / 90);
  for (let t = Math.ceil(t0 / xStep) * xStep; t <= t1 + 1e-9; t += xStep) {
    svgEl("line", { x1: px(x(t)), x2: px(x(t)), y1: box.top, y2: box.bottom }, grid);
    svgEl("text", { x: px(x(t)), y: box.bottom + 14, "text-anchor": "middle" }, svg)
        .textContent = secondsText(t, xStep);
  }
  for (let v = 0; v <= yTop + 1e-9; v += yStep) {
    svgEl("line", { x1: box.left, x2: box.right, y1: px(y(v)), y2: px(y(v)) }, grid);
    svgEl("text", { x: box.left - 5, y: px(y(v) + 4), "text-anchor": "end" }, svg).textContent =
        figure(v);
  }
  svgEl("text", { class: "axis-title", x: box.right, y: box.bottom + 28, "text-anchor": "end" },
        svg).textContent = TEXT.axis;
  const middle = (box.top + box.bottom) / 2;
  svgEl("text", { class: "axis-title", x: 12, y: middle, "text-anchor": "middle",
                  transform: "rotate(-90 12 " + middle + ")" }, svg).textContent = yTitle;
}
