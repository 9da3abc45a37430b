// Trace CSV reading (docs/command-line.md, "replay"; traffic/trace.h).

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "input_error.h"
#include "support/scenario_documents.h"
#include "traffic/trace.h"

using namespace ratelab;
using ratelab::test::describe;

namespace {

QStringList expect(std::initializer_list<const char*> rows) {
    QStringList out;
    for (const char* row : rows) {
        out << QString::fromUtf8(row);
    }
    return out;
}

// Lines 1-6 valid, then `line` as line 7.
QByteArray afterSixRows(const QByteArray& line) {
    return "0,a,1\n10,b,2\n20,a,1\n30,c,1\n40,a,3\n50,b,1\n" + line + '\n';
}

void writeFile(const QString& path, const QByteArray& data) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(data), data.size());
}

}  // namespace

class TestTrace : public QObject {
    Q_OBJECT

private slots:
    void parseValid_data();
    void parseValid();
    void parseInvalid_data();
    void parseInvalid();
    void readFile();
    void readFileErrors();
    void clientNamesAreShared();
    void costedBeforeLoading_data();
    void costedBeforeLoading();
    void sixteenBytesARow();
};

void TestTrace::parseValid_data() {
    QTest::addColumn<QByteArray>("csv");
    QTest::addColumn<QStringList>("rows");

    QTest::newRow("header") << QByteArray("t_ms,client,permits\n0,alice,1\n5,bob,2\n")
                            << expect({"2:0|alice|1", "3:5|bob|2"});
    QTest::newRow("no header") << QByteArray("0,alice,1\n5,bob,2\n")
                               << expect({"1:0|alice|1", "2:5|bob|2"});
    QTest::newRow("no final newline")
        << QByteArray("0,alice,1\n5,bob,2") << expect({"1:0|alice|1", "2:5|bob|2"});
    QTest::newRow("blank lines") << QByteArray(
                                        "\n\nt_ms,client,permits\n\n0,a,1\n   \n\t\n7,b,3\n\n")
                                 << expect({"5:0|a|1", "8:7|b|3"});
    QTest::newRow("CRLF") << QByteArray("t_ms,client,permits\r\n0,a,1\r\n\r\n9,b,2\r\n")
                          << expect({"2:0|a|1", "4:9|b|2"});
    QTest::newRow("CRLF without final newline")
        << QByteArray("0,a,1\r\n9,b,2") << expect({"1:0|a|1", "2:9|b|2"});
    QTest::newRow("fields trimmed")
        << QByteArray("  t_ms , client ,permits \n 3 ,\t a b \t, 4 \n") << expect({"2:3|a b|4"});
    QTest::newRow("empty client") << QByteArray("0,,1\n1, ,2\n") << expect({"1:0||1", "2:1||2"});
    QTest::newRow("equal times") << QByteArray("5,a,1\n5,b,1\n5,a,1\n")
                                 << expect({"1:5|a|1", "2:5|b|1", "3:5|a|1"});
    QTest::newRow("leading zeros") << QByteArray("007,a,010\n") << expect({"1:7|a|10"});
    QTest::newRow("largest values") << QByteArray("9007199254740991,a,1000000000\n")
                                    << expect({"1:9007199254740991|a|1000000000"});
    QTest::newRow("unicode client")
        << QByteArray("1,caf\xC3\xA9 \xF0\x9F\x9A\x80,1\n")
        << QStringList{QString::fromUtf8("1:1|caf\xC3\xA9 \xF0\x9F\x9A\x80|1")};
    QTest::newRow("client of 200 characters")
        << "1," + QByteArray(200, 'c') + ",1\n"
        << QStringList{QStringLiteral("1:1|") + QString(200, u'c') + QStringLiteral("|1")};
    QTest::newRow("client of 200 characters outside the BMP")
        << "1," + QByteArray("\xF0\x9F\x9A\x80").repeated(200) + ",1\n"
        << QStringList{QStringLiteral("1:1|") +
                       QString::fromUtf8("\xF0\x9F\x9A\x80").repeated(200) + QStringLiteral("|1")};
    QTest::newRow("byte order mark before the header")
        << QByteArray("\xEF\xBB\xBFt_ms,client,permits\n1,a,1\n") << expect({"2:1|a|1"});
    // The limit counts the bytes before the line end; the padding is trimmed away.
    QTest::newRow("line of exactly 4096 bytes")
        << "1," + QByteArray(200, 'c') + QByteArray(4096 - 204, ' ') + ",1\r\n"
        << QStringList{QStringLiteral("1:1|") + QString(200, u'c') + QStringLiteral("|1")};
    QTest::newRow("client looking like a header word")
        << QByteArray("0,client,1\n") << expect({"1:0|client|1"});
}

