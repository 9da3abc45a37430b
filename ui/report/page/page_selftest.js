// The page's self-test, run when its address ends in #selftest (tst_report_browser loads it so in
// headless Chromium): it records every error, console error or warning and refused load from
// here on, reads the figures back from the drawn SVG (each column's counts from its path's
// coordinates, the limit or the requests in flight, the burst's box, the bars), hovers a column
// and zooms by dragging, and writes what it found as JSON into <pre id="selftest">.

const SELFTEST = location.hash === "#selftest" ? { errors: [], checks: [] } : null;

if (SELFTEST) {
  window.addEventListener("error", (e) => SELFTEST.errors.push("error: " + e.message));
  document.addEventListener("securitypolicyviolation", (e) =>
      SELFTEST.errors.push("refused: " + e.violatedDirective + " " + e.blockedURI));
  for (const level of ["error", "warn"]) {
    const original = console[level];
    console[level] = function () {
      SELFTEST.errors.push(level + ": " + Array.prototype.join.call(arguments, " "));
      original.apply(console, arguments);
    };
  }
}

function selftestCheck(name, ok, detail) {
  SELFTEST.checks.push({ name: name, ok: Boolean(ok), detail: detail === undefined ? "" : detail });
}

function numbersOf(d) {
  return (d.match(/-?\d+(\.\d+)?/g) || []).map(Number);
}

