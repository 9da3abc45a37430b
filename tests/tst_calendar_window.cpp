#include <QDateTime>
#include <QRandomGenerator>
#include <QTimeZone>
#include <QtTest>

#include "limiters/calendar_window.h"

using ratelab::CalendarUnit;
using ratelab::CalendarWindow;
using ratelab::CalendarWindows;

namespace {

constexpr qint64 kSecondMs = 1000;
constexpr qint64 kMinuteMs = 60 * kSecondMs;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kDayMs = 24 * kHourMs;

const CalendarUnit kUnits[] = {CalendarUnit::Milliseconds, CalendarUnit::Seconds,
                               CalendarUnit::Minutes,      CalendarUnit::Hours,
                               CalendarUnit::Days,         CalendarUnit::Months};

QString unitName(CalendarUnit unit) {
    switch (unit) {
        case CalendarUnit::Milliseconds:
            return QStringLiteral("milliseconds");
        case CalendarUnit::Seconds:
            return QStringLiteral("seconds");
        case CalendarUnit::Minutes:
            return QStringLiteral("minutes");
        case CalendarUnit::Hours:
            return QStringLiteral("hours");
        case CalendarUnit::Days:
            return QStringLiteral("days");
        case CalendarUnit::Months:
            return QStringLiteral("months");
    }
    return QString();
}

CalendarUnit unitFromName(const QString& name) {
    for (CalendarUnit unit : kUnits) {
        if (unitName(unit) == name)
            return unit;
    }
    qFatal("unknown unit %s", qPrintable(name));
}

// "2024-03-10T01:59:59.999-05:00" -> epoch ms (the text must carry its offset).
qint64 parseIso(const QString& text) {
    const QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!dt.isValid() || dt.timeSpec() == Qt::LocalTime)
        qFatal("bad ISO instant %s", qPrintable(text));
    return dt.toMSecsSinceEpoch();
}

// An instant as ISO text with the zone's offset: readable in failure messages, and two instants
// are equal exactly when their texts are.
QString isoIn(qint64 ms, const QTimeZone& zone) {
    return QDateTime::fromMSecsSinceEpoch(ms, zone).toString(Qt::ISODateWithMs);
}

QTimeZone zoneOf(const QByteArray& id) {
    const QTimeZone zone(id);
    if (!zone.isValid())
        qFatal("time zone %s is not available", id.constData());
    return zone;
}

// Data rows whose tag names them.
void addWindowRow(const char* zone, qint64 interval, const char* unit, const char* instant,
                  const char* start, const char* end) {
    QTest::addRow("%s %lld %s @%s", zone, static_cast<long long>(interval), unit, instant)
        << QByteArray(zone) << interval << QString::fromLatin1(unit) << QString::fromLatin1(instant)
        << QString::fromLatin1(start) << QString::fromLatin1(end);
}

void addTilingRow(const char* zone, qint64 interval, const char* unit, const char* from,
                  const char* to, int count, qint64 lastLengthMs) {
    QTest::addRow("%s %lld %s from %s", zone, static_cast<long long>(interval), unit, from)
        << QByteArray(zone) << interval << QString::fromLatin1(unit) << QString::fromLatin1(from)
        << QString::fromLatin1(to) << count << lastLengthMs;
}

}  // namespace

class TestCalendarWindow : public QObject {
    Q_OBJECT

private slots:
    void windowAt_data();
    void windowAt();
    void tiling_data();
    void tiling();
    void properties();
    void maxInterval();
    void intervalClamped();
    void zoneForId();
};

