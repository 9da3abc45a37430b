// lesson.html in a real browser: a lesson played on Redis (playLesson), its page loaded in
// headless Chromium with #selftest. The page's self-test (ui/lessons/page/lesson_selftest.js)
// walks every frame with → as a reader does, records the words shown and each timeline as drawn,
// then tries ←, Space, the Back and Next buttons and Home. This test checks the words against the
// frames the page was written from (the beats' words with their figures, the question before its
// answer), the drawn counts against each frame's run, the highlight and the run's time so far, in
// the reader's light and dark scheme and in a page exported dark; and the concurrency lesson's
// requests in flight, drawn frame by frame as far as the run has gone.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "lessons/lesson_page.h"
#include "lessons/lesson_paths.h"
#include "output/run_summary.h"
#include "report/report_data.h"
#include "support/browser_selftest.h"
#include "support/lesson_documents.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A lesson read from its file's text (written to a temporary file: lessons load from files).
Lesson lessonFrom(const QByteArray& json) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lesson.json"));
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(json);
    file.close();
    return loadLessonFile(path);
}

// The boundary lesson of both limiters, its words with characters the page must escape.
Lesson boundary() {
    const QString fixed = uniqueName(QStringLiteral("page-fixed"));
    const QString log = uniqueName(QStringLiteral("page-log"));
    const QByteArray json = boundaryLesson(QStringLiteral("Twice the limit <in> 200 ms"),
                                           QStringLiteral(R"([
    {"until_ms": 50, "say": "Ten pass: {%1.accepted} of {%1.fired} & <more>.",
     "highlight": {"limiter": "%1", "from_ms": 0, "to_ms": 100},
     "expect": {"%1": ["accepted == 10"]}},
    {"ask": "How many of the next ten pass?", "answer": "All ten: {%1.accepted} in all.",
     "until_ms": 250, "highlight": {"limiter": "%1", "from_ms": 0, "to_ms": 250},
     "expect": {"%1": ["max_accepted_in_any_1000ms == 20"], "%2": ["accepted == 10"]}},
    {"say": "The log kept its ten: {%2.accepted}.", "until_ms": 3000}])")
                                               .arg(fixed, log),
                                           fixed, log);
    return lessonFrom(json);
}

// The shipped concurrency lesson, its limiters renamed (the shipped lessons' check runs it too).
Lesson concurrencyLesson() {
    const QStringList lessons = shippedLessons();
    const auto found = std::find_if(lessons.begin(), lessons.end(), [](const QString& path) {
        return path.contains(QLatin1String("concurrency"));
    });
    if (found == lessons.end())
        return {};
    QFile in(*found);
    in.open(QIODevice::ReadOnly);
    QByteArray json = in.readAll();
    for (const char* name : {"short-lease", "long-lease"})
        json.replace(name, uniqueName(QLatin1String(name)).toUtf8());
    return lessonFrom(json);
}

}  // namespace

class TestLessonBrowser : public QObject {
    Q_OBJECT

    QString chromium_;
    Lesson lesson_;
    QVector<LessonFrame> frames_;

private slots:
    void initTestCase() {
        QString problem;
        chromium_ = chromiumForTests(&problem);
        QVERIFY2(!chromium_.isEmpty(), qPrintable(problem));
        lesson_ = boundary();
        frames_ = playLesson(lesson_, fixtureUrl());
        QCOMPARE(frames_.size(), 4);  // beat 1, beat 2's question, beat 2, beat 3
    }