void TestTrace::parseValid() {
    QFETCH(QByteArray, csv);
    QFETCH(QStringList, rows);
    try {
        QCOMPARE(describe(parseTrace(csv, QStringLiteral("trace.csv"))), rows);
    } catch (const InputError& error) {
        QFAIL(qPrintable(QStringLiteral("refused: ") + error.message()));
    }
}

void TestTrace::parseInvalid_data() {
    QTest::addColumn<QByteArray>("csv");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");

    // No rows.
    QTest::newRow("empty") << QByteArray() << "trace.csv"
                           << "the trace has no rows";
    QTest::newRow("only a header") << QByteArray("t_ms,client,permits\n") << "trace.csv"
                                   << "the trace has no rows";
    QTest::newRow("only blank lines") << QByteArray("\n\r\n  \n") << "trace.csv"
                                      << "the trace has no rows";

    // Shape of a line.
    QTest::newRow("two fields") << QByteArray("0,a,1\n5,a\n") << "trace.csv:2"
                                << "expected 3 fields t_ms,client,permits, got 2";
    QTest::newRow("one field") << QByteArray("12\n") << "trace.csv:1"
                               << "expected 3 fields t_ms,client,permits, got 1";
    QTest::newRow("comma in client") << QByteArray("0,a,b,1\n") << "trace.csv:1"
                                     << "got 4 (a client cannot contain a comma)";
    QTest::newRow("header in the middle")
        << QByteArray("0,a,1\nt_ms,client,permits\n") << "trace.csv:2"
        << R"(t_ms must be an integer from 0 to )"
           R"(9007199254740991, got "t_ms")";
    QTest::newRow("other header") << QByteArray("time,client,permits\n0,a,1\n") << "trace.csv:1"
                                  << R"(t_ms must be an integer from 0 to 9007199254740991, got )"
                                     R"("time")";
    QTest::newRow("line over 4096 bytes")
        << "1," + QByteArray(4096 - 3, 'x') + ",1\n"
        << "trace.csv:1"
        << "the line is 4097 bytes long; at most 4096 are allowed";
    QTest::newRow("NUL byte") << QByteArray("0,a,1\n1,a\0b,1\n", 15) << "trace.csv:2"
                              << "contains a NUL byte";
    QTest::newRow("invalid UTF-8") << QByteArray("0,a,1\n\n1,\xFF,1\n") << "trace.csv:3"
                                   << "is not valid UTF-8";
    QTest::newRow("UTF-8 cut at the end of a line")
        << QByteArray("1,\xE4\xB8\n\xAD,1\n") << "trace.csv:1"
        << "is not valid UTF-8";
    QTest::newRow("overlong UTF-8") << QByteArray("1,\xC0\xAF,1\n") << "trace.csv:1"
                                    << "is not valid UTF-8";

    // t_ms
    QTest::newRow("t_ms text") << afterSixRows("x,a,1") << "trace.csv:7"
                               << R"(t_ms must be an integer from 0 to 9007199254740991, got "x")";
    QTest::newRow("t_ms negative") << QByteArray("-1,a,1\n") << "trace.csv:1"
                                   << R"(t_ms must be an integer from 0 to 9007199254740991, )"
                                      R"(got "-1")";
    QTest::newRow("t_ms plus sign") << QByteArray("+5,a,1\n") << "trace.csv:1"
                                    << R"(got "+5")";
    QTest::newRow("t_ms fraction") << QByteArray("1.5,a,1\n") << "trace.csv:1"
                                   << R"(got "1.5")";
    QTest::newRow("t_ms exponent") << QByteArray("1e3,a,1\n") << "trace.csv:1"
                                   << R"(got "1e3")";
    QTest::newRow("t_ms hexadecimal") << QByteArray("0x10,a,1\n") << "trace.csv:1"
                                      << R"(got "0x10")";
    QTest::newRow("t_ms empty") << QByteArray(",a,1\n") << "trace.csv:1"
                                << R"(t_ms must be an integer from 0 to 9007199254740991, got "")";
    QTest::newRow("t_ms with an escape sequence")
        << QByteArray("\x1b[2J,a,1\n") << "trace.csv:1"
        << R"(t_ms must be an integer from 0 to 9007199254740991, got "\u001b[2J")";
    QTest::newRow("t_ms inner space") << QByteArray("1 0,a,1\n") << "trace.csv:1"
                                      << R"(got "1 0")";
    QTest::newRow("t_ms above 2^53-1") << QByteArray("9007199254740992,a,1\n") << "trace.csv:1"
                                       << R"(got "9007199254740992")";
    QTest::newRow("t_ms beyond 64 bits")
        << QByteArray("99999999999999999999999,a,1\n") << "trace.csv:1"
        << R"(got "99999999999999999999999")";
    QTest::newRow("t_ms decreasing") << QByteArray("250,a,1\n100,a,1\n") << "trace.csv:2"
                                     << "t_ms 100 is earlier than 250 on line 1";
    QTest::newRow("t_ms decreasing after blank lines")
        << QByteArray("0,a,1\n\n\n\n\n\n\n250,a,1\n100,b,1\n") << "trace.csv:9"
        << "t_ms 100 is earlier than 250 on line 8";

    // client
    QTest::newRow("client of 201 characters")
        << "1," + QByteArray(201, 'c') + ",1\n"
        << "trace.csv:1"
        << "client is 201 characters long; at most 200 are allowed";
    QTest::newRow("client with an escape sequence")
        << QByteArray("0,a\x1b[31mRED,1\n") << "trace.csv:1: client"
        << "must not contain control characters, got U+001B";
    QTest::newRow("client with a carriage return inside")
        << QByteArray("0,a\rb,1\n") << "trace.csv:1: client"
        << "must not contain control characters, got U+000D";
    QTest::newRow("client of 201 characters outside the BMP")
        << "1," + QByteArray("\xF0\x9F\x9A\x80").repeated(201) + ",1\n"
        << "trace.csv:1"
        << "client is 201 characters long";

    // permits
    QTest::newRow("permits text") << afterSixRows("60,a,x") << "trace.csv:7"
                                  << R"(permits must be an integer from 1 to 1000000000, got "x")";
    QTest::newRow("permits zero") << QByteArray("1,a,0\n") << "trace.csv:1"
                                  << R"(permits must be an integer from 1 to 1000000000, got "0")";
    QTest::newRow("permits negative") << QByteArray("1,a,-2\n") << "trace.csv:1"
                                      << R"(got "-2")";
    QTest::newRow("permits fraction") << QByteArray("1,a,2.0\n") << "trace.csv:1"
                                      << R"(got "2.0")";
    QTest::newRow("permits empty") << QByteArray("1,a,\n") << "trace.csv:1"
                                   << R"(permits must be an integer from 1 to 1000000000, got "")";
    QTest::newRow("permits above the limit") << QByteArray("1,a,1000000001\n") << "trace.csv:1"
                                             << R"(got "1000000001")";
    QTest::newRow("long bad value cut short")
        << "1,a," + QByteArray(100, 'z') + '\n'
        << "trace.csv:1"
        << QStringLiteral(R"(got ")") + QString(40, u'z') + QStringLiteral(R"(...")");
}

void TestTrace::parseInvalid() {
    QFETCH(QByteArray, csv);
    QFETCH(QString, where);
    QFETCH(QString, message);
    try {
        const Trace rows = parseTrace(csv, QStringLiteral("trace.csv"));
        QFAIL(qPrintable(QStringLiteral("accepted: ") + describe(rows).join(QLatin1Char(' '))));
    } catch (const InputError& error) {
        QCOMPARE(error.where(), where);
        if (!error.problem().contains(message)) {
            QFAIL(qPrintable(
                QStringLiteral("\"%1\" does not contain \"%2\"").arg(error.problem(), message)));
        }
    }
}

void TestTrace::readFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("trace.csv"));
    writeFile(path, "t_ms,client,permits\r\n0,alice,1\r\n10,bob,2\r\n");
    const Trace rows = readTraceFile(path);
    QCOMPARE(describe(rows), expect({"2:0|alice|1", "3:10|bob|2"}));
}