void TestCalendarWindow::windowAt_data() {
    QTest::addColumn<QByteArray>("zone");
    QTest::addColumn<qint64>("interval");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("instant");
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end");

    // Milliseconds in the enclosing second; the last window of 300 ms is 100 ms long.
    addWindowRow("UTC", 250, "milliseconds", "2024-05-17T12:00:00.000Z", "2024-05-17T12:00:00.000Z",
                 "2024-05-17T12:00:00.250Z");
    addWindowRow("UTC", 250, "milliseconds", "2024-05-17T12:00:00.249Z", "2024-05-17T12:00:00.000Z",
                 "2024-05-17T12:00:00.250Z");
    addWindowRow("UTC", 250, "milliseconds", "2024-05-17T12:00:00.250Z", "2024-05-17T12:00:00.250Z",
                 "2024-05-17T12:00:00.500Z");
    addWindowRow("UTC", 250, "milliseconds", "2024-05-17T12:00:00.999Z", "2024-05-17T12:00:00.750Z",
                 "2024-05-17T12:00:01.000Z");
    addWindowRow("UTC", 300, "milliseconds", "2024-05-17T12:00:00.950Z", "2024-05-17T12:00:00.900Z",
                 "2024-05-17T12:00:01.000Z");
    addWindowRow("UTC", 1, "milliseconds", "2024-05-17T12:00:00.123Z", "2024-05-17T12:00:00.123Z",
                 "2024-05-17T12:00:00.124Z");
    addWindowRow("UTC", 1000, "milliseconds", "2024-05-17T12:00:00.123Z", "2024-05-17T12:00:00Z",
                 "2024-05-17T12:00:01Z");
    addWindowRow("UTC", 250, "milliseconds", "1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.750Z",
                 "1970-01-01T00:00:00Z");
    addWindowRow("America/New_York", 250, "milliseconds", "2024-03-10T01:59:59.999-05:00",
                 "2024-03-10T01:59:59.750-05:00", "2024-03-10T03:00:00-04:00");

    // Seconds in the enclosing local minute.
    addWindowRow("UTC", 10, "seconds", "2024-05-17T12:34:56.789Z", "2024-05-17T12:34:50Z",
                 "2024-05-17T12:35:00Z");
    addWindowRow("UTC", 10, "seconds", "2024-05-17T12:34:00Z", "2024-05-17T12:34:00Z",
                 "2024-05-17T12:34:10Z");
    addWindowRow("UTC", 10, "seconds", "2024-05-17T12:34:09.999Z", "2024-05-17T12:34:00Z",
                 "2024-05-17T12:34:10Z");
    addWindowRow("UTC", 7, "seconds", "2024-05-17T12:34:59.500Z", "2024-05-17T12:34:56Z",
                 "2024-05-17T12:35:00Z");
    addWindowRow("UTC", 60, "seconds", "2024-05-17T12:34:56.789Z", "2024-05-17T12:34:00Z",
                 "2024-05-17T12:35:00Z");
    addWindowRow("Asia/Kolkata", 10, "seconds", "2024-05-17T10:10:05+05:30",
                 "2024-05-17T10:10:00+05:30", "2024-05-17T10:10:10+05:30");
    addWindowRow("America/New_York", 10, "seconds", "2024-03-10T01:59:55-05:00",
                 "2024-03-10T01:59:50-05:00", "2024-03-10T03:00:00-04:00");

    // Minutes in the enclosing local hour: 15-minute windows at :00 :15 :30 :45.
    addWindowRow("UTC", 15, "minutes", "2024-05-17T10:00:00Z", "2024-05-17T10:00:00Z",
                 "2024-05-17T10:15:00Z");
    addWindowRow("UTC", 15, "minutes", "2024-05-17T10:14:59.999Z", "2024-05-17T10:00:00Z",
                 "2024-05-17T10:15:00Z");
    addWindowRow("UTC", 15, "minutes", "2024-05-17T10:15:00Z", "2024-05-17T10:15:00Z",
                 "2024-05-17T10:30:00Z");
    addWindowRow("UTC", 15, "minutes", "2024-05-17T10:37:12Z", "2024-05-17T10:30:00Z",
                 "2024-05-17T10:45:00Z");
    addWindowRow("UTC", 15, "minutes", "2024-05-17T10:59:59.999Z", "2024-05-17T10:45:00Z",
                 "2024-05-17T11:00:00Z");
    // 7-minute windows at :00 :07 ... :56, the last one 4 minutes long.
    addWindowRow("UTC", 7, "minutes", "2024-05-17T10:00:00Z", "2024-05-17T10:00:00Z",
                 "2024-05-17T10:07:00Z");
    addWindowRow("UTC", 7, "minutes", "2024-05-17T10:06:59.999Z", "2024-05-17T10:00:00Z",
                 "2024-05-17T10:07:00Z");
    addWindowRow("UTC", 7, "minutes", "2024-05-17T10:07:00Z", "2024-05-17T10:07:00Z",
                 "2024-05-17T10:14:00Z");
    addWindowRow("UTC", 7, "minutes", "2024-05-17T10:55:59Z", "2024-05-17T10:49:00Z",
                 "2024-05-17T10:56:00Z");
    addWindowRow("UTC", 7, "minutes", "2024-05-17T10:56:00Z", "2024-05-17T10:56:00Z",
                 "2024-05-17T11:00:00Z");
    addWindowRow("UTC", 7, "minutes", "2024-05-17T10:59:59.999Z", "2024-05-17T10:56:00Z",
                 "2024-05-17T11:00:00Z");
    addWindowRow("UTC", 60, "minutes", "2024-05-17T10:37:12Z", "2024-05-17T10:00:00Z",
                 "2024-05-17T11:00:00Z");
    // Kolkata's hours start at :30 UTC.
    addWindowRow("Asia/Kolkata", 15, "minutes", "2024-05-17T04:40:00Z", "2024-05-17T04:30:00Z",
                 "2024-05-17T04:45:00Z");
    addWindowRow("Asia/Kolkata", 60, "minutes", "2024-05-17T04:29:59.999Z", "2024-05-17T03:30:00Z",
                 "2024-05-17T04:30:00Z");
    addWindowRow("Asia/Kolkata", 7, "minutes", "2024-05-17T10:58:00+05:30",
                 "2024-05-17T10:56:00+05:30", "2024-05-17T11:00:00+05:30");
    // New York falls back from 02:00 EDT to 01:00 EST: a one-hour shift moves no boundary.
    addWindowRow("America/New_York", 15, "minutes", "2024-11-03T01:59:59.999-04:00",
                 "2024-11-03T01:45:00-04:00", "2024-11-03T01:00:00-05:00");
    addWindowRow("America/New_York", 15, "minutes", "2024-11-03T01:50:00-05:00",
                 "2024-11-03T01:45:00-05:00", "2024-11-03T02:00:00-05:00");
    // Lord Howe shifts by 30 minutes (02:00 +10:30 -> 02:30 +11:00 and 02:00 +11:00 -> 01:30
    // +10:30): 7-minute windows are cut at the transition.
    addWindowRow("Australia/Lord_Howe", 7, "minutes", "2024-10-06T01:59:00+10:30",
                 "2024-10-06T01:56:00+10:30", "2024-10-06T02:30:00+11:00");
    addWindowRow("Australia/Lord_Howe", 7, "minutes", "2024-10-06T02:31:00+11:00",
                 "2024-10-06T02:30:00+11:00", "2024-10-06T02:35:00+11:00");
    addWindowRow("Australia/Lord_Howe", 7, "minutes", "2024-10-06T02:40:00+11:00",
                 "2024-10-06T02:35:00+11:00", "2024-10-06T02:42:00+11:00");
    addWindowRow("Australia/Lord_Howe", 7, "minutes", "2024-04-07T01:59:00+11:00",
                 "2024-04-07T01:56:00+11:00", "2024-04-07T02:00:00+11:00");
    addWindowRow("Australia/Lord_Howe", 7, "minutes", "2024-04-07T01:31:00+10:30",
                 "2024-04-07T01:30:00+10:30", "2024-04-07T01:35:00+10:30");
    addWindowRow("Australia/Lord_Howe", 15, "minutes", "2024-04-07T01:31:00+10:30",
                 "2024-04-07T01:30:00+10:30", "2024-04-07T01:45:00+10:30");

    // Hours: elapsed hours since local midnight, truncated at the day's end.
    addWindowRow("UTC", 5, "hours", "2024-05-17T23:10:00Z", "2024-05-17T20:00:00Z",
                 "2024-05-18T00:00:00Z");
    addWindowRow("UTC", 24, "hours", "2024-05-17T23:10:00Z", "2024-05-17T00:00:00Z",
                 "2024-05-18T00:00:00Z");
    addWindowRow("Asia/Kolkata", 4, "hours", "2024-05-17T10:10:00+05:30",
                 "2024-05-17T08:00:00+05:30", "2024-05-17T12:00:00+05:30");
    addWindowRow("Asia/Kolkata", 1, "hours", "2024-05-17T04:29:59.999Z", "2024-05-17T03:30:00Z",
                 "2024-05-17T04:30:00Z");
    addWindowRow("Asia/Kolkata", 5, "hours", "2024-05-17T23:59:00+05:30",
                 "2024-05-17T20:00:00+05:30", "2024-05-18T00:00:00+05:30");
    // New York's 23-hour day: hour slot 1 runs from 01:00 EST to 03:00 EDT.
    addWindowRow("America/New_York", 1, "hours", "2024-03-10T01:59:59.999-05:00",
                 "2024-03-10T01:00:00-05:00", "2024-03-10T03:00:00-04:00");
    addWindowRow("America/New_York", 1, "hours", "2024-03-10T03:00:00-04:00",
                 "2024-03-10T03:00:00-04:00", "2024-03-10T04:00:00-04:00");
    addWindowRow("America/New_York", 3, "hours", "2024-03-10T03:30:00-04:00",
                 "2024-03-10T00:00:00-05:00", "2024-03-10T04:00:00-04:00");
    addWindowRow("America/New_York", 5, "hours", "2024-03-10T23:30:00-04:00",
                 "2024-03-10T21:00:00-04:00", "2024-03-11T00:00:00-04:00");
    // New York's 25-hour day: 01:00-02:00 happens twice, the second time as slot 2.
    addWindowRow("America/New_York", 1, "hours", "2024-11-03T01:30:00-04:00",
                 "2024-11-03T01:00:00-04:00", "2024-11-03T01:00:00-05:00");
    addWindowRow("America/New_York", 1, "hours", "2024-11-03T01:30:00-05:00",
                 "2024-11-03T01:00:00-05:00", "2024-11-03T02:00:00-05:00");
    addWindowRow("America/New_York", 2, "hours", "2024-11-03T01:30:00-05:00",
                 "2024-11-03T01:00:00-05:00", "2024-11-03T03:00:00-05:00");
    addWindowRow("America/New_York", 24, "hours", "2024-11-03T22:59:59.999-05:00",
                 "2024-11-03T00:00:00-04:00", "2024-11-03T23:00:00-05:00");
    addWindowRow("America/New_York", 24, "hours", "2024-11-03T23:30:00-05:00",
                 "2024-11-03T23:00:00-05:00", "2024-11-04T00:00:00-05:00");
    // Sao Paulo jumped from 00:00 to 01:00 on 2018-11-04: the day starts at 01:00.
    addWindowRow("America/Sao_Paulo", 1, "hours", "2018-11-04T01:30:00-02:00",
                 "2018-11-04T01:00:00-02:00", "2018-11-04T02:00:00-02:00");
    // Havana falls back from 01:00 CDT to 00:00 CST: midnight's first occurrence starts the day.
    addWindowRow("America/Havana", 1, "hours", "2024-11-03T00:30:00-04:00",
                 "2024-11-03T00:00:00-04:00", "2024-11-03T00:00:00-05:00");
    addWindowRow("America/Havana", 1, "hours", "2024-11-03T00:30:00-05:00",
                 "2024-11-03T00:00:00-05:00", "2024-11-03T01:00:00-05:00");

    // Days of the month.
    addWindowRow("UTC", 1, "days", "2024-05-17T13:00:00Z", "2024-05-17T00:00:00Z",
                 "2024-05-18T00:00:00Z");
    addWindowRow("UTC", 10, "days", "2024-01-25T12:00:00Z", "2024-01-21T00:00:00Z",
                 "2024-01-31T00:00:00Z");
    addWindowRow("UTC", 10, "days", "2024-01-30T23:59:59.999Z", "2024-01-21T00:00:00Z",
                 "2024-01-31T00:00:00Z");
    addWindowRow("UTC", 10, "days", "2024-01-31T00:00:00Z", "2024-01-31T00:00:00Z",
                 "2024-02-01T00:00:00Z");
    addWindowRow("UTC", 10, "days", "2024-04-30T12:00:00Z", "2024-04-21T00:00:00Z",
                 "2024-05-01T00:00:00Z");
    addWindowRow("UTC", 7, "days", "2024-01-29T12:00:00Z", "2024-01-29T00:00:00Z",
                 "2024-02-01T00:00:00Z");
    addWindowRow("UTC", 7, "days", "2024-04-28T12:00:00Z", "2024-04-22T00:00:00Z",
                 "2024-04-29T00:00:00Z");
    addWindowRow("UTC", 7, "days", "2024-04-29T12:00:00Z", "2024-04-29T00:00:00Z",
                 "2024-05-01T00:00:00Z");
    addWindowRow("UTC", 31, "days", "2024-02-10T00:00:00Z", "2024-02-01T00:00:00Z",
                 "2024-03-01T00:00:00Z");
    addWindowRow("UTC", 31, "days", "2024-01-31T23:59:59.999Z", "2024-01-01T00:00:00Z",
                 "2024-02-01T00:00:00Z");
    // The leap day.
    addWindowRow("UTC", 1, "days", "2024-02-29T12:00:00Z", "2024-02-29T00:00:00Z",
                 "2024-03-01T00:00:00Z");
    addWindowRow("UTC", 7, "days", "2024-02-29T12:00:00Z", "2024-02-29T00:00:00Z",
                 "2024-03-01T00:00:00Z");
    addWindowRow("UTC", 7, "days", "2024-02-28T12:00:00Z", "2024-02-22T00:00:00Z",
                 "2024-02-29T00:00:00Z");
    addWindowRow("UTC", 10, "days", "2024-02-29T12:00:00Z", "2024-02-21T00:00:00Z",
                 "2024-03-01T00:00:00Z");
    addWindowRow("UTC", 7, "days", "2023-02-28T12:00:00Z", "2023-02-22T00:00:00Z",
                 "2023-03-01T00:00:00Z");
    // 23- and 25-hour days.
    addWindowRow("America/New_York", 1, "days", "2024-03-10T12:00:00-04:00",
                 "2024-03-10T00:00:00-05:00", "2024-03-11T00:00:00-04:00");
    addWindowRow("America/New_York", 1, "days", "2024-11-03T12:00:00-05:00",
                 "2024-11-03T00:00:00-04:00", "2024-11-04T00:00:00-05:00");
    addWindowRow("America/New_York", 7, "days", "2024-03-10T12:00:00-04:00",
                 "2024-03-08T00:00:00-05:00", "2024-03-15T00:00:00-04:00");
    addWindowRow("Asia/Kolkata", 1, "days", "2024-05-16T18:29:59.999Z", "2024-05-16T00:00:00+05:30",
                 "2024-05-17T00:00:00+05:30");
    addWindowRow("Asia/Kolkata", 1, "days", "2024-05-16T18:30:00Z", "2024-05-17T00:00:00+05:30",
                 "2024-05-18T00:00:00+05:30");
    addWindowRow("Asia/Kolkata", 10, "days", "2024-05-17T12:00:00+05:30",
                 "2024-05-11T00:00:00+05:30", "2024-05-21T00:00:00+05:30");
    // Midnight DST jumps: Sao Paulo and Havana (00:00 -> 01:00), Kathmandu (00:00 -> 00:15).
    addWindowRow("America/Sao_Paulo", 1, "days", "2018-11-04T12:00:00-02:00",
                 "2018-11-04T01:00:00-02:00", "2018-11-05T00:00:00-02:00");
    addWindowRow("America/Sao_Paulo", 1, "days", "2018-11-03T23:59:59.999-03:00",
                 "2018-11-03T00:00:00-03:00", "2018-11-04T01:00:00-02:00");
    addWindowRow("America/Sao_Paulo", 3, "days", "2018-11-05T10:00:00-02:00",
                 "2018-11-04T01:00:00-02:00", "2018-11-07T00:00:00-02:00");
    addWindowRow("America/Havana", 1, "days", "2024-03-10T12:00:00-04:00",
                 "2024-03-10T01:00:00-04:00", "2024-03-11T00:00:00-04:00");
    addWindowRow("Asia/Kathmandu", 1, "days", "1986-01-01T12:00:00+05:45",
                 "1986-01-01T00:15:00+05:45", "1986-01-02T00:00:00+05:45");
    addWindowRow("Asia/Kathmandu", 1, "days", "1985-12-31T12:00:00+05:30",
                 "1985-12-31T00:00:00+05:30", "1986-01-01T00:15:00+05:45");
    // Sao Paulo fell back from 2019-02-17 00:00 -02 to 2019-02-16 23:00 -03: the 16th lasts 25
    // hours although the local date still reads the 16th after midnight has passed once.
    addWindowRow("America/Sao_Paulo", 1, "days", "2019-02-16T23:30:00-02:00",
                 "2019-02-16T00:00:00-02:00", "2019-02-17T00:00:00-03:00");
    addWindowRow("America/Sao_Paulo", 1, "days", "2019-02-16T23:30:00-03:00",
                 "2019-02-16T00:00:00-02:00", "2019-02-17T00:00:00-03:00");
    // Goose Bay fell back from 2010-11-07 00:01 ADT to 2010-11-06 23:01 AST: the 7th began at
    // its first midnight, although the clock then showed the 6th again for an hour.
    addWindowRow("America/Goose_Bay", 1, "days", "2010-11-06T23:59:59.999-03:00",
                 "2010-11-06T00:00:00-03:00", "2010-11-07T00:00:00-03:00");
    addWindowRow("America/Goose_Bay", 1, "days", "2010-11-06T23:30:00-04:00",
                 "2010-11-07T00:00:00-03:00", "2010-11-08T00:00:00-04:00");
    addWindowRow("America/Goose_Bay", 10, "days", "2010-11-06T23:30:00-04:00",
                 "2010-11-01T00:00:00-03:00", "2010-11-11T00:00:00-04:00");
    addWindowRow("America/Goose_Bay", 6, "days", "2010-11-06T23:30:00-04:00",
                 "2010-11-07T00:00:00-03:00", "2010-11-13T00:00:00-04:00");
    addWindowRow("America/Goose_Bay", 1, "hours", "2010-11-06T23:30:00-04:00",
                 "2010-11-07T00:00:00-03:00", "2010-11-07T00:00:00-04:00");
    // Samoa skipped 2011-12-30 when it moved across the date line.
    addWindowRow("Pacific/Apia", 1, "days", "2011-12-29T12:00:00-10:00",
                 "2011-12-29T00:00:00-10:00", "2011-12-31T00:00:00+14:00");
    addWindowRow("Pacific/Apia", 1, "days", "2011-12-31T12:00:00+14:00",
                 "2011-12-31T00:00:00+14:00", "2012-01-01T00:00:00+14:00");

    // Months of the year: 5-month windows are Jan-May, Jun-Oct, Nov-Dec.
    addWindowRow("UTC", 5, "months", "2024-03-15T12:00:00Z", "2024-01-01T00:00:00Z",
                 "2024-06-01T00:00:00Z");
    addWindowRow("UTC", 5, "months", "2024-06-01T00:00:00Z", "2024-06-01T00:00:00Z",
                 "2024-11-01T00:00:00Z");
    addWindowRow("UTC", 5, "months", "2024-10-31T23:59:59.999Z", "2024-06-01T00:00:00Z",
                 "2024-11-01T00:00:00Z");
    addWindowRow("UTC", 5, "months", "2024-11-01T00:00:00Z", "2024-11-01T00:00:00Z",
                 "2025-01-01T00:00:00Z");
    addWindowRow("UTC", 5, "months", "2024-12-31T23:59:59.999Z", "2024-11-01T00:00:00Z",
                 "2025-01-01T00:00:00Z");
    addWindowRow("UTC", 12, "months", "2024-12-31T23:59:59.999Z", "2024-01-01T00:00:00Z",
                 "2025-01-01T00:00:00Z");
    addWindowRow("UTC", 7, "months", "2024-07-04T12:00:00Z", "2024-01-01T00:00:00Z",
                 "2024-08-01T00:00:00Z");
    addWindowRow("UTC", 7, "months", "2024-08-04T12:00:00Z", "2024-08-01T00:00:00Z",
                 "2025-01-01T00:00:00Z");
    addWindowRow("UTC", 1, "months", "2024-02-29T12:00:00Z", "2024-02-01T00:00:00Z",
                 "2024-03-01T00:00:00Z");
    addWindowRow("UTC", 2, "months", "2024-02-29T23:59:59.999Z", "2024-01-01T00:00:00Z",
                 "2024-03-01T00:00:00Z");
    addWindowRow("UTC", 1, "months", "2024-04-30T23:59:59.999Z", "2024-04-01T00:00:00Z",
                 "2024-05-01T00:00:00Z");
    addWindowRow("America/New_York", 1, "months", "2024-03-20T12:00:00-04:00",
                 "2024-03-01T00:00:00-05:00", "2024-04-01T00:00:00-04:00");
    addWindowRow("America/New_York", 12, "months", "2024-07-04T12:00:00-04:00",
                 "2024-01-01T00:00:00-05:00", "2025-01-01T00:00:00-05:00");
    addWindowRow("Asia/Kolkata", 1, "months", "2024-05-31T18:29:59.999Z",
                 "2024-05-01T00:00:00+05:30", "2024-06-01T00:00:00+05:30");
    addWindowRow("America/Sao_Paulo", 1, "months", "2018-11-15T12:00:00-02:00",
                 "2018-11-01T00:00:00-03:00", "2018-12-01T00:00:00-02:00");
    addWindowRow("Asia/Kathmandu", 1, "months", "1986-01-15T12:00:00+05:45",
                 "1986-01-01T00:15:00+05:45", "1986-02-01T00:00:00+05:45");
    addWindowRow("Asia/Kathmandu", 12, "months", "1986-06-01T12:00:00+05:45",
                 "1986-01-01T00:15:00+05:45", "1987-01-01T00:00:00+05:45");
}

