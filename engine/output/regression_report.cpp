#include "output/regression_report.h"

#include <QTextStream>
#include <QXmlStreamWriter>
#include <algorithm>
#include <cmath>

#include "json_input.h"

namespace ratelab {
namespace {

QString measuredText(double value) {
    return std::isnan(value) ? QStringLiteral("n/a") : json_input::formatNumber(value);
}

// The relation a failed check found instead of the one it expected.
QString negatedOp(CompareOp op) {
    switch (op) {
        case CompareOp::Less:
            return QStringLiteral(">=");
        case CompareOp::LessEqual:
            return QStringLiteral(">");
        case CompareOp::Equal:
            return QStringLiteral("!=");
        case CompareOp::GreaterEqual:
            return QStringLiteral("<");
        case CompareOp::Greater:
            return QStringLiteral("<=");
    }
    return {};
}

int failures(const QVector<ExpectationResult>& results) {
    return int(std::count_if(results.begin(), results.end(),
                             [](const ExpectationResult& r) { return !r.held; }));
}

}  // namespace

QString admittedBurstLine(const std::vector<BusiestInterval>& bursts) {
    QStringList parts;
    for (const BusiestInterval& b : bursts) {
        parts << (b.permits > 0 ? QStringLiteral("%1 in any %2 ms (from %3 ms)")
                                      .arg(b.permits)
                                      .arg(b.windowMs)
                                      .arg(b.fromMs)
                                : QStringLiteral("0 in any %1 ms").arg(b.windowMs));
    }
    return parts.join(QStringLiteral(", "));
}

QString failureMessage(const ExpectationResult& r) {
    if (std::isnan(r.measured)) {
        return QStringLiteral("not measured: the run has no %1").arg(r.expectation.metric);
    }
    return QStringLiteral("measured %1 %2 %3")
        .arg(measuredText(r.measured), negatedOp(r.expectation.op),
             json_input::formatNumber(r.expectation.threshold));
}

QString expectationsTable(const QVector<ExpectationResult>& results) {
    if (results.isEmpty()) {
        return {};
    }
    const QString hLimiter = QStringLiteral("limiter"), hExpect = QStringLiteral("expectation"),
                  hMeasured = QStringLiteral("measured");
    qsizetype wLimiter = hLimiter.size(), wExpect = hExpect.size(), wMeasured = hMeasured.size();
    for (const ExpectationResult& r : results) {
        wLimiter = std::max(wLimiter, r.limiter.size());
        wExpect = std::max(wExpect, r.expectation.text().size());
        wMeasured = std::max(wMeasured, measuredText(r.measured).size());
    }
    QString text;
    QTextStream out(&text);
    out << "expectations:\n";
    out << "  " << hLimiter.leftJustified(wLimiter) << "  " << hExpect.leftJustified(wExpect)
        << "  " << hMeasured.rightJustified(wMeasured) << "  verdict\n";
    for (const ExpectationResult& r : results) {
        out << "  " << r.limiter.leftJustified(wLimiter) << "  "
            << r.expectation.text().leftJustified(wExpect) << "  "
            << measuredText(r.measured).rightJustified(wMeasured) << "  "
            << (r.held ? QStringLiteral("held") : QStringLiteral("FAILED")) << "\n";
    }
    const int failed = failures(results);
    out << QStringLiteral("verdict: %1 (%2 of %3 held)\n")
               .arg(expectationVerdict(results))
               .arg(results.size() - failed)
               .arg(results.size());
    return text;
}

QByteArray expectationsJUnit(const QString& scenarioName, double runS,
                             const QVector<ExpectationResult>& results) {
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    const QString tests = QString::number(results.size());
    const QString failed = QString::number(failures(results));
    const QString time = QString::number(runS, 'f', 3);
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("ratelab"));
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), failed);
    w.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("time"), time);
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), scenarioName);
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), failed);
    w.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("skipped"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("time"), time);
    for (const ExpectationResult& r : results) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), scenarioName + QLatin1Char('.') + r.limiter);
        w.writeAttribute(QStringLiteral("name"),
                         r.limiter + QStringLiteral(": ") + r.expectation.text());
        w.writeAttribute(QStringLiteral("time"), QStringLiteral("0"));
        if (!r.held) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("message"), failureMessage(r));
            w.writeAttribute(QStringLiteral("type"), QStringLiteral("expectation"));
            w.writeCharacters(QStringLiteral("%1: expected %2, %3")
                                  .arg(r.limiter, r.expectation.text(), failureMessage(r)));
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

}  // namespace ratelab
