// Reading a lesson file (lessons/lesson.h). Messages follow the scenario parser's: the JSON path
// and what is wrong there.
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <cmath>

#include "input_error.h"
#include "input_limits.h"
#include "json_input.h"
#include "lessons/lesson.h"

namespace ratelab {

using namespace json_input;

namespace {

using lesson_limits::kMaxBeats;
using lesson_limits::kMaxTextLength;

qint64 readWholeNumber(const QJsonValue& value, const QString& where, qint64 min, qint64 max) {
    const double d = value.toDouble();
    if (!value.isDouble() || d != std::floor(d) || d < double(min) || d > double(max)) {
        throw InputError(where, QStringLiteral("must be a whole number from %1 to %2, got %3")
                                    .arg(min)
                                    .arg(max)
                                    .arg(describe(value)));
    }
    return qint64(d);
}

QString readTitle(const QJsonValue& value, const QString& where) {
    const QString title = readString(value, where);
    if (title.trimmed().isEmpty()) {
        throw InputError(where, QStringLiteral("must not be empty"));
    }
    if (title.size() > lesson_limits::kMaxTitleLength) {
        throw InputError(where, QStringLiteral("must be at most %1 characters long, got %2")
                                    .arg(lesson_limits::kMaxTitleLength)
                                    .arg(title.size()));
    }
    refuseBadNameCharacters(title, where);
    return title;
}

// The scenario: a path relative to the lesson file, or the scenario itself. Its own errors are
// put under "$.scenario".
Scenario readScenario(const QJsonValue& value, const QString& where, const QString& baseDir,
                      QString* file) {
    Scenario scenario;
    if (value.isString()) {
        const QString path = value.toString();
        if (path.isEmpty()) {
            throw InputError(where, QStringLiteral("must name a scenario file"));
        }
        *file = QDir::cleanPath(QDir(baseDir).absoluteFilePath(path));
        try {
            scenario = loadScenarioFile(*file);
        } catch (const InputError& e) {
            throw InputError(where, e.message());
        }
    } else if (value.isObject()) {
        try {
            scenario = parseScenario(value.toObject(), baseDir);
        } catch (const InputError& e) {
            // "$.traffic.clock" of the scenario is "$.scenario.traffic.clock" of the lesson.
            const QString inner = e.where();
            throw InputError(inner.startsWith(QLatin1Char('$')) ? where + inner.mid(1) : where,
                             e.problem());
        }
    } else {
        throw InputError(where, QStringLiteral("must be a scenario file's path or a scenario "
                                               "object, got ") +
                                    describe(value));
    }
    if (!scenario.traffic.clock.isVirtual) {
        throw InputError(where, QStringLiteral("a lesson is decided in virtual time, so that "
                                               "every check decides the same: the scenario's "
                                               "traffic needs \"clock\": {\"type\": \"virtual\", "
                                               "\"start\": …}"));
    }
    return scenario;
}

LessonText readText(const QJsonObject& beat, const QString& path, QLatin1String key,
                    const Scenario& scenario) {
    if (!beat.contains(key)) {
        return {};
    }
    const QString where = memberPath(path, key);
    const QString text = readString(beat.value(key), where);
    if (text.trimmed().isEmpty()) {
        throw InputError(where, QStringLiteral("must not be empty"));
    }
    if (text.size() > kMaxTextLength) {
        throw InputError(where, QStringLiteral("must be at most %1 characters long, got %2")
                                    .arg(kMaxTextLength)
                                    .arg(text.size()));
    }
    return LessonText::parse(text, where, scenario);
}

LessonHighlight readHighlight(const QJsonValue& value, const QString& where,
                              const Scenario& scenario, qint64 durationMs) {
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an object {\"limiter\", \"from_ms\", "
                                               "\"to_ms\"}, got ") +
                                    describe(value));
    }
    const QJsonObject object = value.toObject();
    const QLatin1String limiter("limiter"), from("from_ms"), to("to_ms");
    refuseUnknownFields(object, where, {limiter, from, to});
    LessonHighlight h;
    h.limiter = readString(required(object, where, limiter), memberPath(where, limiter));
    QStringList names;
    for (const LimiterSpec& spec : scenario.limiters) {
        names << quoted(spec.name);
    }
    if (!std::any_of(scenario.limiters.begin(), scenario.limiters.end(),
                     [&](const LimiterSpec& spec) { return spec.name == h.limiter; })) {
        throw InputError(memberPath(where, limiter), QStringLiteral("no limiter is named %1; "
                                                                    "expected %2")
                                                         .arg(quoted(h.limiter), oneOf(names)));
    }
    h.fromMs =
        readWholeNumber(required(object, where, from), memberPath(where, from), 0, durationMs);
    h.toMs = readWholeNumber(required(object, where, to), memberPath(where, to), 0, durationMs);
    if (h.toMs <= h.fromMs) {
        throw InputError(memberPath(where, to), QStringLiteral("must be after from_ms (%1), got "
                                                               "%2")
                                                    .arg(h.fromMs)
                                                    .arg(h.toMs));
    }
    return h;
}

