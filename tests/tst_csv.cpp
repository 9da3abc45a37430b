// The CSV ratelab writes (buckets.csv, the window's export, the replay command's output) is
// RFC 4180: a field holding a comma, a double quote or a line break is quoted, its quotes
// doubled. Checked by reading the output back with an RFC 4180 reader written here.
#include <QtTest>

#include "csv_writer.h"
#include "output/buckets_csv.h"
#include "run/replay.h"

using namespace ratelab;

namespace {

// RFC 4180, section 2: records end with CRLF or LF; a field is either plain (no comma, quote
// or line break) or enclosed in double quotes with inner quotes doubled. Returns the records,
// or records a test failure for a malformed input.
QList<QStringList> readRfc4180(const QByteArray& csv) {
    QList<QStringList> records;
    const QString text = QString::fromUtf8(csv);
    QStringList record;
    QString field;
    qsizetype i = 0;
    bool fieldStarted = false;
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (!fieldStarted && c == u'"') {
            // A quoted field: up to the closing quote, "" standing for one quote.
            ++i;
            for (;;) {
                if (i >= text.size()) {
                    qWarning("unterminated quoted field");
                    return {};
                }
                if (text.at(i) == u'"') {
                    if (i + 1 < text.size() && text.at(i + 1) == u'"') {
                        field += u'"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += text.at(i++);
            }
            fieldStarted = true;
            if (i < text.size() && text.at(i) != u',' && text.at(i) != u'\n' &&
                text.at(i) != u'\r') {
                qWarning("text after a closing quote");
                return {};
            }
            continue;
        }
        if (c == u',') {
            record << field;
            field.clear();
            fieldStarted = false;
        } else if (c == u'\n' || c == u'\r') {
            if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n') {
                ++i;
            }
            record << field;
            records << record;
            record.clear();
            field.clear();
            fieldStarted = false;
        } else {
            if (c == u'"') {
                qWarning("a quote inside a plain field");
                return {};
            }
            field += c;
            fieldStarted = true;
        }
        ++i;
    }
    if (fieldStarted || !record.isEmpty()) {
        record << field;
        records << record;
    }
    return records;
}

LimiterSnapshot limiterNamed(const QString& name, qint64 accepted) {
    LimiterSnapshot l;
    l.spec.name = name;
    l.bucketAccepted = {accepted, accepted + 1};
    l.bucketRejected = {1, 2};
    l.bucketErrors = {0, 3};
    l.bucketErrorsOpen = {0, 1};
    l.bucketErrorsClosed = {0, 2};
    return l;
}

const QStringList kAwkwardNames = {
    QStringLiteral("api"),        QStringLiteral("a,b"),
    QStringLiteral("say \"hi\""), QStringLiteral("\"quoted\""),
    QStringLiteral("a,\"b\",c"),  QStringLiteral(" leading and trailing "),
    QStringLiteral("ü,日本"),     QStringLiteral(","),
    QStringLiteral("\""),
};

}  // namespace

class TestCsv : public QObject {
    Q_OBJECT

private slots:
    // The writer itself: RFC 4180 section 2, rules 5-7.
    void field_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("csv");
        QTest::newRow("plain") << QStringLiteral("api") << QByteArray("api");
        QTest::newRow("empty") << QString() << QByteArray();
        QTest::newRow("spaces kept, not quoted") << QStringLiteral(" a b ") << QByteArray(" a b ");
        QTest::newRow("comma") << QStringLiteral("a,b") << QByteArray("\"a,b\"");
        QTest::newRow("quote doubled")
            << QStringLiteral("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
        QTest::newRow("only a quote") << QStringLiteral("\"") << QByteArray("\"\"\"\"");
        QTest::newRow("line feed") << QStringLiteral("a\nb") << QByteArray("\"a\nb\"");
        QTest::newRow("carriage return") << QStringLiteral("a\rb") << QByteArray("\"a\rb\"");
        QTest::newRow("UTF-8") << QStringLiteral("ü,日本") << QByteArray("\"ü,日本\"");
    }
    void field() {
        QFETCH(QString, text);
        QFETCH(QByteArray, csv);
        QCOMPARE(csvField(text), csv);
        QByteArray line("x,");
        appendCsvField(line, text);
        QCOMPARE(line, QByteArray("x,") + csv);
        const QList<QStringList> back = readRfc4180(line + '\n');
        QCOMPARE(back.size(), 1);
        QCOMPARE(back.front(), (QStringList{QStringLiteral("x"), text}));
    }

    // buckets.csv: 9 fields in every row, whatever the limiter names hold (a name with a comma,
    // unquoted, would give 10 fields under the 9-field header).
    void bucketsCsvQuotesNames_data() {
        QTest::addColumn<QString>("name");
        for (const QString& name : kAwkwardNames) {
            QTest::newRow(qPrintable(name)) << name;
        }
    }
    void bucketsCsvQuotesNames() {
        QFETCH(QString, name);
        RunSnapshot run;
        run.bucketMs = 250;
        run.bucketTargetRate = {10, 12.5};
        run.limiters = {limiterNamed(QStringLiteral("plain"), 4), limiterNamed(name, 7)};
        const QList<QStringList> records = readRfc4180(bucketsCsv(run));
        QCOMPARE(records.size(), 1 + 2 * 2);
        const QStringList header = records.front();
        QCOMPARE(header.size(), 9);
        QCOMPARE(header.at(2), QStringLiteral("limiter"));
        for (qsizetype r = 1; r < records.size(); ++r) {
            const QStringList& fields = records.at(r);
            QCOMPARE(fields.size(), header.size());
            const int bucket = int((r - 1) / 2);
            const bool second = (r - 1) % 2 == 1;
            QCOMPARE(fields.at(0), QString::number(bucket));
            QCOMPARE(fields.at(1), QString::number(bucket * 250));
            QCOMPARE(fields.at(2), second ? name : QStringLiteral("plain"));
            QCOMPARE(fields.at(3), QString::number((second ? 7 : 4) + bucket));
            QCOMPARE(fields.at(6), bucket == 0 ? QStringLiteral("10") : QStringLiteral("12.5"));
            QCOMPARE(fields.at(8), QString::number(bucket * 2));
        }
    }

    // The replay command's output: client names from a trace may hold quotes.
    void replayCsvQuotesClients_data() {
        QTest::addColumn<QString>("client");
        for (const QString& name : kAwkwardNames) {
            QTest::newRow(qPrintable(name)) << name;
        }
        QTest::newRow("empty") << QString();
    }
    void replayCsvQuotesClients() {
        QFETCH(QString, client);
        TraceRow row;
        row.tMs = 1500;
        row.client = client;
        row.permits = 3;
        Decision decision;
        decision.allowed = false;
        decision.retryAfterMs = 250;
        decision.remaining = 1;
        const QList<QStringList> records =
            readRfc4180(replayCsvHeader() + replayCsvLine(row, decision));
        QCOMPARE(records.size(), 2);
        QCOMPARE(records.at(0).size(), 7);
        QCOMPARE(records.at(1), (QStringList{QStringLiteral("1500"), client, QStringLiteral("3"),
                                             QStringLiteral("0"), QStringLiteral("250"),
                                             QStringLiteral("1"), QStringLiteral("0")}));
    }
};

QTEST_GUILESS_MAIN(TestCsv)
#include "tst_csv.moc"
