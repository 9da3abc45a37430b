// The page's interaction: every timeline shows one view of the run's time axis. Drag across any
// timeline (or use the buttons) to zoom and pan them all; hover for the figures of the column
// under the pointer in every limiter.

const view = { v0: 0, v1: DATA.x_max_ms };
const MIN_VIEW_MS = Math.max(4 * DATA.step_ms, 4);
let timelines = [];
let charts = [];
let cumulative = null;
let drag = null;  // { timeline, x }

function drawAll() {
  for (const t of timelines) t.draw(view.v0, view.v1);
  for (const c of charts) c.draw();
  if (cumulative) cumulative.draw();
  const range = document.getElementById("view-range");
  const step = niceStep(view.v1 - view.v0, 10);
  range.textContent = fmt(TEXT.view, secondsText(view.v0, step), secondsText(view.v1, step),
                          secondsText(DATA.x_max_ms, step));
  const whole = view.v0 <= 0 && view.v1 >= DATA.x_max_ms;
  document.getElementById("zoom-out").disabled = whole;
  document.getElementById("zoom-all").disabled = whole;
  document.getElementById("pan-left").disabled = view.v0 <= 0;
  document.getElementById("pan-right").disabled = view.v1 >= DATA.x_max_ms;
  document.getElementById("zoom-in").disabled = view.v1 - view.v0 <= MIN_VIEW_MS;
}

// Shows [a, b] on every timeline, kept inside the run and at least MIN_VIEW_MS wide.
function setView(a, b) {
  const end = DATA.x_max_ms;
  let span = Math.min(Math.max(b - a, MIN_VIEW_MS), end);
  let v0 = Math.min(Math.max((a + b) / 2 - span / 2, 0), end - span);
  view.v0 = Math.max(v0, 0);
  view.v1 = Math.min(view.v0 + span, end);
  hideHover();
  drawAll();
}

function zoomBy(factor) {
  const middle = (view.v0 + view.v1) / 2;
  const half = (view.v1 - view.v0) * factor / 2;
  setView(middle - half, middle + half);
}

function panBy(fraction) {
  const shift = (view.v1 - view.v0) * fraction;
  setView(view.v0 + shift, view.v1 + shift);
}

// The tooltip: the column's time and, for every limiter, its counts there (and its traffic
// groups'); for the limiter
// under the pointer also its limit and, inside its admitted burst, every window's figure.
function showHover(timeline, clientX, clientY) {
  const ms = timeline.timeAt(clientX);
  for (const t of timelines) t.showColumn(ms);
  const col = timeline.columnAt(ms);
  const tip = document.getElementById("tip");
  if (!col) {
    hideHover();
    return;
  }
  clear(tip);
  htmlEl("div", "head", tip,
         fmt(TEXT.range, secondsText(col.t0, timeline.colMs), secondsText(col.t1, timeline.colMs)));
  for (const t of timelines) {
    const c = t.columnAt(ms);
    if (!c) continue;
    htmlEl("div", t === timeline ? "mine" : null, tip, fmt(TEXT.row, t.l.name, c.a, c.r, c.e));
    const groups = (t.l.groups || []).map((g, j) => fmt(TEXT.groupRow, g.name, c.ga[j], c.gr[j]));
    if (groups.length) htmlEl("div", "groups", tip, groups.join("; "));
  }
  if (timeline.limit) {
    htmlEl("div", null, tip, fmt(TEXT.limit, figure(timeline.limit), durationText(timeline.colMs)));
  }
  if (timeline.inFlight) {
    const f = timeline.inFlight[timeline.cols.indexOf(col)];
    htmlEl("div", null, tip, fmt(TEXT.inFlightRow, f.most, figure(timeline.l.in_flight.limit),
                                 f.released, f.leaked));
  }
  const b = timeline.l.burst;
  if (b && ms >= b.x0 && ms < b.x1) {
    for (const line of b.lines) htmlEl("div", null, tip, line);
  }
  tip.hidden = false;
  const room = document.documentElement.clientWidth;
  const x = clientX + 16 + tip.offsetWidth > room ? clientX - 16 - tip.offsetWidth : clientX + 16;
  tip.style.left = Math.max(0, x) + "px";
  tip.style.top = (clientY + 16) + "px";
}

function hideHover() {
  for (const t of timelines) t.showColumn(null);
  document.getElementById("tip").hidden = true;
}

function listen(timeline) {
  const svg = timeline.svg;
  svg.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || e.target !== timeline.hit) return;
    drag = { timeline: timeline, x: e.clientX };
    try {
      svg.setPointerCapture(e.pointerId);
    } catch (_) {
      // a pointer the browser does not track (a synthetic one) is not captured
    }
    e.preventDefault();
  });
  svg.addEventListener("pointermove", (e) => {
    if (drag && drag.timeline === timeline) {
      timeline.showSelection(drag.x, e.clientX);
      hideHover();
    } else if (e.target === timeline.hit) {
      showHover(timeline, e.clientX, e.clientY);
    }
  });
  svg.addEventListener("pointerup", (e) => {
    if (!drag || drag.timeline !== timeline) return;
    const from = drag.x;
    drag = null;
    timeline.showSelection(null);
    if (Math.abs(e.clientX - from) >= 4) {
      const a = timeline.timeAt(Math.min(from, e.clientX));
      const b = timeline.timeAt(Math.max(from, e.clientX));
      setView(a, b);
    }
  });
  svg.addEventListener("pointerleave", () => {
    if (!drag) hideHover();
  });
}

function start() {
  const host = document.getElementById("timeline-charts");
  timelines = DATA.limiters.map((l, i) => new Timeline(l, i, host));
  const comparison = document.getElementById("comparison-charts");
  charts = comparisonCharts(comparison);
  if (DATA.limiters.length && DATA.limiters[0].accepted.length) {
    cumulative = new CumulativeChart(comparison);
  }
  for (const t of timelines) listen(t);
  const controls = document.getElementById("zoom-controls");
  controls.hidden = false;
  document.getElementById("zoom-in").addEventListener("click", () => zoomBy(0.5));
  document.getElementById("zoom-out").addEventListener("click", () => zoomBy(2));
  document.getElementById("pan-left").addEventListener("click", () => panBy(-0.5));
  document.getElementById("pan-right").addEventListener("click", () => panBy(0.5));
  document.getElementById("zoom-all").addEventListener("click", () => setView(0, DATA.x_max_ms));
  // A redraw makes new columns: the hovered one and its tooltip go with the old ones.
  window.addEventListener("resize", () => {
    hideHover();
    drawAll();
  });
  drawAll();
}

if (SELFTEST) {
  try {
    start();
    selftestRun();
  } catch (e) {
    SELFTEST.errors.push("exception: " + e + (e && e.stack ? " " + e.stack : ""));
  }
  selftestWrite();
} else {
  start();
}