LessonBeat readBeat(const QJsonValue& value, const QString& path, const Scenario& scenario,
                    qint64 durationMs) {
    if (!value.isObject()) {
        throw InputError(path, QStringLiteral("expected a JSON object, got ") + describe(value));
    }
    const QJsonObject object = value.toObject();
    const QLatin1String until("until_ms"), steps("steps"), say("say"), ask("ask"), answer("answer"),
        highlight("highlight"), expect("expect");
    refuseUnknownFields(object, path, {until, steps, say, ask, answer, highlight, expect});
    LessonBeat beat;
    beat.path = path;
    if (object.contains(until) && object.contains(steps)) {
        throw InputError(memberPath(path, steps), QStringLiteral("a beat advances either "
                                                                 "until_ms or by steps, not both"));
    }
    if (object.contains(until)) {
        const QString where = memberPath(path, until);
        beat.advance = LessonBeat::Advance::Until;
        beat.untilMs = readWholeNumber(object.value(until), where, 0, durationMs);
    } else if (object.contains(steps)) {
        beat.advance = LessonBeat::Advance::Steps;
        beat.steps = readWholeNumber(object.value(steps), memberPath(path, steps), 1,
                                     std::numeric_limits<int>::max());
    }
    beat.say = readText(object, path, say, scenario);
    beat.ask = readText(object, path, ask, scenario);
    beat.answer = readText(object, path, answer, scenario);
    if (beat.ask.isEmpty() != beat.answer.isEmpty()) {
        throw InputError(memberPath(path, beat.ask.isEmpty() ? answer : ask),
                         beat.ask.isEmpty() ? QStringLiteral("an answer needs its question (ask)")
                                            : QStringLiteral("missing: a question (ask) needs "
                                                             "its answer"));
    }
    if (beat.say.isEmpty() && beat.ask.isEmpty()) {
        throw InputError(path, QStringLiteral("a beat says something: give it \"say\" or "
                                              "\"ask\" and \"answer\""));
    }
    if (object.contains(highlight)) {
        beat.highlight = readHighlight(object.value(highlight), memberPath(path, highlight),
                                       scenario, durationMs);
    }
    if (object.contains(expect)) {
        beat.expect = parseExpectations(object.value(expect), memberPath(path, expect), scenario);
    }
    return beat;
}

}  // namespace

Lesson parseLesson(const QJsonObject& object, const QString& baseDir) {
    const QString root = QStringLiteral("$");
    const QLatin1String title("title"), scenario("scenario"), beats("beats");
    refuseUnknownFields(object, root, {title, scenario, beats});
    Lesson lesson;
    lesson.title = readTitle(required(object, root, title), memberPath(root, title));
    lesson.scenario = readScenario(required(object, root, scenario), memberPath(root, scenario),
                                   baseDir, &lesson.scenarioFile);
    const QString beatsPath = memberPath(root, beats);
    const QJsonValue list = required(object, root, beats);
    if (!list.isArray() || list.toArray().isEmpty()) {
        throw InputError(
            beatsPath, QStringLiteral("must be a non-empty array of beats, got ") + describe(list));
    }
    const QJsonArray array = list.toArray();
    if (array.size() > kMaxBeats) {
        throw InputError(beatsPath, QStringLiteral("has %1 beats; at most %2 are allowed")
                                        .arg(array.size())
                                        .arg(kMaxBeats));
    }
    const qint64 durationMs = qint64(std::llround(lesson.scenario.traffic.durationS * 1000));
    for (qsizetype i = 0; i < array.size(); ++i) {
        lesson.beats.append(
            readBeat(array.at(i), elementPath(beatsPath, i), lesson.scenario, durationMs));
    }
    lessonReach(lesson);  // a beat going back in time, or steps past the schedule's end
    return lesson;
}

Lesson loadLessonFile(const QString& path) {
    const QByteArray data = readSmallFile(path, lesson_limits::kMaxLessonFileBytes,
                                          QStringLiteral("a lesson is a few dozen lines of JSON"));
    try {
        Lesson lesson = parseLesson(parseObject(data), QFileInfo(path).path());
        lesson.file = path;
        return lesson;
    } catch (const InputError& error) {
        throw error.within(path);
    }
}

}  // namespace ratelab