void TestCalendarWindow::windowAt() {
    QFETCH(QByteArray, zone);
    QFETCH(qint64, interval);
    QFETCH(QString, unit);
    QFETCH(QString, instant);
    QFETCH(QString, start);
    QFETCH(QString, end);

    const QTimeZone tz = zoneOf(zone);
    const CalendarWindows windows(interval, unitFromName(unit), tz);
    const CalendarWindow window = windows.windowAt(parseIso(instant));
    QCOMPARE(isoIn(window.startMs, tz), isoIn(parseIso(start), tz));
    QCOMPARE(isoIn(window.endMs, tz), isoIn(parseIso(end), tz));
}

void TestCalendarWindow::tiling_data() {
    QTest::addColumn<QByteArray>("zone");
    QTest::addColumn<qint64>("interval");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<int>("count");
    QTest::addColumn<qint64>("lastLengthMs");

    addTilingRow("UTC", 250, "milliseconds", "2024-05-17T10:00:00Z", "2024-05-17T10:00:01Z", 4,
                 250);
    addTilingRow("UTC", 300, "milliseconds", "2024-05-17T10:00:00Z", "2024-05-17T10:00:01Z", 4,
                 100);
    addTilingRow("UTC", 10, "seconds", "2024-05-17T10:00:00Z", "2024-05-17T10:01:00Z", 6,
                 10 * kSecondMs);
    addTilingRow("UTC", 15, "minutes", "2024-05-17T10:00:00Z", "2024-05-17T11:00:00Z", 4,
                 15 * kMinuteMs);
    addTilingRow("UTC", 7, "minutes", "2024-05-17T10:00:00Z", "2024-05-17T11:00:00Z", 9,
                 4 * kMinuteMs);
    addTilingRow("Asia/Kolkata", 7, "minutes", "2024-05-17T04:30:00Z", "2024-05-17T05:30:00Z", 9,
                 4 * kMinuteMs);
    // 9 windows before Lord Howe's 30-minute spring-forward, then 02:30 (cut) 02:35 ... 02:56.
    addTilingRow("Australia/Lord_Howe", 7, "minutes", "2024-10-06T01:00:00+10:30",
                 "2024-10-06T03:00:00+11:00", 14, 4 * kMinuteMs);
    addTilingRow("America/Goose_Bay", 1, "hours", "2010-11-07T00:00:00-03:00",
                 "2010-11-08T00:00:00-04:00", 25, kHourMs);
    addTilingRow("America/Goose_Bay", 1, "days", "2010-11-01T00:00:00-03:00",
                 "2010-12-01T00:00:00-04:00", 30, kDayMs);
    addTilingRow("Asia/Kolkata", 1, "hours", "2024-05-17T00:00:00+05:30",
                 "2024-05-18T00:00:00+05:30", 24, kHourMs);
    addTilingRow("America/New_York", 1, "hours", "2024-03-10T00:00:00-05:00",
                 "2024-03-11T00:00:00-04:00", 23, kHourMs);
    addTilingRow("America/New_York", 1, "hours", "2024-11-03T00:00:00-04:00",
                 "2024-11-04T00:00:00-05:00", 25, kHourMs);
    addTilingRow("America/New_York", 24, "hours", "2024-11-03T00:00:00-04:00",
                 "2024-11-04T00:00:00-05:00", 2, kHourMs);
    addTilingRow("America/New_York", 5, "hours", "2024-03-10T00:00:00-05:00",
                 "2024-03-11T00:00:00-04:00", 5, 3 * kHourMs);
    addTilingRow("America/Sao_Paulo", 1, "hours", "2018-11-04T01:00:00-02:00",
                 "2018-11-05T00:00:00-02:00", 23, kHourMs);
    addTilingRow("America/Sao_Paulo", 1, "hours", "2019-02-16T00:00:00-02:00",
                 "2019-02-17T00:00:00-03:00", 25, kHourMs);
    addTilingRow("America/Havana", 1, "hours", "2024-03-10T01:00:00-04:00",
                 "2024-03-11T00:00:00-04:00", 23, kHourMs);
    addTilingRow("America/Havana", 1, "hours", "2024-11-03T00:00:00-04:00",
                 "2024-11-04T00:00:00-05:00", 25, kHourMs);
    // Lord Howe's spring-forward day lasts 23.5 hours.
    addTilingRow("Australia/Lord_Howe", 1, "hours", "2024-10-06T00:00:00+10:30",
                 "2024-10-07T00:00:00+11:00", 24, 30 * kMinuteMs);
    addTilingRow("UTC", 10, "days", "2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z", 4, kDayMs);
    addTilingRow("UTC", 10, "days", "2024-04-01T00:00:00Z", "2024-05-01T00:00:00Z", 3, 10 * kDayMs);
    addTilingRow("UTC", 10, "days", "2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z", 3, 9 * kDayMs);
    addTilingRow("UTC", 7, "days", "2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z", 5, 3 * kDayMs);
    addTilingRow("America/New_York", 1, "days", "2024-03-01T00:00:00-05:00",
                 "2024-04-01T00:00:00-04:00", 31, kDayMs);
    addTilingRow("Pacific/Apia", 1, "days", "2011-12-01T00:00:00-10:00",
                 "2012-01-01T00:00:00+14:00", 30, kDayMs);
    addTilingRow("UTC", 5, "months", "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z", 3,
                 61 * kDayMs);
    addTilingRow("America/New_York", 1, "months", "2024-01-01T00:00:00-05:00",
                 "2025-01-01T00:00:00-05:00", 12, 31 * kDayMs);
}

