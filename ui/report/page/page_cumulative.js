// The comparison's cumulative chart, as the window's Comparison tab draws it: every limiter's
// accepted requests so far over the run on one axis, under the requests fired; each limiter its
// own colour and dash (the window's limiter pens), so the lines stay apart in grayscale too.

const CUMULATIVE_HEIGHT = 240;
const PENS = 6;

function CumulativeChart(parent) {
  this.box = htmlEl("div", "bar-chart", parent);
  htmlEl("h3", null, this.box, TEXT.cumulativeTitle);
  this.svg = svgEl("svg", { class: "tl cumulative", role: "img", "aria-label": TEXT.cumulativeTitle },
                   this.box);
  const legend = htmlEl("div", "legend", this.box);
  const entry = (cls, name) => {
    const span = htmlEl("span", null, legend);
    const swatch = svgEl("svg", { width: 30, height: 12, "aria-hidden": "true" }, span);
    svgEl("path", { class: cls, d: "M1,6H29" }, swatch);
    span.appendChild(document.createTextNode(name));
  };
  entry("fired", TEXT.fired);
  DATA.limiters.forEach((l, i) => entry("pen pen" + (i % PENS), l.name));
  // The running sums at each step's end: fired (the most of any limiter) and accepted per limiter.
  const steps = DATA.limiters.reduce((n, l) => Math.max(n, l.accepted.length), 0);
  this.accepted = DATA.limiters.map((l) => {
    const sums = [];
    let sum = 0;
    for (let g = 0; g < steps; ++g) sums.push(sum += l.accepted[g] || 0);
    return sums;
  });
  this.fired = [];
  const running = DATA.limiters.map(() => 0);
  for (let g = 0; g < steps; ++g) {
    let most = 0;
    DATA.limiters.forEach((l, i) => {
      running[i] += (l.accepted[g] || 0) + (l.rejected[g] || 0) + (l.errors ? l.errors[g] || 0 : 0);
      most = Math.max(most, running[i]);
    });
    this.fired.push(most);
  }
}

CumulativeChart.prototype.draw = function () {
  const svg = this.svg;
  const width = Math.max(320, this.box.clientWidth);
  resetSvg(svg, width, CUMULATIVE_HEIGHT);
  const box = { left: MARGIN.left, top: MARGIN.top, right: width - MARGIN.right,
                bottom: CUMULATIVE_HEIGHT - MARGIN.bottom };
  const { left, top, right, bottom } = box;
  const end = DATA.x_max_ms;
  const most = Math.max(this.fired.length ? this.fired[this.fired.length - 1] : 0, 1);
  const yStep = niceStep(most * 1.05, 4);
  const yTop = Math.ceil(most * 1.05 / yStep) * yStep;
  const x = (ms) => left + Math.min(ms, end) / end * (right - left);
  const y = (v) => bottom - v / yTop * (bottom - top);
  drawAxes(svg, box, x, y, 0, end, yTop, yStep, TEXT.requests);
  const line = (sums) => {
    let d = "M" + px(x(0)) + "," + px(y(0));
    sums.forEach((v, g) => { d += "L" + px(x((g + 1) * DATA.step_ms)) + "," + px(y(v)); });
    return d;
  };
  svgEl("path", { class: "fired", d: line(this.fired) }, svg);
  this.accepted.forEach((sums, i) => {
    const path = svgEl("path", { class: "pen pen" + (i % PENS), d: line(sums) }, svg);
    path.dataset.limiter = String(i);
    svgEl("title", {}, path).textContent =
        fmt(TEXT.acceptedSoFar, DATA.limiters[i].name, sums.length ? sums[sums.length - 1] : 0);
  });
  svgEl("rect", { class: "frame", x: left, y: top, width: right - left, height: bottom - top },
        svg);
  const d = svg.dataset;
  d.yTop = String(yTop);
  d.plot = [left, top, right, bottom].join(",");
};
