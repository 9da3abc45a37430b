#include "lessons/lesson_page_data.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "output/run_summary.h"
#include "report/report_data.h"

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::LessonPage", text);
}

// What report.html's script draws a run from (report/report_data.h), as JSON.
QJsonObject reportJson(const RunSnapshot& run) {
    return QJsonDocument::fromJson(reportData(summaryOf(run))).object();
}

// The series of a limiter that grow as the run goes on, per step: accepted, rejected, errors
// (zeros when it had none), each traffic group's accepted and rejected, and for a limit on
// requests in flight the most in flight, the releases and the leaked grants.
QVector<QJsonArray> seriesOf(const QJsonObject& limiter) {
    const qsizetype steps = limiter.value(QLatin1String("accepted")).toArray().size();
    QVector<QJsonArray> out{limiter.value(QLatin1String("accepted")).toArray(),
                            limiter.value(QLatin1String("rejected")).toArray()};
    QJsonArray errors = limiter.value(QLatin1String("errors")).toArray();
    while (errors.size() < steps) {
        errors.append(0);
    }
    out.append(errors);
    for (const QJsonValue g : limiter.value(QLatin1String("groups")).toArray()) {
        out.append(g.toObject().value(QLatin1String("accepted")).toArray());
        out.append(g.toObject().value(QLatin1String("rejected")).toArray());
    }
    const QJsonObject inFlight = limiter.value(QLatin1String("in_flight")).toObject();
    for (const char* key : {"most", "released", "leaked"}) {
        if (!inFlight.isEmpty()) {
            out.append(inFlight.value(QLatin1String(key)).toArray());
        }
    }
    return out;
}

// A frame's series as what changed since the frame before: from the first step that differs,
// every series' steps from there on. An earlier step can change too (a wait-mode request counts
// in the step it was scheduled in), so the page replaces the tail rather than appending.
QJsonObject seriesChange(const QVector<QJsonArray>& before, const QVector<QJsonArray>& now,
                         const QJsonObject& limiter) {
    qsizetype from = now.isEmpty() ? 0 : now.first().size();
    for (int s = 0; s < now.size(); ++s) {
        for (qsizetype i = 0; i < now[s].size(); ++i) {
            if (before.size() <= s || before[s].size() <= i || before[s][i] != now[s][i]) {
                from = std::min(from, i);
                break;
            }
        }
    }
    QJsonArray tails;
    for (const QJsonArray& series : now) {
        QJsonArray tail;
        for (qsizetype i = from; i < series.size(); ++i) {
            tail.append(series[i]);
        }
        tails.append(tail);
    }
    return QJsonObject{{QStringLiteral("from"), double(from)},
                       {QStringLiteral("tails"), tails},
                       {QStringLiteral("totals"), limiter.value(QLatin1String("totals"))}};
}

QJsonArray checksJson(const QVector<ExpectationResult>& checks) {
    QJsonArray out;
    for (const ExpectationResult& r : checks) {
        out.append(QJsonObject{
            {QStringLiteral("text"), r.limiter + QStringLiteral(": ") + r.expectation.text()},
            {QStringLiteral("measured"),
             std::isnan(r.measured) ? tr("no such figure") : LessonText::formatFigure(r.measured)},
            {QStringLiteral("held"), r.held}});
    }
    return out;
}

int limiterIndex(const Lesson& lesson, const QString& name) {
    for (int i = 0; i < lesson.scenario.limiters.size(); ++i) {
        if (lesson.scenario.limiters[i].name == name) {
            return i;
        }
    }
    return -1;
}

QJsonObject frameJson(const Lesson& lesson, const LessonFrame& frame) {
    QJsonObject out{{QStringLiteral("beat"), frame.beat},
                    {QStringLiteral("question"), frame.question},
                    {QStringLiteral("run_ms"), double(frame.runUs) / 1000.0},
                    {QStringLiteral("say"), frame.say},
                    {QStringLiteral("ask"), frame.ask},
                    {QStringLiteral("answer"), frame.answer},
                    {QStringLiteral("checks"), checksJson(frame.checks)}};
    if (frame.highlight) {
        out.insert(
            QStringLiteral("highlight"),
            QJsonObject{{QStringLiteral("limiter"), limiterIndex(lesson, frame.highlight->limiter)},
                        {QStringLiteral("from_ms"), double(frame.highlight->fromMs)},
                        {QStringLiteral("to_ms"), double(frame.highlight->toMs)}});
    }
    return out;
}