// Walks the windows from `from` to `to`: each starts where the previous one ended.
void TestCalendarWindow::tiling() {
    QFETCH(QByteArray, zone);
    QFETCH(qint64, interval);
    QFETCH(QString, unit);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(int, count);
    QFETCH(qint64, lastLengthMs);

    const QTimeZone tz = zoneOf(zone);
    const CalendarWindows windows(interval, unitFromName(unit), tz);
    const qint64 toMs = parseIso(to);
    qint64 at = parseIso(from);
    CalendarWindow window;
    int seen = 0;
    while (at < toMs && seen <= count) {
        window = windows.windowAt(at);
        QCOMPARE(isoIn(window.startMs, tz), isoIn(at, tz));
        QVERIFY(window.endMs > window.startMs);
        QCOMPARE(windows.windowAt(window.endMs - 1), window);
        at = window.endMs;
        ++seen;
    }
    QCOMPARE(seen, count);
    QCOMPARE(isoIn(window.endMs, tz), isoIn(toMs, tz));
    QCOMPARE(window.endMs - window.startMs, lastLengthMs);
}

namespace {

bool isTransition(const QTimeZone& zone, qint64 ms) {
    const QTimeZone::OffsetData tr =
        zone.previousTransition(QDateTime::fromMSecsSinceEpoch(ms + 1, Qt::UTC));
    return tr.atUtc.isValid() && tr.atUtc.toMSecsSinceEpoch() == ms;
}

// The first instant of a local date, independently of the implementation. QDate::startOfDay
// handles a midnight in a DST gap, but of a repeated midnight (Havana falls back from 01:00 to
// 00:00, Goose Bay from 00:01 to 23:01 the day before) it picks the second occurrence: near a
// transition, look minute by minute for an earlier instant showing the date.
qint64 dayStart(const QTimeZone& zone, QDate date) {
    const qint64 start = date.startOfDay(zone).toMSecsSinceEpoch();
    const qint64 from = start - 3 * kHourMs;
    const QTimeZone::OffsetData tr =
        zone.previousTransition(QDateTime::fromMSecsSinceEpoch(start + 1, Qt::UTC));
    if (!tr.atUtc.isValid() || tr.atUtc.toMSecsSinceEpoch() <= from)
        return start;
    for (qint64 ms = from; ms < start; ms += kMinuteMs) {
        if (QDateTime::fromMSecsSinceEpoch(ms, zone).date() == date)
            return ms;
    }
    return start;
}

// Whether an instant is a boundary of `unit` on the local clock, and the boundary's index in
// the enclosing unit.
bool boundaryIndex(const QTimeZone& zone, CalendarUnit unit, qint64 ms, int* index) {
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(ms, zone);
    const QTime time = local.time();
    const QDate date = local.date();
    switch (unit) {
        case CalendarUnit::Milliseconds:
            *index = time.msec();
            return true;
        case CalendarUnit::Seconds:
            *index = time.second();
            return time.msec() == 0;
        case CalendarUnit::Minutes:
            *index = time.minute();
            return time.msec() == 0 && time.second() == 0;
        case CalendarUnit::Hours: {
            const qint64 elapsed = ms - dayStart(zone, date);
            *index = int(elapsed / kHourMs);
            return elapsed % kHourMs == 0;
        }
        case CalendarUnit::Days:
            *index = date.day() - 1;
            return dayStart(zone, date) == ms;
        case CalendarUnit::Months:
            *index = date.month() - 1;
            return date.day() == 1 && dayStart(zone, date) == ms;
    }
    return false;
}

// Whether an instant ends the unit enclosing `unit` (second, minute, hour, day, month, year).
bool endsEnclosingUnit(const QTimeZone& zone, CalendarUnit unit, qint64 ms) {
    int index = 0;
    switch (unit) {
        case CalendarUnit::Milliseconds:
        case CalendarUnit::Seconds:
        case CalendarUnit::Minutes:
            return boundaryIndex(zone, unit, ms, &index) && index == 0;
        case CalendarUnit::Hours:
            return boundaryIndex(zone, CalendarUnit::Days, ms, &index);
        case CalendarUnit::Days:
            return boundaryIndex(zone, CalendarUnit::Months, ms, &index);
        case CalendarUnit::Months:
            return boundaryIndex(zone, CalendarUnit::Months, ms, &index) && index == 0;
    }
    return false;
}

// Whether `end` is `interval` units after `start` on the local clock.
bool unitsLater(const QTimeZone& zone, CalendarUnit unit, qint64 interval, qint64 start,
                qint64 end) {
    switch (unit) {
        case CalendarUnit::Milliseconds:
            return end - start == interval;
        case CalendarUnit::Seconds:
            return end - start == interval * kSecondMs;
        case CalendarUnit::Minutes:
            return end - start == interval * kMinuteMs;
        case CalendarUnit::Hours:
            return end - start == interval * kHourMs;
        case CalendarUnit::Days:
        case CalendarUnit::Months: {
            const QDate from = QDateTime::fromMSecsSinceEpoch(start, zone).date();
            const QDate to =
                unit == CalendarUnit::Days ? from.addDays(interval) : from.addMonths(int(interval));
            return dayStart(zone, to) == end;
        }
    }
    return false;
}

}  // namespace

