// lesson.html's self-test, run when its address ends in #selftest (tst_lesson_browser loads it so
// in headless Chromium), and the page's start. It walks the lesson as a reader does, with the
// keys and the buttons, records each frame's words and timelines as drawn (page_selftest.js's
// selftestTimeline, the highlight and the run's time so far), and writes what it found as JSON
// into <pre id="selftest">.

function selftestKey(key) {
  document.dispatchEvent(new KeyboardEvent("keydown", { key: key, bubbles: true,
                                                        cancelable: true }));
}

function selftestFrame() {
  const text = (id) => {
    const e = document.getElementById(id);
    return e.hidden || e.closest("[hidden]") ? "" : e.textContent;
  };
  return {
    at: at,
    progress: text("progress"),
    say: text("say"),
    ask: text("ask"),
    answer: text("answer"),
    claims: Array.from(document.querySelectorAll("#claims li")).map((li) => li.textContent),
    timelines: shown.map((t) => {
      const drawn = selftestTimeline(t);
      drawn.highlight = t.svg.dataset.highlight;
      drawn.now = Number(t.svg.dataset.now);
      return drawn;
    }),
  };
}

function selftestLesson() {
  SELFTEST.dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  SELFTEST.background = getComputedStyle(document.body).backgroundColor;
  SELFTEST.frames = [];
  for (let i = 0; i < FRAMES.length; ++i) {
    SELFTEST.frames.push(selftestFrame());
    if (i + 1 < FRAMES.length) selftestKey("ArrowRight");
  }
  const last = FRAMES.length - 1;
  selftestCheck("→ walks every frame in order",
                SELFTEST.frames.every((f, i) => f.at === i), JSON.stringify(
                    SELFTEST.frames.map((f) => f.at)));
  selftestKey("ArrowRight");
  selftestCheck("→ stays on the last frame", at === last, String(at));
  selftestKey("ArrowLeft");
  selftestCheck("← goes back a frame", at === Math.max(last - 1, 0), String(at));
  selftestKey(" ");
  selftestCheck("Space goes on a frame", at === last, String(at));
  document.getElementById("back").click();
  selftestCheck("Back goes back a frame", at === Math.max(last - 1, 0), String(at));
  document.getElementById("next").click();
  selftestCheck("Next goes on a frame", at === last, String(at));
  selftestKey("Home");
  selftestCheck("Home shows the first frame", at === 0 &&
                document.getElementById("back").disabled, String(at));
  selftestContrast();
}

if (SELFTEST) {
  try {
    startLesson();
    selftestLesson();
  } catch (e) {
    SELFTEST.errors.push("exception: " + e + (e && e.stack ? " " + e.stack : ""));
  }
  selftestWrite();
} else {
  startLesson();
}
