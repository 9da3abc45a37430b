// The comparison's charts, as the window's Comparison tab draws them: a bar per limiter for its
// accepted share of the requests fired, and for its admitted burst in its own window crossed by
// a dashed line at what its limit admits there in the steady state.

const BAR_ROW = 26;
const VALUE_ROOM = 120;

// `name` cut with an ellipsis to `width` px as `measure` (an SVG text) lays it out.
function fitted(measure, name, width) {
  measure.textContent = name;
  if (measure.getComputedTextLength() <= width) return name;
  let n = name.length;
  while (n > 1) {
    measure.textContent = name.slice(0, --n) + "…";
    if (measure.getComputedTextLength() <= width) break;
  }
  return measure.textContent;
}

function BarChart(parent, title, bars, scaleMax) {
  this.bars = bars;
  this.scaleMax = scaleMax;
  this.box = htmlEl("div", "bar-chart", parent);
  htmlEl("h3", null, this.box, title);
  this.svg = svgEl("svg", { class: "bars", role: "img", "aria-label": title }, this.box);
}

BarChart.prototype.draw = function () {
  const svg = this.svg;
  const width = Math.max(320, this.box.clientWidth);
  resetSvg(svg, width, this.bars.length * BAR_ROW + 4);
  const measure = svgEl("text", {}, svg);
  let nameWidth = 0;
  for (const bar of this.bars) {
    measure.textContent = bar.name;
    nameWidth = Math.max(nameWidth, measure.getComputedTextLength());
  }
  nameWidth = Math.min(nameWidth, width * 0.35);
  const x0 = nameWidth + 10;
  const x1 = Math.max(x0 + 50, width - VALUE_ROOM);
  let scale = this.scaleMax;
  if (!scale) {
    scale = 0;
    for (const bar of this.bars) scale = Math.max(scale, bar.value, bar.reference || 0);
    scale = scale > 0 ? scale * 1.05 : 1;
  }
  const xOf = (v) => x0 + v / scale * (x1 - x0);
  this.bars.forEach((bar, i) => {
    const top = 2 + i * BAR_ROW;
    const g = svgEl("g", {}, svg);
    svgEl("title", {}, g).textContent = bar.tip;
    svgEl("text", { x: px(nameWidth), y: top + 17, "text-anchor": "end" }, g).textContent =
        fitted(measure, bar.name, nameWidth);
    svgEl("rect", { class: "track", x: px(x0), y: top + 4, width: px(x1 - x0),
                    height: BAR_ROW - 8 }, g);
    const rect = svgEl("rect", { class: "bar", x: px(x0), y: top + 4,
                                 width: px(xOf(bar.value) - x0), height: BAR_ROW - 8 }, g);
    rect.dataset.value = String(bar.value);
    let textX = xOf(bar.value);
    if (bar.reference !== undefined) {
      const x = px(xOf(bar.reference));
      svgEl("line", { class: "ref", x1: x, x2: x, y1: top + 1, y2: top + BAR_ROW - 1 }, g);
      textX = Math.max(textX, xOf(bar.reference));
    }
    svgEl("text", { x: px(textX + 6), y: top + 17 }, g).textContent = bar.text;
  });
  svg.removeChild(measure);
  const d = svg.dataset;
  d.scale = String(scale);
  d.x0 = String(x0);
  d.x1 = String(x1);
};

// The comparison's bar charts in `parent`.
function comparisonCharts(parent) {
  const charts = [];
  if (DATA.shares.length) charts.push(new BarChart(parent, TEXT.sharesTitle, DATA.shares, 100));
  if (DATA.bursts.length) {
    charts.push(new BarChart(parent, TEXT.burstsTitle, DATA.bursts, 0));
  } else if (DATA.limiters.length) {
    htmlEl("p", "note", parent, TEXT.noBursts);
  }
  return charts;
}