// Pseudo-random instants (fixed seed) across zones, units and intervals, half of them close to a
// transition of the zone.
void TestCalendarWindow::properties() {
    const QByteArray zoneIds[] = {"UTC",
                                  "America/New_York",
                                  "Europe/Berlin",
                                  "Asia/Kolkata",
                                  "Asia/Kathmandu",
                                  "America/Sao_Paulo",
                                  "America/Havana",
                                  "America/Goose_Bay",
                                  "Australia/Lord_Howe",
                                  "Pacific/Chatham",
                                  "Pacific/Apia"};
    QVector<QTimeZone> zones;
    for (const QByteArray& id : zoneIds)
        zones.append(zoneOf(id));

    const qint64 lowMs = parseIso(QStringLiteral("1971-01-01T00:00:00Z"));
    const qint64 highMs = parseIso(QStringLiteral("2037-12-31T00:00:00Z"));
    QRandomGenerator rng(20240517);
    const auto uniform = [&rng](qint64 low, qint64 high) {  // [low, high)
        return low + qint64(rng.generate64() % quint64(high - low));
    };

    const int kSamples = 4000;
    for (int sample = 0; sample < kSamples; ++sample) {
        const QTimeZone& zone = zones[int(rng.bounded(int(zones.size())))];
        const CalendarUnit unit = kUnits[rng.bounded(6)];
        const qint64 interval = uniform(1, CalendarWindows::maxInterval(unit) + 1);
        qint64 now = uniform(lowMs, highMs);
        if (sample % 2 == 1) {
            const QTimeZone::OffsetData tr =
                zone.nextTransition(QDateTime::fromMSecsSinceEpoch(now, Qt::UTC));
            if (tr.atUtc.isValid())
                now = tr.atUtc.toMSecsSinceEpoch() + uniform(-2 * kDayMs, 2 * kDayMs);
        }

        const CalendarWindows windows(interval, unit, zone);
        const CalendarWindow w = windows.windowAt(now);
        const QString where = QStringLiteral("%1 %2 %3 at %4: [%5, %6)")
                                  .arg(QString::fromLatin1(zone.id()))
                                  .arg(interval)
                                  .arg(unitName(unit), isoIn(now, zone), isoIn(w.startMs, zone),
                                       isoIn(w.endMs, zone));
        QVERIFY2(w.startMs <= now && now < w.endMs, qPrintable(where));
        QVERIFY2(windows.windowAt(w.startMs) == w, qPrintable(where));
        QVERIFY2(windows.windowAt(w.endMs - 1) == w, qPrintable(where));
        QVERIFY2(windows.windowAt(w.endMs).startMs == w.endMs, qPrintable(where));
        QVERIFY2(windows.windowAt(w.startMs - 1).endMs == w.startMs, qPrintable(where));

        // The start is a unit boundary whose index is a multiple of N; the end is N units later
        // or ends the enclosing unit. Only a transition that moves second or minute boundaries
        // (Lord Howe's 30 minutes, Kathmandu's 1986 change) may cut a window elsewhere.
        int index = -1;
        const bool cut = unit == CalendarUnit::Seconds || unit == CalendarUnit::Minutes;
        QVERIFY2((boundaryIndex(zone, unit, w.startMs, &index) && index % interval == 0) ||
                     (cut && isTransition(zone, w.startMs)),
                 qPrintable(where));
        QVERIFY2(unitsLater(zone, unit, interval, w.startMs, w.endMs) ||
                     endsEnclosingUnit(zone, unit, w.endMs) || (cut && isTransition(zone, w.endMs)),
                 qPrintable(where));
    }
}

