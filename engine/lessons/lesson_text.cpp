#include "lessons/lesson_text.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <cmath>

#include "input_error.h"
#include "json_input.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"

namespace ratelab {
namespace {

using json_input::quoted;

// The limiter a placeholder's inside names: the longest limiter name followed by '.' (a name
// may hold dots itself).
QString limiterOf(const QString& inside, const Scenario& scenario) {
    QString best;
    for (const LimiterSpec& spec : scenario.limiters) {
        if (inside.startsWith(spec.name + QLatin1Char('.')) && spec.name.size() > best.size()) {
            best = spec.name;
        }
    }
    return best;
}

QString limiterNames(const Scenario& scenario) {
    QStringList names;
    for (const LimiterSpec& spec : scenario.limiters) {
        names << quoted(spec.name);
    }
    return json_input::oneOf(names);
}

}  // namespace

LessonText LessonText::parse(const QString& text, const QString& where, const Scenario& scenario) {
    LessonText out;
    out.source_ = text;
    out.where_ = where;
    QString literal;
    const auto flush = [&] {
        if (!literal.isEmpty()) {
            out.parts_.append(Part{literal, {}, {}});
            literal.clear();
        }
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('}')) {
            if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('}')) {
                literal += c;
                ++i;
                continue;
            }
            throw InputError(where, QStringLiteral("a lone \"}\" at character %1; write \"}}\" "
                                                   "for a brace")
                                        .arg(i + 1));
        }
        if (c != QLatin1Char('{')) {
            literal += c;
            continue;
        }
        if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('{')) {
            literal += c;
            ++i;
            continue;
        }
        const qsizetype close = text.indexOf(QLatin1Char('}'), i + 1);
        const qsizetype reopen = text.indexOf(QLatin1Char('{'), i + 1);
        if (close < 0 || (reopen >= 0 && reopen < close)) {
            throw InputError(where, QStringLiteral("the placeholder at character %1 has no "
                                                   "closing \"}\"; write \"{{\" for a brace")
                                        .arg(i + 1));
        }
        const QString inside = text.mid(i + 1, close - i - 1);
        const QString shown = QLatin1Char('{') + inside + QLatin1Char('}');
        const QString limiter = limiterOf(inside, scenario);
        if (limiter.isEmpty()) {
            throw InputError(where, QStringLiteral("placeholder %1: expected {limiter.metric} "
                                                   "with a limiter of the scenario (%2)")
                                        .arg(shown, limiterNames(scenario)));
        }
        const QString metric = inside.mid(limiter.size() + 1);
        static const QRegularExpression plainName(QStringLiteral("^[^\\s<>=!{}]+$"));
        if (!plainName.match(metric).hasMatch()) {
            throw InputError(where, QStringLiteral("placeholder %1: expected {limiter.metric}, "
                                                   "a metric such as \"accepted\"")
                                        .arg(shown));
        }
        try {
            // The metric as an expectation names it: the same names, groups and clients.
            parseExpectations(QJsonObject{{limiter, QJsonArray{metric + QStringLiteral(" >= 0")}}},
                              where, scenario);
        } catch (const InputError& e) {
            throw InputError(where, QStringLiteral("placeholder %1: %2").arg(shown, e.problem()));
        }
        flush();
        out.parts_.append(Part{{}, limiter, metric});
        i = close;
    }
    flush();
    return out;
}

QVector<Expectation> LessonText::figures() const {
    QVector<Expectation> out;
    for (const Part& part : parts_) {
        if (!part.limiter.isEmpty()) {
            Expectation e;
            e.limiter = part.limiter;
            e.metric = part.metric;
            e.op = CompareOp::GreaterEqual;
            out.append(e);
        }
    }
    return out;
}

QString LessonText::formatFigure(double value) {
    if (std::abs(value - std::round(value)) < 1e-9 && std::abs(value) < 9e15) {
        return QString::number(qint64(std::llround(value)));
    }
    QString text = QLocale::c().toString(value, 'f', 2);
    while (text.endsWith(QLatin1Char('0'))) {
        text.chop(1);
    }
    if (text.endsWith(QLatin1Char('.'))) {
        text.chop(1);
    }
    return text;
}

QString LessonText::fill(const RunSnapshot& run) const {
    QString out;
    for (const Part& part : parts_) {
        if (part.limiter.isEmpty()) {
            out += part.text;
            continue;
        }
        double value = 0;
        bool found = false;
        for (const LimiterSnapshot& l : run.limiters) {
            if (l.spec.name == part.limiter) {
                found = limiterMetric(l, part.metric, &value);
                break;
            }
        }
        if (!found) {
            throw InputError(where_, QStringLiteral("placeholder {%1.%2}: the run has no such "
                                                    "figure")
                                         .arg(part.limiter, part.metric));
        }
        out += formatFigure(value);
    }
    return out;
}

}  // namespace ratelab
