// One limiter's timeline, drawn for the shared view [v0, v1] (ms since the run's start) as the
// window draws it: the counts per step stacked (accepted, rejected on it, errors hatched on both,
// so the top edge is the fired count), the limit in the steady state as a dashed line (a limit
// on requests in flight as page_in_flight.js draws it), the
// calendar windows' starts, the marked admitted burst, and each traffic group's accepted
// requests as a line over the areas (the window's group pens). At most one step per pixel column:
// the page's steps are summed into columns of a round number of them.

const MARGIN = { left: 62, right: 14, top: 10, bottom: 34 };
const TIMELINE_HEIGHT = 210;
// More window starts than this in view would paint the plot solid; they are left out then.
const MAX_BOUNDARIES_IN_VIEW = 240;
let clipIds = 0;

function Timeline(limiter, index, parent) {
  this.l = limiter;
  this.index = index;
  this.fig = htmlEl("figure", "timeline", parent);
  const caption = htmlEl("figcaption", null, this.fig);
  htmlEl("b", null, caption, limiter.name);
  caption.appendChild(document.createTextNode(
      " · " + limiter.type + (limiter.config ? " · " + limiter.config : "")));
  htmlEl("span", "totals", caption,
         fmt(TEXT.totals, limiter.totals[0], limiter.totals[1], limiter.totals[2]));
  this.svg = svgEl("svg", { class: "tl", role: "img", "aria-label": limiter.name }, this.fig);
  this.svg.dataset.limiter = String(index);
  this.cols = [];
}

// The plot's pixel box and scales for the view; set by draw().
Timeline.prototype.x = function (ms) {
  return this.left + (ms - this.v0) / (this.v1 - this.v0) * (this.right - this.left);
};
Timeline.prototype.y = function (v) {
  return this.bottom - v / this.yTop * (this.bottom - this.top);
};
Timeline.prototype.timeAt = function (clientX) {
  const box = this.svg.getBoundingClientRect();
  const x = Math.min(Math.max(clientX - box.left, this.left), this.right);
  return this.v0 + (x - this.left) / (this.right - this.left) * (this.v1 - this.v0);
};
// The drawn column holding `ms`, or null.
Timeline.prototype.columnAt = function (ms) {
  for (const col of this.cols) if (ms >= col.t0 && ms < col.t1) return col;
  return null;
};

// Sums the page's steps into columns of `k` steps over [v0, v1].
Timeline.prototype.columns = function (k) {
  const l = this.l;
  const stepMs = DATA.step_ms;
  const n = l.accepted.length;
  const colMs = k * stepMs;
  const groups = l.groups || [];
  const cols = [];
  const first = Math.max(0, Math.floor(this.v0 / colMs));
  for (let c = first; c * k < n && c * colMs < this.v1; ++c) {
    const col = { t0: c * colMs, t1: Math.min((c + 1) * colMs, DATA.x_max_ms), a: 0, r: 0, e: 0,
                  ga: groups.map(() => 0), gr: groups.map(() => 0) };
    for (let g = c * k; g < (c + 1) * k && g < n; ++g) {
      col.a += l.accepted[g];
      col.r += l.rejected[g];
      if (l.errors) col.e += l.errors[g];
      groups.forEach((group, j) => {
        col.ga[j] += group.accepted[g];
        col.gr[j] += group.rejected[g];
      });
    }
    cols.push(col);
  }
  return cols;
};

