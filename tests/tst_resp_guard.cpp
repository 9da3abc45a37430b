// RespGuard's refusals say what a reply announced in figures that add up: the bytes or
// elements it names are more than the limit it names. Failed before: a bulk string one byte
// under the limit was refused as "67108863 bytes; a reply may hold at most 67108864" (its
// header and \r\n count too), and an array after elements of its reply as "6 elements; at most
// 10".
#include <QtTest>

#include "redis/resp_guard.h"

using namespace ratelab;

class TestRespGuard : public QObject {
    Q_OBJECT

private slots:
    void refusalsAddUp_data() {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<qulonglong>("maxBytes");
        QTest::addColumn<qulonglong>("maxElements");
        QTest::addColumn<QString>("error");
        constexpr qulonglong kMiB64 = 64ULL * 1024 * 1024;
        QTest::newRow("bulk one byte under the limit")
            << QByteArray("$67108863\r\n") << kMiB64 << 1'000'000ULL
            << "a bulk string of 67108863 bytes (a reply of 67108876 bytes with its headers and "
               "what came before it); a reply may hold at most 67108864 bytes";
        QTest::newRow("bulk after the elements before it")
            << QByteArray("*2\r\n$10\r\n0123456789\r\n$40\r\n") << 64ULL << 10ULL
            << "a bulk string of 40 bytes (a reply of 68 bytes with its headers and what came "
               "before it); a reply may hold at most 64 bytes";
        QTest::newRow("bulk of 20 digits")
            << QByteArray("$99999999999999999999\r\n") << kMiB64 << 1'000'000ULL
            << "a bulk string of 99999999999999999999 bytes; a reply may hold at most 67108864 "
               "bytes";
        QTest::newRow("array alone")
            << QByteArray("*2147483647\r\n") << kMiB64 << 1'000'000ULL
            << "an array of 2147483647 elements; a reply may hold at most 1000000 elements";
        QTest::newRow("nested array after elements before it")
            << QByteArray("*2\r\n*3\r\n:1\r\n:2\r\n:3\r\n*6\r\n") << 1000ULL << 10ULL
            << "an array of 6 elements after 5 in the reply before it (11 in all); a reply may "
               "hold at most 10 elements";
        QTest::newRow("a status line within an array")
            << QByteArray("*2\r\n+") + QByteArray(100, 'a') << 64ULL << 10ULL
            << "a reply of more than 64 bytes, still in a line; a reply may hold at most 64 bytes";
    }
    void refusalsAddUp() {
        QFETCH(QByteArray, stream);
        QFETCH(qulonglong, maxBytes);
        QFETCH(qulonglong, maxElements);
        QFETCH(QString, error);
        RespGuard guard(ReplyLimits{maxBytes, maxElements});
        QVERIFY(!guard.feed(stream.constData(), std::size_t(stream.size())));
        QCOMPARE(QString::fromStdString(guard.error()), error);
    }

    // At the limit exactly, a reply is read.
    void atTheLimit() {
        const QByteArray bulk = "$59\r\n" + QByteArray(59, 'x') + "\r\n";  // 66 bytes in all
        RespGuard guard(ReplyLimits{66, 10});
        QVERIFY2(guard.feed(bulk.constData(), std::size_t(bulk.size())), guard.error().c_str());
        RespGuard tighter(ReplyLimits{65, 10});
        QVERIFY(!tighter.feed(bulk.constData(), std::size_t(bulk.size())));
    }
};

QTEST_GUILESS_MAIN(TestRespGuard)
#include "tst_resp_guard.moc"