    void playsTheFrames_data() {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("darkPage");
        QTest::newRow("reader's light") << false << int(page_kit::Scheme::Auto) << false;
        QTest::newRow("reader's dark") << true << int(page_kit::Scheme::Auto) << true;
        QTest::newRow("exported dark, read light") << false << int(page_kit::Scheme::Dark) << true;
        QTest::newRow("exported light, read dark") << true << int(page_kit::Scheme::Light) << false;
    }
    void playsTheFrames() {
        QFETCH(bool, dark);
        QFETCH(int, scheme);
        QFETCH(bool, darkPage);
        QString problem;
        const QJsonObject result = selftestOfPage(
            chromium_, lessonHtml(lesson_, frames_, page_kit::Scheme(scheme)), dark, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY2(result[QLatin1String("checks")].toArray().size() >= 7, "the keys were not tried");
        QVERIFY(result[QLatin1String("contrast")].toDouble() >= 3);
        // The page's background follows its scheme: dark when exported dark, whatever the reader.
        const QString background = result[QLatin1String("background")].toString();
        QCOMPARE(background == QLatin1String("rgb(30, 30, 30)"), darkPage);

        const QJsonArray shown = result[QLatin1String("frames")].toArray();
        QCOMPARE(shown.size(), frames_.size());
        for (int i = 0; i < shown.size(); ++i) {
            const QJsonObject f = shown[i].toObject();
            const LessonFrame& frame = frames_[i];
            const QString at = QStringLiteral("frame %1").arg(i);
            QCOMPARE(f[QLatin1String("at")].toInt(), i);
            QCOMPARE(f[QLatin1String("progress")].toString(),
                     QStringLiteral("Beat %1 of 3").arg(frame.beat + 1));
            // The beats' words as the frames have them, figures filled in.
            QCOMPARE(f[QLatin1String("say")].toString(), frame.say);
            QCOMPARE(f[QLatin1String("ask")].toString(), frame.ask);
            QCOMPARE(f[QLatin1String("answer")].toString(),
                     frame.question ? QStringLiteral("Next reveals the answer.") : frame.answer);
            QCOMPARE(f[QLatin1String("claims")].toArray().size(), frame.checks.size());
            const QJsonArray timelines = f[QLatin1String("timelines")].toArray();
            QCOMPARE(timelines.size(), 2);
            for (int l = 0; l < 2; ++l) {
                const QJsonObject t = timelines[l].toObject();
                const LimiterSnapshot& run = frame.run.limiters[l];
                // Every column's accepted, drawn to 1/100 px, adds up to the frame's accepted.
                double accepted = 0;
                for (const QJsonValue c : t[QLatin1String("columns")].toArray()) {
                    accepted += c.toArray()[2].toDouble();
                }
                const double perPx = 1 / t[QLatin1String("px_per_unit")].toDouble();
                QVERIFY2(std::abs(accepted - double(run.accepted)) <= 0.02 * perPx * 60,
                         qPrintable(QStringLiteral("%1, %2: drawn %3, run %4")
                                        .arg(at, run.spec.name)
                                        .arg(accepted)
                                        .arg(run.accepted)));
                QCOMPARE(t[QLatin1String("now")].toDouble(), double(frame.runUs) / 1000);
                const bool marked = frame.highlight && l == 0;
                QCOMPARE(t[QLatin1String("highlight")].toString(),
                         marked ? QStringLiteral("%1,%2")
                                      .arg(frame.highlight->fromMs)
                                      .arg(frame.highlight->toMs)
                                : QString());
            }
        }
        // The words of the question's frame and its answer's: asked first, answered on Next.
        QCOMPARE(shown[1].toObject()[QLatin1String("ask")].toString(),
                 QStringLiteral("How many of the next ten pass?"));
        QCOMPARE(shown[2].toObject()[QLatin1String("answer")].toString(),
                 QStringLiteral("All ten: 20 in all."));
        QCOMPARE(shown[0].toObject()[QLatin1String("say")].toString(),
                 QStringLiteral("Ten pass: 10 of 11 & <more>."));
    }

    // Each frame of the concurrency lesson draws its limiters' requests in flight as far as the
    // run has gone, each column as many as the frame's run had in flight (report.html's data of
    // that run), and no line at 0 over the part not played yet (it drew the last frame's view
    // on the first, then zeros).
    void drawsRequestsInFlightFrameByFrame() {
        const Lesson lesson = concurrencyLesson();
        QVERIFY(!lesson.scenario.limiters.isEmpty());
        const QVector<LessonFrame> frames = playLesson(lesson, fixtureUrl());
        QString problem;
        const QJsonObject result = selftestOfPage(
            chromium_, lessonHtml(lesson, frames, page_kit::Scheme::Auto), false, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QJsonArray shown = result[QLatin1String("frames")].toArray();
        QCOMPARE(shown.size(), frames.size());
        int compared = 0;
        for (int i = 0; i < shown.size(); ++i) {
            const double nowMs = double(frames[i].runUs) / 1000;
            const QJsonObject data =
                QJsonDocument::fromJson(reportData(summaryOf(frames[i].run))).object();
            const QJsonArray timelines = shown[i].toObject()[QLatin1String("timelines")].toArray();
            for (int l = 0; l < timelines.size(); ++l) {
                const QJsonObject t = timelines[l].toObject();
                const QString at = QStringLiteral("frame %1, timeline %2").arg(i).arg(l);
                const QJsonArray drawn = t[QLatin1String("inFlight")].toArray();
                QVERIFY2(nowMs == 0 ? drawn.isEmpty() : !drawn.isEmpty(), qPrintable(at));
                if (drawn.isEmpty())
                    continue;
                QVERIFY2(std::abs(t[QLatin1String("inFlightLimit")].toDouble() - 5) <= 0.05,
                         qPrintable(at));  // read back from coordinates to 1/100 px
                QVERIFY2(drawn.last().toArray()[0].toDouble() < nowMs, qPrintable(at));
                const QJsonArray most = data[QLatin1String("limiters")][l]
                                            [QLatin1String("in_flight")][QLatin1String("most")]
                                                .toArray();
                if (t[QLatin1String("col_ms")].toDouble() !=
                    data[QLatin1String("step_ms")].toDouble())
                    continue;  // columns of several steps: their most is compared no further
                for (int c = 0; c < drawn.size(); ++c) {
                    QVERIFY2(
                        std::abs(drawn[c].toArray()[2].toDouble() - most[c].toDouble()) <= 0.05,
                        qPrintable(QStringLiteral("%1, column %2: %3 drawn, %4 in flight")
                                       .arg(at)
                                       .arg(c)
                                       .arg(drawn[c].toArray()[2].toDouble())
                                       .arg(most[c].toDouble())));
                    ++compared;
                }
            }
        }
        QVERIFY2(compared > 0, "no column compared");
    }
};

QTEST_MAIN(TestLessonBrowser)
#include "tst_lesson_browser.moc"