Timeline.prototype.draw = function (v0, v1) {
  const svg = this.svg;
  const width = Math.max(320, this.fig.clientWidth);
  resetSvg(svg, width, TIMELINE_HEIGHT);
  this.v0 = v0;
  this.v1 = v1;
  this.left = MARGIN.left;
  this.right = width - (anyInFlight() ? IN_FLIGHT_MARGIN_RIGHT : MARGIN.right);
  this.top = MARGIN.top;
  this.bottom = TIMELINE_HEIGHT - MARGIN.bottom;
  const plotWidth = this.right - this.left;
  const visibleSteps = Math.max(1, Math.ceil((v1 - v0) / DATA.step_ms));
  this.k = niceAtLeast(Math.ceil(visibleSteps / plotWidth));
  this.colMs = this.k * DATA.step_ms;
  this.cols = this.columns(this.k);
  let most = this.inFlightCountsTop();
  for (const col of this.cols) most = Math.max(most, col.a + col.r + col.e);
  // A lesson's frames share one scale as the run grows (lesson.html): at least this tall.
  if (this.l.scale) most = Math.max(most, this.l.scale(this.k));
  this.limit = this.l.limit !== undefined ? this.l.limit * this.k : null;
  const wanted = Math.max(most * 1.08, this.limit ? this.limit * 1.15 : 0, 1);
  const yStep = niceStep(wanted, 4);
  this.yTop = Math.ceil(wanted / yStep) * yStep;

  const clipId = "plot-clip-" + (++clipIds);
  const clip = svgEl("clipPath", { id: clipId }, svg);
  svgEl("rect", { x: this.left, y: this.top, width: plotWidth, height: this.bottom - this.top },
        clip);
  this.drawGrid(yStep);
  const plot = svgEl("g", { "clip-path": "url(#" + clipId + ")" }, svg);
  this.drawAreas(plot);
  this.drawBoundaries(plot);
  this.drawGroups(plot);
  this.drawInFlight(plot);
  if (this.limit) {
    svgEl("path", { class: "limit", d: "M" + px(this.left) + "," + px(this.y(this.limit)) +
                                       "H" + px(this.right) }, plot);
  }
  this.drawBurst(plot);
  svgEl("rect", { class: "frame", x: this.left, y: this.top, width: plotWidth,
                  height: this.bottom - this.top }, svg);
  this.hover = svgEl("rect", { class: "hover-col", x: 0, y: this.top, width: 0,
                               height: this.bottom - this.top, visibility: "hidden" }, svg);
  this.sel = svgEl("rect", { class: "sel", x: 0, y: this.top, width: 0,
                             height: this.bottom - this.top, visibility: "hidden" }, svg);
  this.hit = svgEl("rect", { class: "hit", x: this.left, y: this.top, width: plotWidth,
                             height: this.bottom - this.top }, svg);
  // What the self-test reads the drawing back with.
  const d = svg.dataset;
  d.v0 = String(v0);
  d.v1 = String(v1);
  d.colMs = String(this.colMs);
  d.yTop = String(this.yTop);
  d.plot = [this.left, this.top, this.right, this.bottom].join(",");
};

Timeline.prototype.drawGrid = function (yStep) {
  drawAxes(this.svg, this, (t) => this.x(t), (v) => this.y(v), this.v0, this.v1, this.yTop, yStep,
           fmt(TEXT.per, durationText(this.colMs)));
};

// A stacked area between the column values `lower` and `upper` (functions of a column): its top
// edge left to right, then its bottom edge back.
Timeline.prototype.area = function (lower, upper) {
  const parts = [];
  this.cols.forEach((col, i) => {
    const y = px(this.y(upper(col)));
    parts.push((i ? "L" : "M") + px(this.x(col.t0)) + "," + y + "L" + px(this.x(col.t1)) + "," + y);
  });
  for (let i = this.cols.length - 1; i >= 0; --i) {
    const col = this.cols[i];
    const y = px(this.y(lower(col)));
    parts.push("L" + px(this.x(col.t1)) + "," + y + "L" + px(this.x(col.t0)) + "," + y);
  }
  return parts.join("") + "Z";
};

Timeline.prototype.drawAreas = function (plot) {
  if (!this.cols.length) {
    svgEl("text", { class: "note-text", x: this.left + 6, y: this.top + 16 }, plot)
        .textContent = TEXT.noBuckets;
    return;
  }
  const areas = [["acc", (c) => 0, (c) => c.a], ["rej", (c) => c.a, (c) => c.a + c.r]];
  if (this.l.errors) areas.push(["err", (c) => c.a + c.r, (c) => c.a + c.r + c.e]);
  for (const [cls, lower, upper] of areas) {
    const path = svgEl("path", { class: cls, d: this.area(lower, upper) }, plot);
    path.dataset.series = cls;
  }
};