void TestTrace::readFileErrors() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("trace.csv"));

    struct Case {
        const char* name;
        QByteArray content;  // null: the file is not created
        QString where;
        QString message;
    };
    const Case cases[] = {
        {"missing file", QByteArray(), path, QStringLiteral("cannot read the file")},
        {"empty file", QByteArray(""), path, QStringLiteral("the trace has no rows")},
        {"bad row", QByteArray("0,a,1\n1,a,x\n"), path + QStringLiteral(":2"),
         QStringLiteral(R"(permits must be an integer from 1 to 1000000000, got "x")")},
    };
    for (const Case& c : cases) {
        QFile::remove(path);
        if (!c.content.isNull()) {
            writeFile(path, c.content);
        }
        try {
            readTraceFile(path);
            QFAIL(c.name);
        } catch (const InputError& error) {
            QVERIFY2(error.where() == c.where,
                     qPrintable(QLatin1String(c.name) + QStringLiteral(": ") + error.where()));
            QVERIFY2(error.problem().contains(c.message),
                     qPrintable(QLatin1String(c.name) + QStringLiteral(": ") + error.problem()));
        }
    }

    try {
        readTraceFile(dir.path());
        QFAIL("read a directory");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), dir.path());
        QVERIFY(error.problem().contains(QStringLiteral("cannot read the file")));
    }

    // Over 512 MiB: a sparse file, refused from its size before anything is read.
    QFile::remove(path);
    {
        QFile big(path);
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(512LL * 1024 * 1024 + 1));
    }
    try {
        readTraceFile(path);
        QFAIL("read a file over 512 MiB");
    } catch (const InputError& error) {
        QCOMPARE(error.where(), path);
        QVERIFY2(error.problem().contains(QStringLiteral("at most 512 MiB")),
                 qPrintable(error.problem()));
    }
    QFile::remove(path);
}