// One timeline as drawn: [t0, t1, accepted, rejected, errors] per column, read back from the
// areas' top edges (the stacked values) through the plot's scales; per traffic group its line's
// [t0, t1, accepted] per column; the limit and the burst box.
function selftestTimeline(t) {
  const d = t.svg.dataset;
  const [left, top, right, bottom] = d.plot.split(",").map(Number);
  const v0 = Number(d.v0), v1 = Number(d.v1), yTop = Number(d.yTop);
  const time = (x) => v0 + (x - left) / (right - left) * (v1 - v0);
  const value = (y) => (bottom - y) / (bottom - top) * yTop;
  const tops = {};
  for (const path of t.svg.querySelectorAll("path[data-series]")) {
    const n = numbersOf(path.getAttribute("d"));
    const columns = n.length / 8;  // 4 points per column: 2 on the top edge, 2 on the bottom
    const edge = [];
    for (let i = 0; i < columns; ++i) {
      edge.push([time(n[4 * i]), time(n[4 * i + 2]), value(n[4 * i + 1])]);
    }
    tops[path.dataset.series] = edge;
  }
  const acc = tops.acc || [];
  const columns = acc.map((c, i) => {
    const rejTop = tops.rej ? tops.rej[i][2] : c[2];
    const errTop = tops.err ? tops.err[i][2] : rejTop;
    return [c[0], c[1], c[2], rejTop - c[2], errTop - rejTop];
  });
  const out = { name: t.l.name, v0: v0, v1: v1, col_ms: Number(d.colMs),
                px_per_unit: (bottom - top) / yTop, ms_per_px: (v1 - v0) / (right - left),
                columns: columns };
  out.groups = Array.from(t.svg.querySelectorAll("path[data-group]")).map((path) => {
    const n = numbersOf(path.getAttribute("d"));
    const edge = [];
    for (let i = 0; i + 3 < n.length; i += 4) {
      edge.push([time(n[i]), time(n[i + 2]), value(n[i + 1])]);
    }
    return { name: t.l.groups[Number(path.dataset.group)].name, columns: edge };
  });
  const limit = t.svg.querySelector("path.limit");
  if (limit) out.limit = value(numbersOf(limit.getAttribute("d"))[1]);
  // A limit on requests in flight: its line's [t0, t1, most in flight] per column and the limit,
  // on the right axis's scale.
  const inFlight = t.svg.querySelector("path.in-flight");
  if (inFlight) {
    const inFlightTop = Number(d.inFlightTop);
    const held = (y) => (bottom - y) / (bottom - top) * inFlightTop;
    const n = numbersOf(inFlight.getAttribute("d"));
    out.inFlight = [];
    for (let i = 0; i + 3 < n.length; i += 4) {
      out.inFlight.push([time(n[i]), time(n[i + 2]), held(n[i + 1])]);
    }
    out.inFlightLimit =
        held(numbersOf(t.svg.querySelector("path.in-flight-limit").getAttribute("d"))[1]);
    out.leaks = t.svg.querySelectorAll("path.leak").length;
  }
  const burst = t.svg.querySelector("rect.burst");
  if (burst) {
    const x = Number(burst.getAttribute("x"));
    out.burst = [time(x), time(x + Number(burst.getAttribute("width")))];
    // Its tint is drawn before (under) the bars and its box over them lets them show unchanged.
    const tint = t.svg.querySelector("rect.burst-tint");
    const bar = t.svg.querySelector(".acc");
    out.burstTintUnderBars = !!tint && !!bar &&
        (tint.compareDocumentPosition(bar) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 &&
        getComputedStyle(burst).fill === "none";
  }
  return out;
}

// A bar chart as drawn: each bar's value and reference, read back from its geometry.
function selftestBars(chart) {
  const d = chart.svg.dataset;
  const x0 = Number(d.x0), x1 = Number(d.x1), scale = Number(d.scale);
  const value = (x) => (x - x0) / (x1 - x0) * scale;
  return Array.from(chart.svg.querySelectorAll("g")).map((g) => {
    const bar = { value: value(x0 + Number(g.querySelector("rect.bar").getAttribute("width"))) };
    const ref = g.querySelector("line.ref");
    if (ref) bar.reference = value(Number(ref.getAttribute("x1")));
    return bar;
  });
}

function pointer(type, target, clientX, clientY) {
  target.dispatchEvent(new PointerEvent(type, { bubbles: type !== "pointerleave", clientX: clientX,
                                                clientY: clientY, pointerId: 1, button: 0,
                                                isPrimary: true }));
}

// Hovers the middle column of the first timeline: the tooltip names every limiter's counts as
// drawn there; leaving hides it.
function selftestHover(drawn) {
  const t = timelines[0];
  const columns = drawn[0].columns;
  const c = columns[Math.floor(columns.length / 2)];
  const box = t.svg.getBoundingClientRect();
  const x = box.left + t.x((c[0] + c[1]) / 2);
  const y = box.top + (t.top + t.bottom) / 2;
  pointer("pointermove", t.hit, x, y);
  const tip = document.getElementById("tip");
  const text = tip.textContent;
  const missing = [];
  timelines.forEach((other, i) => {
    const col = drawn[i].columns.find((o) => o[0] === c[0]);
    const row = fmt(TEXT.row, other.l.name, Math.round(col[2]), Math.round(col[3]),
                    Math.round(col[4]));
    if (!text.includes(row)) missing.push(row);
    // Each group's accepted as its line draws it; its rejected (not drawn) from the column.
    const k = drawn[i].columns.indexOf(col);
    drawn[i].groups.forEach((g, j) => {
      const groupRow = fmt(TEXT.groupRow, g.name, Math.round(g.columns[k][2]),
                           other.cols[k].gr[j]);
      if (!text.includes(groupRow)) missing.push(groupRow);
    });
  });
  selftestCheck("hover shows every limiter's column", !tip.hidden && !missing.length,
                missing.join(" | ") + " in: " + text);
  pointer("pointerleave", t.svg, x, y);
  selftestCheck("leaving hides the tooltip", tip.hidden);
}

// Drags across the middle half of the first timeline: every timeline shows that range; the
// buttons zoom in and back to the whole run.
function selftestZoom() {
  const t = timelines[0];
  const box = t.svg.getBoundingClientRect();
  const y = box.top + (t.top + t.bottom) / 2;
  const from = box.left + t.left + (t.right - t.left) * 0.25;
  const to = box.left + t.left + (t.right - t.left) * 0.75;
  const whole = DATA.x_max_ms;
  pointer("pointerdown", t.hit, from, y);
  pointer("pointermove", t.hit, to, y);
  pointer("pointerup", t.hit, to, y);
  const slack = whole / (t.right - t.left);  // a pixel's time
  const views = timelines.map((o) => [Number(o.svg.dataset.v0), Number(o.svg.dataset.v1)]);
  const same = views.every((v) => v[0] === views[0][0] && v[1] === views[0][1]);
  const wanted = Math.max(whole / 2, MIN_VIEW_MS);
  selftestCheck("a drag zooms every timeline to its range",
                same && Math.abs(views[0][1] - views[0][0] - wanted) <= 2 * slack &&
                    Math.abs((views[0][0] + views[0][1]) / 2 - whole / 2) <= 2 * slack,
                JSON.stringify(views));
  document.getElementById("zoom-in").click();
  const span = view.v1 - view.v0;
  selftestCheck("zoom in halves the view",
                Math.abs(span - Math.max(wanted / 2, MIN_VIEW_MS)) <= 1e-6 * whole,
                String(span));
  document.getElementById("zoom-all").click();
  selftestCheck("whole run shows the run again",
                timelines.every((o) => Number(o.svg.dataset.v0) === 0 &&
                                       Number(o.svg.dataset.v1) === whole),
                JSON.stringify([view.v0, view.v1]));
}

// WCAG's relative luminance of a computed colour ("rgb(r, g, b)").
function luminance(css) {
  const channel = (v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  const [r, g, b] = numbersOf(css).map(channel);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// Accepted and rejected as drawn stay apart in grayscale: their fills at least 3:1 apart in
// luminance, in the scheme the browser uses.
function selftestContrast() {
  const fill = (cls) => {
    const path = document.querySelector("svg.tl path." + cls);
    return path ? getComputedStyle(path).fill : null;
  };
  const acc = fill("acc"), rej = fill("rej");
  if (!acc || !rej) return;
  const [hi, lo] = [luminance(acc), luminance(rej)].sort((a, b) => b - a);
  SELFTEST.contrast = (hi + 0.05) / (lo + 0.05);
  selftestCheck("accepted and rejected 3:1 apart in luminance", SELFTEST.contrast >= 3,
                acc + " against " + rej);
}

// The cumulative chart as drawn: each limiter's accepted requests at the run's end, read back
// from its line's last point.
function selftestCumulative() {
  const d = cumulative.svg.dataset;
  const [, top, , bottom] = d.plot.split(",").map(Number);
  const yTop = Number(d.yTop);
  return Array.from(cumulative.svg.querySelectorAll("path[data-limiter]")).map((path) => {
    const n = numbersOf(path.getAttribute("d"));
    return (bottom - n[n.length - 1]) / (bottom - top) * yTop;
  });
}

// Reads the drawing first (the whole run), then interacts.
function selftestRun() {
  SELFTEST.dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  SELFTEST.timelines = timelines.map(selftestTimeline);
  SELFTEST.legendGroups = Array.from(document.querySelectorAll(".legend path.grp"))
                              .map((p) => p.parentNode.parentNode.textContent);
  selftestContrast();
  SELFTEST.bars = charts.map(selftestBars);
  if (cumulative) SELFTEST.cumulative = selftestCumulative();
  if (timelines.length && SELFTEST.timelines[0].columns.length) {
    selftestHover(SELFTEST.timelines);
    selftestZoom();
  }
}

function selftestWrite() {
  const pre = document.getElementById("selftest");
  pre.textContent = JSON.stringify(SELFTEST);
  pre.hidden = false;
}
