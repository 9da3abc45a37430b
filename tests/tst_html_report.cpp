// report.html: well-formed XHTML, self-contained (no http(s) URL, the chart inline), the
// summary's figures and names (escaped), and only the sections the run has something for;
// written by the one output-folder writer from what the folder's reader reads back.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "output/output_folder.h"
#include "report/html_report.h"
#include "report/output_folder.h"
#include "report/report_data.h"

using namespace ratelab;

namespace {

ClientSummary client(const QString& name, qint64 fired, qint64 accepted, qint64 burst) {
    ClientSummary c;
    c.client = name;
    c.counts.fired = fired;
    c.counts.accepted = accepted;
    c.counts.rejected = fired - accepted;
    if (burst >= 0) {
        c.admittedBurst = {{burst, 0, 1000, 0, 900}};
    }
    return c;
}

LimiterSummary limiter(const QString& name, qint64 fired, qint64 accepted, bool withBurst) {
    LimiterSummary l;
    l.name = name;
    l.type = QStringLiteral("fixed_window");
    l.counts.fired = fired;
    l.counts.accepted = accepted;
    l.counts.rejected = fired - accepted;
    l.latency.p50Ms = 0.125;
    l.latency.p99Ms = 2.5;
    l.fairness = 0.875;
    l.clients = {client(QStringLiteral("c0"), fired - 7, accepted - 3, withBurst ? 4 : -1),
                 client(QStringLiteral("c<1>"), 7, 3, withBurst ? 3 : -1)};
    if (withBurst) {
        l.otherClients.clients = 4321;  // past the listed ones, added up
        l.otherClients.counts.fired = 9876;
        l.otherClients.counts.accepted = 9875;
        l.otherClients.counts.rejected = 1;
        l.admittedBurst = {{17, 1200, 1000, 1200, 2150}};
        l.admittedBurstRunClock = {{19, 1190, 1000, 1190, 2180}};
    }
    return l;
}

RunSummary summary(bool full) {
    RunSummary s;
    s.scenario = QStringLiteral("skew & <friends>");
    s.startEpochMs = 1714521600000;
    s.durationS = 3;
    s.requests = 60;
    s.limiters = {limiter(QStringLiteral("<b>&x"), 60, 23, full),
                  limiter(QStringLiteral("redis-time"), 60, 15, full)};
    s.verdict = QStringLiteral("none");
    if (full) {
        ExpectationResult e;
        e.limiter = QStringLiteral("<b>&x");
        e.expectation = {e.limiter, QStringLiteral("max_accepted_in_any_1000ms"),
                         CompareOp::LessEqual, 10};
        e.measured = 17;
        s.expectations = {e};
        s.verdict = QStringLiteral("failed");
    }
    return s;
}

// A finished run of two buckets, for the output folder.
RunSnapshot folderRun() {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("folder");
    run.durationUs = 200000;
    run.finished = true;
    run.bucketTargetRate = {50, 50};
    LimiterSnapshot l;
    l.spec.name = QStringLiteral("l");
    l.spec.rate = 5;
    l.spec.intervalMs = 100;
    l.fired = 10;
    l.accepted = 6;
    l.rejected = 4;
    l.bucketAccepted = {4, 2};
    l.bucketRejected = {1, 3};
    l.bucketErrors = {0, 0};
    run.limiters = {l};
    return run;
}

// Every text node of the page outside its script and style, joined, or the XML error.
QString textOf(const QByteArray& html, QString* error, QStringList* imgSources) {
    QXmlStreamReader xml(html);
    QString text;
    int inCode = 0;  // inside <script> or <style>: the page's code and data, not its text
    while (!xml.atEnd()) {
        xml.readNext();
        const bool code =
            xml.name() == QLatin1String("script") || xml.name() == QLatin1String("style");
        if (xml.isCharacters() && inCode == 0) {
            text += xml.text();
        } else if (xml.isStartElement() && code) {
            ++inCode;
        } else if (xml.isEndElement() && code) {
            --inCode;
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
        // Sections the run has nothing for are left out, not faked.
        QCOMPARE(text.contains(QLatin1String("Expectations")), full);
        QCOMPARE(text.contains(QLatin1String("Admitted burst")), full);
        QCOMPARE(text.contains(QLatin1String("Most accepted in 1000 ms")), full);
        QCOMPARE(text.contains(QLatin1String("FAILED")), full);
        QCOMPARE(text.contains(QLatin1String("max_accepted_in_any_1000ms <= 10")), full);
        QCOMPARE(text.contains(QLatin1String("2150")), full);
        QCOMPARE(text.contains(QLatin1String("On the run's clock")), full);
        QCOMPARE(text.contains(QLatin1String("2180")), full);
        QVERIFY(!text.contains(QLatin1String("Disagreements")));  // none
        // The clients not listed one by one: one row of their counts added up.
        QCOMPARE(text.contains(QLatin1String("4321 other clients")), full);
        QCOMPARE(text.contains(QLatin1String("9876")), full);
    }

    // With traffic groups: a table per limiter of its groups (counts, share refused, the
    // admitted burst on both clocks) and each client's group in the clients' table.
    void groups() {
        RunSummary s = summary(true);
        LimiterSummary& l = s.limiters[0];
        l.clients[0].group = QStringLiteral("users");
        l.clients[1].group = QStringLiteral("<attacker>");
        GroupSummary attacker;
        attacker.group = QStringLiteral("<attacker>");
        attacker.clients = 1;
        attacker.counts.fired = 40;
        attacker.counts.accepted = 10;
        attacker.counts.rejected = 30;
        attacker.admittedBurst = {{5, 0, 1000, 0, 800}};
        attacker.admittedBurstRunClock = {{6, 0, 1000, 0, 810}};
        l.groups = {attacker};
        QString error;
        QStringList images;
        const QByteArray page = reportHtml(s, QByteArray());
        // The contents line links to the groups' section.
        QVERIFY(page.contains(R"(<a href="#groups">)"));
        const QString text = textOf(page, &error, &images);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char* figure : {"Groups", "<attacker>", "Rejected %", "75",
                                   "Most in 1000 ms, run's clock", "users"}) {
            QVERIFY2(text.contains(QLatin1String(figure)), figure);
        }
        // Only the limiter with groups has a groups table; without any, no section.
        QCOMPARE(text.count(QLatin1String("Most in 1000 ms, run's clock")), 1);
        const QString plain = textOf(reportHtml(summary(true), QByteArray()), &error, &images);
        QVERIFY(!plain.contains(QLatin1String("Groups")));
        QVERIFY(!plain.contains(QLatin1String("Group")));
    }

    // The page's script gets each traffic group's accepted and rejected per step to draw its line
    // over the limiter's timeline, and the legend names the lines; groups without a series per
    // bucket (a folder whose buckets.csv has no group columns) get neither. Failed before: the
    // page's data had no group series.
    void groupLinesInThePageData() {
        RunSummary s = summary(true);
        s.bucketTargetRate = {10, 10, 10};
        for (LimiterSummary& l : s.limiters) {
            l.buckets.accepted = {3, 4, 5};
            l.buckets.rejected = {5, 6, 5};
        }
        GroupSummary users;
        users.group = QStringLiteral("users");
        users.bucketAccepted = {1, 2, 3};
        users.bucketRejected = {0, 1, 0};
        GroupSummary attacker;
        attacker.group = QStringLiteral("<attacker>");
        attacker.bucketAccepted = {2, 2, 2};
        attacker.bucketRejected = {5, 5, 5};
        s.limiters[0].groups = {users, attacker};
        users.bucketAccepted.clear();  // the second limiter's: no series
        users.bucketRejected.clear();
        s.limiters[1].groups = {users};

        const QJsonObject data = QJsonDocument::fromJson(reportData(s)).object();
        const QJsonArray limiters = data[QLatin1String("limiters")].toArray();
        const QJsonArray groups = limiters[0][QLatin1String("groups")].toArray();
        QCOMPARE(groups.size(), 2);
        QCOMPARE(groups[0][QLatin1String("name")].toString(), QStringLiteral("users"));
        QCOMPARE(groups[0][QLatin1String("accepted")].toArray(), (QJsonArray{1, 2, 3}));
        QCOMPARE(groups[0][QLatin1String("rejected")].toArray(), (QJsonArray{0, 1, 0}));
        QCOMPARE(groups[1][QLatin1String("name")].toString(), QStringLiteral("<attacker>"));
        QCOMPARE(groups[1][QLatin1String("accepted")].toArray(), (QJsonArray{2, 2, 2}));
        QCOMPARE(groups[1][QLatin1String("rejected")].toArray(), (QJsonArray{5, 5, 5}));
        QVERIFY(!limiters[1].toObject().contains(QLatin1String("groups")));
        QVERIFY(!data[QLatin1String("text")][QLatin1String("groupRow")].toString().isEmpty());

        QString error;
        QStringList images;
        const QString text = textOf(reportHtml(s, QByteArray()), &error, &images);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(text.contains(QLatin1String("group users accepted")));
        QVERIFY(text.contains(QLatin1String("group <attacker> accepted")));
        // Without any series: no line and no legend entry.
        s.limiters[0].groups = {users};
        QVERIFY(!QJsonDocument::fromJson(reportData(s))
                     .object()[QLatin1String("limiters")][0]
                     .toObject()
                     .contains(QLatin1String("groups")));
        const QString plain = textOf(reportHtml(s, QByteArray()), &error, &images);
        QVERIFY(!plain.contains(QLatin1String("users accepted")));
    }

    // The one folder writer: report.html is the page of the summary the folder's reader reads
    // back, with the folder's report.png; no other file is left beside the four.
    void outputFolderPageFromTheReader() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const FolderWrite written = writeOutputFolder(folderRun(), dir.path());
        QVERIFY2(written.ok(), qPrintable(written.failures.join(QLatin1Char('\n'))));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden, QDir::Name),
                 (QStringList{QStringLiteral("buckets.csv"), QStringLiteral("report.html"),
                              QStringLiteral("report.png"), QStringLiteral("summary.json")}));
        QFile png(dir.filePath(QStringLiteral("report.png")));
        QVERIFY(png.open(QIODevice::ReadOnly));
        QFile html(dir.filePath(QStringLiteral("report.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QCOMPARE(html.readAll(), reportHtml(readOutputFolder(dir.path()), png.readAll()));
    }

    // A folder that cannot be made: the error names it, nothing is written.
    void unwritableFolder() {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("a-file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const QString inside = file.fileName() + QStringLiteral("/inside");
        const FolderWrite written = writeOutputFolder(folderRun(), inside);
        QCOMPARE(written.written, QStringList());
        QCOMPARE(written.failures,
                 QStringList{inside + QStringLiteral(": cannot create the folder")});
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("a-file")});
    }
};

QTEST_MAIN(TestHtmlReport)
#include "tst_html_report.moc"
