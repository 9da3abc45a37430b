// report.html: well-formed XHTML, self-contained (no http(s) URL, the chart inline), the
// summary's figures and names (escaped), and only the sections the summary holds.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "report/html_report.h"

using namespace ratelab;

namespace {

QJsonObject client(const QString& name, double fired, double accepted, double burst) {
    QJsonObject c{
        {QStringLiteral("client"), name},       {QStringLiteral("fired"), fired},
        {QStringLiteral("accepted"), accepted}, {QStringLiteral("rejected"), fired - accepted},
        {QStringLiteral("errors"), 0},          {QStringLiteral("waited_ms_total"), 0}};
    if (burst >= 0) {
        c.insert(QStringLiteral("max_accepted_in_any_1000ms"), burst);
    }
    return c;
}

QJsonObject limiter(const QString& name, double fired, double accepted, bool withBurst) {
    QJsonObject l{
        {QStringLiteral("name"), name},
        {QStringLiteral("type"), QStringLiteral("fixed_window")},
        {QStringLiteral("fired"), fired},
        {QStringLiteral("accepted"), accepted},
        {QStringLiteral("rejected"), fired - accepted},
        {QStringLiteral("errors"), 0},
        {QStringLiteral("latency"),
         QJsonObject{{QStringLiteral("p50_ms"), 0.125}, {QStringLiteral("p99_ms"), 2.5}}},
        {QStringLiteral("waited"), QJsonObject{{QStringLiteral("max_ms"), 0}}},
        {QStringLiteral("fairness_jain"), 0.875},
        {QStringLiteral("clients"),
         QJsonArray{client(QStringLiteral("c0"), fired - 7, accepted - 3, withBurst ? 4 : -1),
                    client(QStringLiteral("c<1>"), 7, 3, withBurst ? 3 : -1)}}};
    if (withBurst) {
        l.insert(QStringLiteral("max_accepted_in_any_1000ms"), 17);
        l.insert(QStringLiteral("admitted_burst"),
                 QJsonArray{QJsonObject{{QStringLiteral("window_ms"), 1000},
                                        {QStringLiteral("accepted"), 17},
                                        {QStringLiteral("from_ms"), 1200},
                                        {QStringLiteral("first_ms"), 1200},
                                        {QStringLiteral("last_ms"), 2150}}});
    }
    return l;
}

QJsonObject summary(bool full) {
    QJsonObject s{{QStringLiteral("scenario"), QStringLiteral("skew & <friends>")},
                  {QStringLiteral("start_epoch_ms"), 1714521600000.0},
                  {QStringLiteral("duration_s"), 3},
                  {QStringLiteral("requests"), 60},
                  {QStringLiteral("limiters"),
                   QJsonArray{limiter(QStringLiteral("<b>&x"), 60, 23, full),
                              limiter(QStringLiteral("redis-time"), 60, 15, full)}},
                  {QStringLiteral("disagreements"), QJsonArray()}};
    if (full) {
        s.insert(QStringLiteral("verdict"), QStringLiteral("failed"));
        s.insert(QStringLiteral("expectations"),
                 QJsonArray{QJsonObject{{QStringLiteral("limiter"), QStringLiteral("<b>&x")},
                                        {QStringLiteral("expression"),
                                         QStringLiteral("max_accepted_in_any_1000ms <= 10")},
                                        {QStringLiteral("measured"), 17},
                                        {QStringLiteral("held"), false}}});
    }
    return s;
}

// Every text node of the page, joined, or the XML error.
QString textOf(const QByteArray& html, QString* error, QStringList* imgSources) {
    QXmlStreamReader xml(html);
    QString text;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isCharacters()) {
            text += xml.text();
        } else if (xml.isStartElement() && xml.name() == QLatin1String("img")) {
            imgSources->append(xml.attributes().value(QLatin1String("src")).toString());
        }
    }
    if (xml.hasError()) {
        *error = xml.errorString() + QStringLiteral(" at line %1").arg(xml.lineNumber());
    }
    return text;
}

}  // namespace

class TestHtmlReport : public QObject {
    Q_OBJECT

private slots:
    void wellFormedAndSelfContained_data() {
        QTest::addColumn<bool>("full");
        QTest::addColumn<bool>("withImage");
        QTest::newRow("every section, with the chart") << true << true;
        QTest::newRow("counts only, no chart") << false << false;
    }
    void wellFormedAndSelfContained() {
        QFETCH(bool, full);
        QFETCH(bool, withImage);
        const QByteArray png =
            withImage ? QByteArray("\x89PNG\r\n\x1a\n-fake-image-bytes", 25) : QByteArray();
        const QByteArray html = reportHtml(summary(full), png);
        QString error;
        QStringList images;
        const QString text = textOf(html, &error, &images);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!html.contains("http:") && !html.contains("https:"));
        QVERIFY(!html.contains("<script"));
        // Names are text: the limiter "<b>&x" never becomes markup.
        QVERIFY(text.contains(QLatin1String("<b>&x")));
        QVERIFY(!html.contains("<b>"));
        QVERIFY(text.contains(QLatin1String("skew & <friends>")));
        QVERIFY(text.contains(QLatin1String("c<1>")));
        QVERIFY(text.contains(QLatin1String("redis-time")));
        // The figures of the summary.
        for (const char* figure :
             {"23", "15", "0.125", "2.5", "0.875", "2024-05-01T00:00:00.000"}) {
            QVERIFY2(text.contains(QLatin1String(figure)), figure);
        }
        QCOMPARE(images.size(), withImage ? 1 : 0);
        if (withImage) {
            QCOMPARE(images[0], QStringLiteral("data:image/png;base64,") +
                                    QString::fromLatin1(png.toBase64()));
        }
        // Sections of fields the summary lacks are left out, not faked.
        QCOMPARE(text.contains(QLatin1String("Expectations")), full);
        QCOMPARE(text.contains(QLatin1String("Admitted burst")), full);
        QCOMPARE(text.contains(QLatin1String("Most accepted in 1000 ms")), full);
        QCOMPARE(text.contains(QLatin1String("FAILED")), full);
        QCOMPARE(text.contains(QLatin1String("max_accepted_in_any_1000ms <= 10")), full);
        QCOMPARE(text.contains(QLatin1String("2150")), full);
        QVERIFY(!text.contains(QLatin1String("Disagreements")));  // an empty list
    }

    void writesBesideTheSummary() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        QVERIFY(!writeReportHtml(dir.path(), &error));  // no summary.json yet
        QVERIFY2(error.contains(QLatin1String("summary.json")), qPrintable(error));
        QFile json(dir.filePath(QStringLiteral("summary.json")));
        QVERIFY(json.open(QIODevice::WriteOnly));
        json.write(QJsonDocument(summary(true)).toJson());
        json.close();
        QVERIFY2(writeReportHtml(dir.path(), &error), qPrintable(error));
        QFile html(dir.filePath(QStringLiteral("report.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QCOMPARE(html.readAll(), reportHtml(summary(true), QByteArray()));
    }
};

QTEST_GUILESS_MAIN(TestHtmlReport)
#include "tst_html_report.moc"