// Each traffic group's accepted requests per column, a step line over the areas: who got the
// accepted ones. Not stacked: together the lines add up to the accepted area's top.
Timeline.prototype.drawGroups = function (plot) {
  if (!this.cols.length) return;
  (this.l.groups || []).forEach((group, j) => {
    const d = this.cols.map((col, i) => {
      const y = px(this.y(col.ga[j]));
      return (i ? "L" : "M") + px(this.x(col.t0)) + "," + y + "L" + px(this.x(col.t1)) + "," + y;
    }).join("");
    const path = svgEl("path", { class: "grp grp" + (j % DATA.group_pens), d: d }, plot);
    path.dataset.group = String(j);
    svgEl("title", {}, path).textContent = group.name;
  });
};

Timeline.prototype.drawBoundaries = function (plot) {
  const inView = (this.l.boundaries || []).filter((t) => t >= this.v0 && t <= this.v1);
  const note = this.l.boundaries_note ||
               (inView.length > MAX_BOUNDARIES_IN_VIEW
                    ? fmt(TEXT.tooManyBoundaries, MAX_BOUNDARIES_IN_VIEW) : "");
  if (note) {
    svgEl("text", { class: "note-text", x: this.left + 6, y: this.bottom - 6 }, plot)
        .textContent = note;
    return;
  }
  for (const t of inView) {
    const x = px(this.x(t));
    svgEl("line", { class: "boundary", x1: x, x2: x, y1: this.top, y2: this.bottom }, plot);
  }
};

// The admitted burst's box (at least 3 px wide, so a short interval in a long run is still
// seen) and its label at the top, as the window marks it.
Timeline.prototype.drawBurst = function (plot) {
  const b = this.l.burst;
  if (!b) return;
  let x0 = this.x(b.x0);
  let x1 = this.x(b.x1);
  if (x1 - x0 < 3) {
    const middle = (x0 + x1) / 2;
    x0 = middle - 1.5;
    x1 = middle + 1.5;
  }
  if (x1 < this.left || x0 > this.right) return;
  // Its tint lies under the bars (first in the plot), so accepted and rejected keep their
  // contrast inside it; its outline goes over them.
  const tint = svgEl("rect", { class: "burst-tint", x: px(x0), y: this.top, width: px(x1 - x0),
                               height: this.bottom - this.top }, plot);
  plot.insertBefore(tint, plot.firstChild);
  svgEl("rect", { class: "burst", x: px(x0), y: this.top, width: px(x1 - x0),
                  height: this.bottom - this.top }, plot);
  const background = svgEl("rect", { class: "label-bg" }, plot);
  const label = svgEl("text", { class: "burst-label", y: this.top + 16 }, plot);
  label.textContent = b.label;
  const width = label.getComputedTextLength();
  const x = Math.min(Math.max((x0 + x1) / 2 - width / 2, this.left + 2),
                     Math.max(this.left + 2, this.right - width - 2));
  label.setAttribute("x", px(x));
  background.setAttribute("x", px(x - 2));
  background.setAttribute("y", this.top + 4);
  background.setAttribute("width", px(width + 4));
  background.setAttribute("height", 16);
};

// Marks the column holding `ms` (null: none).
Timeline.prototype.showColumn = function (ms) {
  const col = ms === null ? null : this.columnAt(ms);
  if (!col) {
    this.hover.setAttribute("visibility", "hidden");
    return;
  }
  const x0 = Math.max(this.x(col.t0), this.left);
  const x1 = Math.min(this.x(col.t1), this.right);
  this.hover.setAttribute("x", px(x0));
  this.hover.setAttribute("width", px(Math.max(x1 - x0, 1)));
  this.hover.setAttribute("visibility", "visible");
};

// The selection being dragged between two client x positions (null: none).
Timeline.prototype.showSelection = function (fromX, toX) {
  if (fromX === null) {
    this.sel.setAttribute("visibility", "hidden");
    return;
  }
  const box = this.svg.getBoundingClientRect();
  const clamp = (v) => Math.min(Math.max(v - box.left, this.left), this.right);
  const a = clamp(Math.min(fromX, toX));
  const b = clamp(Math.max(fromX, toX));
  this.sel.setAttribute("x", px(a));
  this.sel.setAttribute("width", px(b - a));
  this.sel.setAttribute("visibility", "visible");
};
