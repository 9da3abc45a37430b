#pragma once

#include <QJsonObject>
#include <QString>

namespace ratelab::test {

// $RATELAB_CHROMIUM (CTest sets it: Debian's chromium), or empty with `problem` saying how to get
// it.
QString chromiumForTests(QString* problem);

// A page of ratelab's (report.html, lesson.html) in headless Chromium ($RATELAB_CHROMIUM, Debian's
// chromium): loaded with #selftest, its script checks itself and writes the result as JSON into
// <pre id="selftest">, which this reads back from the DOM Chromium dumps. `dark`: the browser
// prefers a dark scheme. The page's console lines go to `console`. Empty on failure (a warning
// says why).
QJsonObject browserSelftest(const QString& chromium, const QString& page, bool dark,
                            QString* console);

// The page's checks that failed and its errors, one a line; empty when all is well.
QString selftestProblems(const QJsonObject& result);

// `html` written to a page of its own and self-tested (browserSelftest): what the page found, or
// empty with the problem (not written, no result, console output, a failed check) in *problem.
QJsonObject selftestOfPage(const QString& chromium, const QByteArray& html, bool dark,
                           QString* problem);

}  // namespace ratelab::test
