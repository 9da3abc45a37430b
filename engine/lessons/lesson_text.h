#pragma once

#include <QString>
#include <QVector>

#include "stats/expectation.h"

namespace ratelab {

struct RunSnapshot;
struct Scenario;

// A beat's text with its figures: "{limiter.metric}" is that limiter's figure on the run so far,
// by the names an expectation uses (limiterMetric: "accepted", "max_accepted_in_any_1000ms",
// "group.users.rejected_pct"); "{{" and "}}" are braces. Whole figures are written whole, others
// to two decimals.
class LessonText {
public:
    LessonText() = default;
    // Checks every placeholder against the scenario's limiters and the metrics an expectation
    // may name; an InputError at `where` names the first one that is wrong.
    static LessonText parse(const QString& text, const QString& where, const Scenario& scenario);

    bool isEmpty() const { return source_.isEmpty(); }
    const QString& source() const { return source_; }
    // The figures it names, as expectations (their operator means nothing): a run computes the
    // admitted bursts they name.
    QVector<Expectation> figures() const;
    // The text with the run's figures. An InputError at the text's place when the run lacks a
    // figure it names (a group or client the traffic never had).
    QString fill(const RunSnapshot& run) const;

    static QString formatFigure(double value);

private:
    struct Part {
        QString text;     // literal text, or
        QString limiter;  // a placeholder's limiter and metric
        QString metric;
    };
    QString source_;
    QString where_;
    QVector<Part> parts_;
};

}  // namespace ratelab
