#include "support/browser_selftest.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>

#include <unistd.h>

namespace ratelab::test {
namespace {

constexpr int kBrowserTimeoutMs = 60000;

// The text of <pre id="selftest"> in Chromium's dump of the DOM, unescaped.
QString selftestText(const QString& dom) {
    const QString open = QStringLiteral("<pre id=\"selftest\">");
    const qsizetype from = dom.indexOf(open);
    const qsizetype to = dom.indexOf(QStringLiteral("</pre>"), from);
    if (from < 0 || to < 0) {
        return QString();
    }
    QString text = dom.mid(from + open.size(), to - from - open.size());
    text.replace(QStringLiteral("&lt;"), QStringLiteral("<"))
        .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
        .replace(QStringLiteral("&nbsp;"), QString(QChar(0xa0)))
        .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    return text;
}

}  // namespace

QString chromiumForTests(QString* problem) {
    const QString chromium = qEnvironmentVariable("RATELAB_CHROMIUM");
    if (QFileInfo(chromium).isExecutable()) {
        return chromium;
    }
    *problem = QStringLiteral(
                   "no chromium (\"%1\"): scripts/lib/deps.sh installs Debian's "
                   "chromium, then configure again")
                   .arg(chromium);
    return QString();
}

QJsonObject browserSelftest(const QString& chromium, const QString& page, bool dark,
                            QString* console) {
    QTemporaryDir profile;
    QStringList args{QStringLiteral("--headless"),
                     QStringLiteral("--disable-gpu"),
                     QStringLiteral("--no-first-run"),
                     QStringLiteral("--enable-logging=stderr"),
                     QStringLiteral("--window-size=1280,1000"),
                     QStringLiteral("--user-data-dir=") + profile.path(),
                     QStringLiteral("--dump-dom")};
    if (geteuid() == 0) {
        args << QStringLiteral("--no-sandbox");  // Chromium refuses root with its sandbox
    }
    if (dark) {
        args << QStringLiteral("--force-dark-mode");
    }
    QUrl url = QUrl::fromLocalFile(page);
    url.setFragment(QStringLiteral("selftest"));
    args << url.toString();
    QProcess browser;
    browser.start(chromium, args);
    if (!browser.waitForFinished(kBrowserTimeoutMs)) {
        browser.kill();
        browser.waitForFinished();
        qWarning("chromium did not finish within %d ms", kBrowserTimeoutMs);
        return {};
    }
    const QString log = QString::fromUtf8(browser.readAllStandardError());
    for (const QString& line : log.split(QLatin1Char('\n'))) {
        if (line.contains(QLatin1String("CONSOLE"))) {
            *console += line + QLatin1Char('\n');
        }
    }
    const QString text = selftestText(QString::fromUtf8(browser.readAllStandardOutput()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (!doc.isObject()) {
        qWarning("no self-test result (%s); chromium exited %d; its log:\n%s",
                 qPrintable(error.errorString()), browser.exitCode(), qPrintable(log));
    }
    return doc.object();
}

QString selftestProblems(const QJsonObject& result) {
    QStringList out;
    for (const QJsonValue e : result[QLatin1String("errors")].toArray()) {
        out << e.toString();
    }
    for (const QJsonValue c : result[QLatin1String("checks")].toArray()) {
        const QJsonObject check = c.toObject();
        if (!check[QLatin1String("ok")].toBool()) {
            out << QStringLiteral("check failed: %1 (%2)")
                       .arg(check[QLatin1String("name")].toString(),
                            check[QLatin1String("detail")].toString());
        }
    }
    return out.join(QLatin1Char('\n'));
}

QJsonObject selftestOfPage(const QString& chromium, const QByteArray& html, bool dark,
                           QString* problem) {
    QTemporaryDir dir;
    const QString page = dir.filePath(QStringLiteral("page.html"));
    QFile file(page);
    if (!dir.isValid() || !file.open(QIODevice::WriteOnly) || file.write(html) != html.size()) {
        *problem = QStringLiteral("cannot write %1").arg(page);
        return {};
    }
    file.close();
    QString console;
    const QJsonObject result = browserSelftest(chromium, page, dark, &console);
    *problem = result.isEmpty()     ? QStringLiteral("the page wrote no self-test result")
               : !console.isEmpty() ? console
                                    : selftestProblems(result);
    return problem->isEmpty() ? result : QJsonObject();
}

}  // namespace ratelab::test
