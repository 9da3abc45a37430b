#pragma once

#include <QTimeZone>

#include "limiters/limiter_spec.h"

namespace ratelab {

// A natural calendar window [startMs, endMs) in epoch milliseconds.
struct CalendarWindow {
    qint64 startMs = 0;
    qint64 endMs = 0;
    bool operator==(const CalendarWindow& o) const {
        return startMs == o.startMs && endMs == o.endMs;
    }
};

// Natural calendar windows of `interval` x `unit` in a time zone (docs/architecture.md):
// a window of N units starts at a unit boundary whose 0-based index inside the enclosing larger
// unit (ms in second, s in minute, min in hour, h in day, day in month, month in year) is a
// multiple of N, and ends N units later or at the end of the enclosing unit, whichever is first.
//  - milliseconds/seconds/minutes: boundaries of the local clock (so minutes and hours follow
//    the zone's offset, e.g. Asia/Kolkata's +05:30);
//  - hours: elapsed hours since local midnight (a 23- or 25-hour DST day has 23 or 25 of them,
//    the day ends at the next local midnight);
//  - days: local midnights of the days of the month; months: local midnight of the 1st.
// A local midnight that does not exist (a DST jump at 00:00) is the first instant of that day.
class CalendarWindows {
public:
    CalendarWindows(qint64 interval, CalendarUnit unit, QTimeZone zone);

    // The window holding nowMs.
    CalendarWindow windowAt(qint64 nowMs) const;

    // How many units fit in the enclosing unit at most (1000, 60, 60, 24, 31, 12): an interval
    // above it is refused by spec validation.
    static qint64 maxInterval(CalendarUnit unit);

    qint64 interval() const { return interval_; }
    CalendarUnit unit() const { return unit_; }
    const QTimeZone& zone() const { return zone_; }

private:
    qint64 interval_;
    CalendarUnit unit_;
    QTimeZone zone_;
};

// "second", "2 seconds", "15 minutes": a calendar window's length in words.
QString calendarSpanText(qint64 interval, CalendarUnit unit);

// Nominal length of one calendar unit in ms (a day as 24 h, a month as 30 days).
qint64 nominalUnitMs(CalendarUnit unit);

// The zone of a spec: QTimeZone(id), or the system zone when id is empty.
QTimeZone zoneForId(const QByteArray& ianaId);

}  // namespace ratelab
