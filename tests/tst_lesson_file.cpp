// Lesson files read (lessons/lesson.h) and refused: every bad field named by its JSON path, with
// what is wrong there; placeholders checked against the scenario's limiters and metrics; a
// scenario by path (relative to the lesson) or inline. No Redis.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "input_error.h"
#include "lessons/lesson.h"
#include "support/test_files.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A scenario of two limiters over 3 s of traffic, virtual time, with a traffic group "users".
const char kScenario[] = R"({"name": "two",
  "limiters": [{"type": "fixed_window", "name": "fw", "rate": 10, "interval": 1,
                "unit": "seconds", "timezone": "UTC"},
               {"type": "sliding_window", "name": "log.v2", "rules": [{"limit": 10,
                "window_ms": 1000}]}],
  "traffic": {"groups": [{"name": "users", "clients": 2,
                          "shape": {"type": "constant", "rate": 10}}],
              "duration_s": 3, "mode": "try",
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}}})";

QByteArray lessonWith(const QByteArray& beats, const QByteArray& scenario = "\"two.json\"") {
    return "{\"title\": \"A lesson\", \"scenario\": " + scenario + ", \"beats\": " + beats + "}";
}

}  // namespace

class TestLessonFile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return writeTestFileIn(dir_.path(), name, content);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        write(QStringLiteral("two.json"), kScenario);
    }

    void readsEveryField() {
        const QString path =
            write(QStringLiteral("lessons/full.json"), lessonWith(R"([
            {"until_ms": 950, "say": "{fw.accepted} of {fw.fired}; {{braces}}",
             "highlight": {"limiter": "fw", "from_ms": 800, "to_ms": 1000},
             "expect": {"fw": ["accepted == 10"], "*": ["errors == 0"]}},
            {"ask": "How many in {log.v2.max_accepted_in_any_500ms}?", "answer": "All.",
             "steps": 3, "expect": {"log.v2": ["group.users.accepted >= 1"]}},
            {"say": "Nothing moves."}])",
                                                                  "\"../two.json\""));
        const Lesson lesson = loadLessonFile(path);
        QCOMPARE(lesson.title, QStringLiteral("A lesson"));
        QCOMPARE(lesson.file, path);
        QCOMPARE(lesson.scenarioFile, QDir::cleanPath(dir_.filePath(QStringLiteral("two.json"))));
        QCOMPARE(lesson.scenario.limiters.size(), 2);
        QCOMPARE(lesson.beats.size(), 3);
        const LessonBeat& first = lesson.beats[0];
        QCOMPARE(first.advance, LessonBeat::Advance::Until);
        QCOMPARE(first.untilMs, qint64(950));
        QVERIFY(first.highlight.has_value());
        QCOMPARE(first.highlight->limiter, QStringLiteral("fw"));
        QCOMPARE(first.highlight->fromMs, qint64(800));
        QCOMPARE(first.highlight->toMs, qint64(1000));
        QCOMPARE(first.expect.size(), 2);
        QCOMPARE(first.say.figures().size(), 2);
        QCOMPARE(first.say.figures()[1].metric, QStringLiteral("fired"));
        QCOMPARE(first.path, QStringLiteral("$.beats[0]"));
        const LessonBeat& second = lesson.beats[1];
        QCOMPARE(second.advance, LessonBeat::Advance::Steps);
        QCOMPARE(second.steps, qint64(3));
        QVERIFY(second.asks());
        // The longest limiter name wins: "log.v2" holds a dot.
        QCOMPARE(second.ask.figures().size(), 1);
        QCOMPARE(second.ask.figures()[0].limiter, QStringLiteral("log.v2"));
        QCOMPARE(second.ask.figures()[0].metric, QStringLiteral("max_accepted_in_any_500ms"));
        QCOMPARE(lesson.beats[2].advance, LessonBeat::Advance::None);
    }

    void inlineScenario() {
        const QString path =
            write(QStringLiteral("inline.json"), lessonWith(R"([{"say": "hi"}])", kScenario));
        const Lesson lesson = loadLessonFile(path);
        QCOMPARE(lesson.scenario.name, QStringLiteral("two"));
        QVERIFY(lesson.scenarioFile.isEmpty());
    }

    void formatsFigures_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("whole") << 20.0 << "20";
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("third") << 100.0 / 3 << "33.33";
        QTest::newRow("half") << 0.5 << "0.5";
        QTest::newRow("negative") << -2.25 << "-2.25";
    }
    void formatsFigures() {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(LessonText::formatFigure(value), text);
    }

    void refuses_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown field") << QByteArray(R"({"title": "t", "scenario": "two.json",
            "beats": [{"say": "x"}], "extra": 1})")
                                       << "$.extra"
                                       << "unknown field";
        QTest::newRow("unknown beat field")
            << lessonWith(R"([{"say": "x", "until": 5}])") << "$.beats[0].until"
            << "unknown field";
        QTest::newRow("no title") << QByteArray(R"({"scenario": "two.json", "beats": []})")
                                  << "$.title"
                                  << "missing";
        QTest::newRow("no beats") << lessonWith("[]") << "$.beats"
                                  << "non-empty array";
        QTest::newRow("missing scenario file")
            << lessonWith(R"([{"say": "x"}])", "\"nowhere.json\"") << "$.scenario"
            << "cannot read the file";
        QTest::newRow("inline scenario's own error")
            << lessonWith(R"([{"say": "x"}])", R"({"limiters": [], "traffic": {}})")
            << "$.scenario.limiters"
            << "at least one limiter";
        QTest::newRow("real clock")
            << lessonWith(R"([{"say": "x"}])",
                          R"({"limiters": [{"type": "sliding_window", "name": "a",
                "rules": [{"limit": 1, "window_ms": 1000}]}],
                "traffic": {"shape": {"type": "constant", "rate": 1}, "duration_s": 1}})")
            << "$.scenario"
            << "virtual time";
        QTest::newRow("going back in time")
            << lessonWith(R"([{"until_ms": 900, "say": "a"}, {"until_ms": 800, "say": "b"}])")
            << "$.beats[1].until_ms"
            << "goes back in time: 800 ms is before 900 ms";
        QTest::newRow("past the end")
            << lessonWith(R"([{"until_ms": 3001, "say": "a"}])") << "$.beats[0].until_ms"
            << "from 0 to 3000";
        QTest::newRow("until and steps")
            << lessonWith(R"([{"until_ms": 10, "steps": 2, "say": "a"}])") << "$.beats[0].steps"
            << "not both";
        QTest::newRow("steps of 0")
            << lessonWith(R"([{"steps": 0, "say": "a"}])") << "$.beats[0].steps"
            << "whole number from 1";
        QTest::newRow("says nothing") << lessonWith(R"([{"until_ms": 10}])") << "$.beats[0]"
                                      << "says something";
        QTest::newRow("question without answer")
            << lessonWith(R"([{"ask": "why?"}])") << "$.beats[0].ask"
            << "needs its answer";
        QTest::newRow("answer without question")
            << lessonWith(R"([{"say": "a", "answer": "b"}])") << "$.beats[0].answer"
            << "needs its question";
        QTest::newRow("unknown limiter in a placeholder")
            << lessonWith(R"([{"say": "{nope.accepted}"}])") << "$.beats[0].say"
            << "placeholder {nope.accepted}: expected {limiter.metric}";
        QTest::newRow("unknown metric in a placeholder")
            << lessonWith(R"([{"say": "{fw.acepted}"}])") << "$.beats[0].say"
            << "placeholder {fw.acepted}: unknown metric \"acepted\"";
        QTest::newRow("unknown group in a placeholder")
            << lessonWith(R"([{"say": "{fw.group.admins.accepted}"}])") << "$.beats[0].say"
            << "no group \"admins\"";
        QTest::newRow("unclosed placeholder")
            << lessonWith(R"([{"say": "{fw.accepted"}])") << "$.beats[0].say"
            << "no closing";
        QTest::newRow("lone brace") << lessonWith(R"([{"say": "a } b"}])") << "$.beats[0].say"
                                    << "lone \"}\"";
        QTest::newRow("unknown limiter in expect")
            << lessonWith(R"([{"say": "a", "expect": {"nope": ["accepted == 1"]}}])")
            << "$.beats[0].expect.nope"
            << "no limiter is named";
        QTest::newRow("unknown metric in expect")
            << lessonWith(R"([{"say": "a", "expect": {"fw": ["acepted == 1"]}}])")
            << "$.beats[0].expect.fw[0]"
            << "unknown metric";
        QTest::newRow("highlight of an unknown limiter")
            << lessonWith(R"([{"say": "a", "highlight": {"limiter": "x", "from_ms": 0,
                "to_ms": 5}}])")
            << "$.beats[0].highlight.limiter"
            << "no limiter is named \"x\"";
        QTest::newRow("empty highlight span")
            << lessonWith(R"([{"say": "a", "highlight": {"limiter": "fw", "from_ms": 5,
                "to_ms": 5}}])")
            << "$.beats[0].highlight.to_ms"
            << "must be after from_ms";
    }
    void refuses() {
        QFETCH(QByteArray, json);
        QFETCH(QString, where);
        QFETCH(QString, message);
        const QString path = write(QStringLiteral("bad.json"), json);
        try {
            loadLessonFile(path);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(e.where() == path + QStringLiteral(": ") + where, qPrintable(e.message()));
            QVERIFY2(e.problem().contains(message), qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestLessonFile)
#include "tst_lesson_file.moc"