// Rows of one client share one string (a trace of millions of requests from a few clients
// holds a few names, not millions): the same client's rows point at the same characters.
void TestTrace::clientNamesAreShared() {
    QByteArray csv = "t_ms,client,permits\n";
    for (int i = 0; i < 1000; ++i) {
        csv += QByteArray::number(i) + (i % 2 ? ",alice,1\n" : ",bob,2\n");
    }
    const Trace rows = parseTrace(csv, QStringLiteral("trace.csv"));
    QCOMPARE(rows.size(), 1000);
    for (int i = 2; i < rows.size(); ++i) {
        QCOMPARE(rows[i].client, rows[i - 2].client);
        QCOMPARE(rows[i].client.constData(), rows[i - 2].client.constData());
    }
    QVERIFY(rows[0].client.constData() != rows[1].client.constData());
}

// A trace is costed before a row is loaded: the file's lines times 16 bytes (and what its user
// keeps per row beside) against the budget; a file that could not fit is refused with the
// estimate and the option that raises the limit. Failed before: a 500 MiB trace of tiny rows
// was read whole, past 3 GB resident, before any refusal.
void TestTrace::costedBeforeLoading_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<qint64>("maxBytes");
    QTest::addColumn<qint64>("beside");    // bytes per row the user keeps beside the trace
    QTest::addColumn<QString>("message");  // empty: it loads
    QTest::newRow("fits") << 50000 << qint64(1) << qint64(0) << QString();
    QTest::newRow("16 bytes a row over the limit")
        << 70000 << qint64(1) << qint64(0)
        << QStringLiteral(
               "the file has 70001 lines: as rows they would need about 1.1 MiB (16 "
               "bytes a row), more than the 1 MiB limit; use a shorter trace, or raise "
               "the limit (--max-memory)");
    QTest::newRow("what the run keeps beside counts")
        << 20000 << qint64(1) << qint64(48)
        << QStringLiteral("(64 bytes a row: 16 for the trace, 48 for the run's records)");
    QTest::newRow("a higher limit admits it") << 70000 << qint64(2) << qint64(0) << QString();
}

void TestTrace::costedBeforeLoading() {
    QFETCH(int, rows);
    QFETCH(qint64, maxBytes);
    QFETCH(qint64, beside);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("trace.csv"));
    QByteArray csv = "t_ms,client,permits\n";
    for (int i = 0; i < rows; ++i) {
        csv += QByteArray::number(i / 10) + ",c" + QByteArray::number(i % 7) + ",1\n";
    }
    writeFile(path, csv);
    TraceBudget budget;
    budget.maxBytes = maxBytes * 1024 * 1024;
    budget.bytesPerRowBeside = beside;
    budget.besideWhat = QStringLiteral("the run's records");
    budget.limitName = QStringLiteral("--max-memory");
    for (const bool fromBytes : {false, true}) {
        try {
            const Trace trace =
                fromBytes ? parseTrace(csv, path, budget) : readTraceFile(path, budget);
            QVERIFY2(message.isEmpty(), "loaded a trace over its budget");
            QCOMPARE(trace.size(), rows);
            QVERIFY(trace.allocatedBytes() + trace.size() * beside <= budget.maxBytes);
        } catch (const InputError& error) {
            QVERIFY2(!message.isEmpty(), qPrintable(error.problem()));
            QCOMPARE(error.where(), path);
            QVERIFY2(error.problem().contains(message), qPrintable(error.problem()));
        }
    }
}

// A trace holds 16 bytes a row and each client's name once: 100,000 rows of 100 clients take
// under 1.7 MB (QVector<TraceRow> took 48 bytes a row and a name per row).
void TestTrace::sixteenBytesARow() {
    QByteArray csv;
    for (int i = 0; i < 100000; ++i) {
        csv += QByteArray::number(i) + ",client-" + QByteArray::number(i % 100) + ",2\n";
    }
    const Trace trace = parseTrace(csv, QStringLiteral("trace.csv"));
    QCOMPARE(trace.size(), 100000);
    QCOMPARE(trace.clients().size(), 100);
    QVERIFY2(trace.allocatedBytes() <= 100000 * 16 + 100000,
             qPrintable(QString::number(trace.allocatedBytes())));
    QCOMPARE(trace[99999].tMs, qint64(99999));
    QCOMPARE(trace[99999].client, QStringLiteral("client-99"));
    QCOMPARE(trace[99999].permits, qint64(2));
    QCOMPARE(trace.lineAt(99999), 100000);
}

QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
