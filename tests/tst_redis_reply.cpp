// redis/redis_reply: replyIntegers, the one parser of the scripts' text replies ("retime <ms>",
// "at <ms> <packed>", "reset <tat>", the leaky bucket's five fields).

#include <QtTest>

#include "redis/redis_reply.h"

using ratelab::replyIntegers;

class TestRedisReply : public QObject {
    Q_OBJECT

private slots:
    void replyIntegers_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QList<qint64>>("expected");
        const int string = REDIS_REPLY_STRING;
        QTest::newRow("retime") << string << QByteArray("retime 1700000000123")
                                << QByteArray("retime ") << 1 << true
                                << QList<qint64>{1700000000123};
        QTest::newRow("retime as a status")
            << int(REDIS_REPLY_STATUS) << QByteArray("retime 9") << QByteArray("retime ") << 1
            << true << QList<qint64>{9};
        QTest::newRow("at, two") << string << QByteArray("at 1700000000000 -7") << QByteArray("at ")
                                 << 2 << true << QList<qint64>{1700000000000, -7};
        QTest::newRow("five, no prefix")
            << string << QByteArray("0 12000 35 1 1700000000000") << QByteArray() << 5 << true
            << QList<qint64>{0, 12000, 35, 1, 1700000000000};
        QTest::newRow("one too few")
            << string << QByteArray("at 1") << QByteArray("at ") << 2 << false << QList<qint64>{};
        QTest::newRow("one too many") << string << QByteArray("at 1 2 3") << QByteArray("at ") << 2
                                      << false << QList<qint64>{};
        QTest::newRow("trailing space") << string << QByteArray("at 1 2 ") << QByteArray("at ") << 2
                                        << false << QList<qint64>{};
        QTest::newRow("not a number")
            << string << QByteArray("at 1 x") << QByteArray("at ") << 2 << false << QList<qint64>{};
        QTest::newRow("a comma") << string << QByteArray("at 1,2") << QByteArray("at ") << 2
                                 << false << QList<qint64>{};
        QTest::newRow("another prefix") << string << QByteArray("reset 5") << QByteArray("retime ")
                                        << 1 << false << QList<qint64>{};
        QTest::newRow("the prefix alone") << string << QByteArray("retime ")
                                          << QByteArray("retime ") << 1 << false << QList<qint64>{};
        QTest::newRow("empty") << string << QByteArray() << QByteArray() << 1 << false
                               << QList<qint64>{};
        QTest::newRow("an error reply") << int(REDIS_REPLY_ERROR) << QByteArray("retime 5")
                                        << QByteArray("retime ") << 1 << false << QList<qint64>{};
    }

    void replyIntegers() {
        QFETCH(int, type);
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, prefix);
        QFETCH(int, count);
        QFETCH(QList<qint64>, expected);
        redisReply reply{};
        reply.type = type;
        reply.str = text.data();  // NUL-terminated, as hiredis leaves its strings
        reply.len = size_t(text.size());
        long long out[5] = {};
        const bool parsed = ::replyIntegers(&reply, prefix.constData(), out, size_t(count));
        QTEST(parsed, "valid");
        if (parsed) {
            QCOMPARE(QList<qint64>(out, out + count), expected);
        }
    }

    void noReply() { QVERIFY(!::replyIntegers(nullptr, "", nullptr, 1)); }
};

QTEST_GUILESS_MAIN(TestRedisReply)
#include "tst_redis_reply.moc"
