// A limiter whose limit is on requests in flight (the concurrency limiter), drawn as the window
// draws it instead of a rate line: over its counts per column, the most requests in flight in
// each column on a scale of its own (the right axis) with the in-flight limit dashed on it, the
// grants released per column dotted on the counts' scale, and a diamond at each column whose
// grants leaked (never released: their slots came back only when their lease ran out).

// Room for the right axis, in every timeline of a page that has one, so that the plots line up.
const IN_FLIGHT_MARGIN_RIGHT = 50;

function anyInFlight() {
  return DATA.limiters.some((l) => l.in_flight);
}

// Each drawn column's figures: the most in flight in any of its steps, its releases and leaks.
Timeline.prototype.inFlightColumns = function () {
  const f = this.l.in_flight;
  return this.cols.map((col) => {
    const out = { most: 0, released: 0, leaked: 0 };
    const first = Math.round(col.t0 / DATA.step_ms);
    for (let g = first; g < first + this.k && g < f.most.length; ++g) {
      out.most = Math.max(out.most, f.most[g]);
      out.released += f.released[g];
      out.leaked += f.leaked[g];
    }
    return out;
  });
};

// The top of the counts' scale the releases need (they may outnumber a column's requests).
Timeline.prototype.inFlightCountsTop = function () {
  if (!this.l.in_flight) return 0;
  return this.inFlightColumns().reduce((most, c) => Math.max(most, c.released), 0);
};

Timeline.prototype.drawInFlight = function (plot) {
  const f = this.l.in_flight;
  if (!f || !this.cols.length) return;
  const cols = this.inFlightColumns();
  this.inFlight = cols;
  // A lesson's frame: the run so far (`until_ms`), not zeros after it.
  const shown = f.until_ms === undefined
                    ? this.cols.length : this.cols.filter((col) => col.t0 < f.until_ms).length;
  const wanted = Math.max(cols.reduce((most, c) => Math.max(most, c.most), f.limit) * 1.1, 1);
  const step = niceStep(wanted, 4);
  const top = Math.ceil(wanted / step) * step;
  const y = (v) => this.bottom - v / top * (this.bottom - this.top);
  for (let v = 0; v <= top + 1e-9; v += step) {
    svgEl("text", { x: this.right + 5, y: px(y(v) + 4), "text-anchor": "start" }, this.svg)
        .textContent = figure(v);
  }
  const middle = (this.top + this.bottom) / 2;
  const titleX = this.right + IN_FLIGHT_MARGIN_RIGHT - 8;
  svgEl("text", { class: "axis-title", x: titleX, y: middle, "text-anchor": "middle",
                  transform: "rotate(90 " + titleX + " " + middle + ")" }, this.svg)
      .textContent = TEXT.inFlightAxis;
  const steps = (value, scale) => this.cols.slice(0, shown).map((col, i) => {
    const v = px(scale(value(cols[i])));
    return (i ? "L" : "M") + px(this.x(col.t0)) + "," + v + "L" + px(this.x(col.t1)) + "," + v;
  }).join("");
  if (shown) {
    svgEl("path", { class: "released", d: steps((c) => c.released, (v) => this.y(v)) }, plot);
    svgEl("path", { class: "in-flight", d: steps((c) => c.most, y) }, plot);
  }
  svgEl("path", { class: "in-flight-limit",
                  d: "M" + px(this.left) + "," + px(y(f.limit)) + "H" + px(this.right) }, plot);
  this.cols.slice(0, shown).forEach((col, i) => {
    if (!cols[i].leaked) return;
    const d = "M" + px(this.x((col.t0 + col.t1) / 2)) + "," + px(y(cols[i].most) - 5);
    svgEl("path", { class: "leak", d: d + "l5,5l-5,5l-5,-5Z" }, plot);
  });
  // What the self-test reads the drawing back with.
  this.svg.dataset.inFlightTop = String(top);
};