void TestCalendarWindow::maxInterval() {
    QCOMPARE(CalendarWindows::maxInterval(CalendarUnit::Milliseconds), 1000);
    QCOMPARE(CalendarWindows::maxInterval(CalendarUnit::Seconds), 60);
    QCOMPARE(CalendarWindows::maxInterval(CalendarUnit::Minutes), 60);
    QCOMPARE(CalendarWindows::maxInterval(CalendarUnit::Hours), 24);
    QCOMPARE(CalendarWindows::maxInterval(CalendarUnit::Days), 31);
    QCOMPARE(CalendarWindows::maxInterval(CalendarUnit::Months), 12);
}

// Validation refuses such intervals; should one get through, windows stay sane.
void TestCalendarWindow::intervalClamped() {
    const QTimeZone utc = zoneOf("UTC");
    const qint64 now = parseIso(QStringLiteral("2024-05-17T10:37:12Z"));
    const CalendarWindow hour{parseIso(QStringLiteral("2024-05-17T10:00:00Z")),
                              parseIso(QStringLiteral("2024-05-17T11:00:00Z"))};
    QCOMPARE(CalendarWindows(100, CalendarUnit::Minutes, utc).windowAt(now), hour);
    const CalendarWindow minute{parseIso(QStringLiteral("2024-05-17T10:37:00Z")),
                                parseIso(QStringLiteral("2024-05-17T10:38:00Z"))};
    QCOMPARE(CalendarWindows(0, CalendarUnit::Minutes, utc).windowAt(now), minute);
}

void TestCalendarWindow::zoneForId() {
    QCOMPARE(ratelab::zoneForId(QByteArray()), QTimeZone::systemTimeZone());
    const QTimeZone kolkata = ratelab::zoneForId("Asia/Kolkata");
    QVERIFY(kolkata.isValid());
    QCOMPARE(kolkata.id(), QByteArray("Asia/Kolkata"));
    QVERIFY(!ratelab::zoneForId("Not/AZone").isValid());
}

QTEST_GUILESS_MAIN(TestCalendarWindow)
#include "tst_calendar_window.moc"
