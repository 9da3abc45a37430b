// lesson.html's player: the lesson's frames one at a time (a beat's question, then the beat with
// its answer), each with every limiter's timeline of the run so far, drawn by report.html's
// Timeline (page_timeline.js) on one scale from the first frame to the last. → and Space go on,
// ← back, Home and End to the ends; the buttons do the same.

const FRAMES = DATA.frames || [];
let at = 0;
let shown = [];  // the timelines of the frame shown

// Each frame's counts per step, per limiter: the frames carry what changed since the one before.
function buildSeries() {
  const out = [];
  let current = DATA.limiters.map((l) => {
    const empty = () => new Array(l.steps).fill(0);
    const inFlight = l.in_flight ? [empty(), empty(), empty()] : [];
    return { tails: [empty(), empty(), empty()].concat(l.groups.map(() => [empty(), empty()]).flat(),
                                                       inFlight),
             totals: [0, 0, 0] };
  });
  for (const f of FRAMES) {
    current = current.map((c, i) => {
      const change = f.series[i];
      const tails = c.tails.map((series, s) => {
        const next = series.slice(0, change.from);
        return next.concat(change.tails[s]);
      });
      return { tails: tails, totals: change.totals };
    });
    out.push(current);
  }
  return out;
}

const SERIES = buildSeries();

// The limiter as Timeline draws it at frame `f`.
function limiterAt(i, f) {
  const base = DATA.limiters[i];
  const s = SERIES[f][i];
  const l = Object.assign({}, base);
  l.accepted = s.tails[0];
  l.rejected = s.tails[1];
  if (s.tails[2].some((v) => v > 0)) l.errors = s.tails[2];
  l.groups = base.groups.map((g, j) => ({ name: g.name, accepted: s.tails[3 + 2 * j],
                                          rejected: s.tails[4 + 2 * j] }));
  if (base.in_flight) {
    const k = 3 + 2 * base.groups.length;
    l.in_flight = { limit: base.in_flight.limit, most: s.tails[k], released: s.tails[k + 1],
                    leaked: s.tails[k + 2], until_ms: FRAMES[f].run_ms };
  }
  l.totals = s.totals;
  return l;
}

// The tallest column of the lesson's last frame for `k` steps a column: every frame is drawn on
// its scale, so the counts grow on a fixed axis.
function scaleOf(i) {
  const last = limiterAt(i, FRAMES.length - 1);
  return function (k) {
    const cols = Timeline.prototype.columns.call({ l: last, v0: 0, v1: DATA.x_max_ms }, k);
    let most = 0;
    for (const c of cols) most = Math.max(most, c.a + c.r + c.e);
    return most;
  };
}

const SCALES = FRAMES.length ? DATA.limiters.map((l, i) => scaleOf(i)) : [];

// The beat's span on its limiter's timeline and, on every timeline, the run's time so far.
function mark(t, frame) {
  const plot = t.svg;
  const h = frame.highlight;
  if (h && h.limiter === t.index) {
    const x0 = Math.max(t.x(h.from_ms), t.left);
    const x1 = Math.min(t.x(h.to_ms), t.right);
    svgEl("rect", { class: "hl", x: px(x0), y: t.top, width: px(Math.max(x1 - x0, 2)),
                    height: t.bottom - t.top }, plot);
    t.fig.classList.add("highlighted");
  }
  const x = px(t.x(Math.min(frame.run_ms, DATA.x_max_ms)));
  svgEl("line", { class: "now", x1: x, x2: x, y1: t.top, y2: t.bottom }, plot);
  const label = svgEl("text", { class: "now-label", x: px(Number(x) + 4), y: t.top + 12 }, plot);
  label.textContent = fmt(TEXT.now, (frame.run_ms / 1000).toFixed(3));
  plot.dataset.highlight = h && h.limiter === t.index ? h.from_ms + "," + h.to_ms : "";
  plot.dataset.now = String(frame.run_ms);
}

function drawTimelines() {
  const host = document.getElementById("timeline-charts");
  clear(host);
  const frame = FRAMES[at];
  shown = DATA.limiters.map((l, i) => {
    const limiter = limiterAt(i, at);
    limiter.scale = SCALES[i];
    const t = new Timeline(limiter, i, host);
    t.draw(0, DATA.x_max_ms);
    mark(t, frame);
    return t;
  });
}

function setText(id, text) {
  const e = document.getElementById(id);
  e.textContent = text || "";
  e.hidden = !text;
}

function showText() {
  const frame = FRAMES[at];
  const beat = frame.beat;
  document.getElementById("progress").textContent = fmt(TEXT.progress, beat + 1, DATA.beats);
  setText("say", frame.say);
  const question = document.getElementById("question");
  question.hidden = !frame.ask;
  document.getElementById("ask-label").textContent = TEXT.question;
  document.getElementById("ask").textContent = frame.ask;
  document.getElementById("answer-label").textContent = TEXT.answer;
  const answer = document.getElementById("answer");
  answer.textContent = frame.question ? TEXT.pending : frame.answer;
  answer.className = frame.question ? "pending" : "";
  const claims = document.getElementById("claims");
  clear(claims);
  for (const c of frame.checks) {
    htmlEl("li", c.held ? "held" : "failed", claims, fmt(TEXT.claim, c.text, c.measured));
  }
  document.getElementById("back").disabled = at === 0;
  document.getElementById("next").disabled = at === FRAMES.length - 1;
}

function show(index) {
  at = Math.min(Math.max(index, 0), FRAMES.length - 1);
  showText();
  drawTimelines();
}

function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const moves = { ArrowRight: 1, " ": 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 };
  if (e.key in moves) {
    // A focused button handles Space itself (a click): the key is taken here, once.
    e.preventDefault();
    show(at + moves[e.key]);
  } else if (e.key === "Home") {
    e.preventDefault();
    show(0);
  } else if (e.key === "End") {
    e.preventDefault();
    show(FRAMES.length - 1);
  }
}

function startLesson() {
  if (!FRAMES.length) {
    setText("say", TEXT.noFrames);
    document.getElementById("next").disabled = true;
    return;
  }
  document.getElementById("next").addEventListener("click", () => show(at + 1));
  document.getElementById("back").addEventListener("click", () => show(at - 1));
  document.addEventListener("keydown", onKey);
  // Space on a focused button would click it as well, on its key's release.
  document.addEventListener("keyup", (e) => {
    if (e.key === " ") e.preventDefault();
  });
  window.addEventListener("resize", drawTimelines);
  show(0);
}
