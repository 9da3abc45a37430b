#include "output/regression_report.h"

#include <QTextStream>
#include <QXmlStreamWriter>
#include <algorithm>
#include <cmath>

#include "json_input.h"
#include "output/output_format.h"

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

namespace {

// The verdict line: "verdict: passed (4 of 4 held)"; an incomplete verdict says why.
QString verdictLine(const QVector<ExpectationResult>& results, const QString& verdict,
                    const QString& reason) {
    const int failed = failures(results);
    if (verdict == output_format::verdict::kIncomplete) {
        return results.isEmpty()
                   ? QStringLiteral("verdict: incomplete (%1)\n").arg(reason)
                   : QStringLiteral(
                         "verdict: incomplete (%1; %2 of %3 held on what it measured, "
                         "not judged)\n")
                         .arg(reason)
                         .arg(results.size() - failed)
                         .arg(results.size());
    }
    return QStringLiteral("verdict: %1 (%2 of %3 held)\n")
        .arg(verdict)
        .arg(results.size() - failed)
        .arg(results.size());
}

QString table(const QVector<ExpectationResult>& results, const QString& verdict,
              const QString& reason) {
    if (results.isEmpty()) {
        return verdict == output_format::verdict::kIncomplete
                   ? verdictLine(results, verdict, reason)
                   : QString();
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
    out << verdictLine(results, verdict, reason);
    return text;
}

// Text XML 1.0 can hold: a lone surrogate or a control character other than tab, CR and LF
// becomes U+FFFD (QXmlStreamWriter writes them as they are, and the file no longer parses).
QString xmlText(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            out += c;
            out += text.at(++i);
        } else if (c.isSurrogate() ||
                   (c.unicode() < 0x20 && c != u'\t' && c != u'\n' && c != u'\r') ||
                   c.unicode() == 0xFFFE || c.unicode() == 0xFFFF) {
            out += QChar(QChar::ReplacementCharacter);
        } else {
            out += c;
        }
    }
    return out;
}

QByteArray junit(const QString& scenarioName, double runS,
                 const QVector<ExpectationResult>& results, const QString& verdict,
                 const QString& reason) {
    const bool incomplete = verdict == output_format::verdict::kIncomplete;
    const QString suite = xmlText(scenarioName);
    // An incomplete run without expectations still reports: one test case, the run itself.
    const qsizetype cases = incomplete && results.isEmpty() ? 1 : results.size();
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    const QString tests = QString::number(cases);
    const QString failed = QString::number(incomplete ? 0 : failures(results));
    const QString errors = QString::number(incomplete ? cases : 0);
    const QString time = QString::number(runS, 'f', 3);
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("ratelab"));
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), failed);
    w.writeAttribute(QStringLiteral("errors"), errors);
    w.writeAttribute(QStringLiteral("time"), time);
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), suite);
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), failed);
    w.writeAttribute(QStringLiteral("errors"), errors);
    w.writeAttribute(QStringLiteral("skipped"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("time"), time);
    const QString incompleteMessage = xmlText(QStringLiteral("incomplete: ") + reason);
    const auto writeError = [&](const QString& detail) {
        w.writeStartElement(QStringLiteral("error"));
        w.writeAttribute(QStringLiteral("message"), incompleteMessage);
        w.writeAttribute(QStringLiteral("type"), QStringLiteral("incomplete"));
        w.writeCharacters(xmlText(detail));
        w.writeEndElement();
    };
    if (incomplete && results.isEmpty()) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), suite);
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("run"));
        w.writeAttribute(QStringLiteral("time"), time);
        writeError(QStringLiteral("the run is incomplete: %1").arg(reason));
        w.writeEndElement();
    }
    for (const ExpectationResult& r : results) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"),
                         suite + QLatin1Char('.') + xmlText(r.limiter));
        w.writeAttribute(QStringLiteral("name"),
                         xmlText(r.limiter + QStringLiteral(": ") + r.expectation.text()));
        w.writeAttribute(QStringLiteral("time"), QStringLiteral("0"));
        if (incomplete) {
            writeError(QStringLiteral("%1: expected %2, not judged, incomplete: %3")
                           .arg(r.limiter, r.expectation.text(), reason));
        } else if (!r.held) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("message"), xmlText(failureMessage(r)));
            w.writeAttribute(QStringLiteral("type"), QStringLiteral("expectation"));
            w.writeCharacters(
                xmlText(QStringLiteral("%1: expected %2, %3")
                            .arg(r.limiter, r.expectation.text(), failureMessage(r))));
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

}  // namespace

QString expectationsTable(const QVector<ExpectationResult>& results) {
    return table(results, expectationVerdict(results), QString());
}

QString expectationsTable(const RunSummary& summary) {
    return table(summary.expectations, summary.verdict, summary.verdictReason);
}

QByteArray expectationsJUnit(const QString& scenarioName, double runS,
                             const QVector<ExpectationResult>& results,
                             const QString& incompleteReason) {
    return junit(scenarioName, runS, results,
                 incompleteReason.isEmpty() ? expectationVerdict(results)
                                            : QString(output_format::verdict::kIncomplete),
                 incompleteReason);
}

QByteArray expectationsJUnit(const RunSummary& summary) {
    return junit(summary.scenario, summary.runS, summary.expectations, summary.verdict,
                 summary.verdictReason);
}

}  // namespace ratelab