// The page's own words (the timelines' are report.html's).
QJsonObject lessonTexts() {
    const auto text = [](const char* source) { return QJsonValue(tr(source)); };
    return QJsonObject{{QStringLiteral("progress"), text("Beat %1 of %2")},
                       {QStringLiteral("question"), text("Question")},
                       {QStringLiteral("answer"), text("Answer")},
                       {QStringLiteral("pending"), text("Next reveals the answer.")},
                       {QStringLiteral("claim"), text("%1 (measured %2)")},
                       {QStringLiteral("now"), text("%1 s")},
                       {QStringLiteral("noFrames"), text("This lesson has no beats.")}};
}

}  // namespace

QByteArray lessonPageData(const Lesson& lesson, const QVector<LessonFrame>& frames) {
    QJsonObject data;
    QJsonArray limiters;
    QJsonArray framesJson;
    if (!frames.isEmpty()) {
        data = reportJson(frames.last().run);
        // What does not change from frame to frame: names, configuration, limit, boundaries.
        for (const QJsonValue l : data.value(QLatin1String("limiters")).toArray()) {
            QJsonObject limiter = l.toObject();
            QJsonArray groups;
            for (const QJsonValue g : limiter.value(QLatin1String("groups")).toArray()) {
                groups.append(QJsonObject{
                    {QStringLiteral("name"), g.toObject().value(QLatin1String("name"))}});
            }
            limiter.insert(QStringLiteral("groups"), groups);
            limiter.insert(QStringLiteral("steps"),
                           limiter.value(QLatin1String("accepted")).toArray().size());
            for (const char* key : {"accepted", "rejected", "errors", "totals", "burst"}) {
                limiter.remove(QLatin1String(key));
            }
            if (limiter.contains(QLatin1String("in_flight"))) {  // its limit: the rest grows
                limiter.insert(QStringLiteral("in_flight"),
                               QJsonObject{{QStringLiteral("limit"),
                                            limiter.value(QLatin1String("in_flight"))
                                                .toObject()
                                                .value(QLatin1String("limit"))}});
            }
            limiters.append(limiter);
        }
        QVector<QVector<QJsonArray>> before(limiters.size());
        for (const LessonFrame& frame : frames) {
            QJsonObject f = frameJson(lesson, frame);
            QJsonArray changes;
            const QJsonArray now = reportJson(frame.run).value(QLatin1String("limiters")).toArray();
            for (qsizetype i = 0; i < now.size() && i < before.size(); ++i) {
                const QVector<QJsonArray> series = seriesOf(now[i].toObject());
                changes.append(seriesChange(before[i], series, now[i].toObject()));
                before[i] = series;
            }
            f.insert(QStringLiteral("series"), changes);
            framesJson.append(f);
        }
    }
    QJsonObject text = data.value(QLatin1String("text")).toObject();
    const QJsonObject own = lessonTexts();
    for (auto it = own.begin(); it != own.end(); ++it) {
        text.insert(it.key(), it.value());
    }
    for (const char* key : {"shares", "bursts"}) {
        data.remove(QLatin1String(key));
    }
    data.insert(QStringLiteral("title"), lesson.title);
    data.insert(QStringLiteral("limiters"), limiters);
    data.insert(QStringLiteral("frames"), framesJson);
    data.insert(QStringLiteral("beats"), lesson.beats.size());
    data.insert(QStringLiteral("text"), text);
    QByteArray json = QJsonDocument(data).toJson(QJsonDocument::Compact);
    json.replace('&', "\\u0026").replace('<', "\\u003c").replace('>', "\\u003e");
    return json;
}

}  // namespace ratelab
