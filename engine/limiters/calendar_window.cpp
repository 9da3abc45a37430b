#include "limiters/calendar_window.h"

#include <QDate>
#include <QDateTime>

#include <algorithm>
#include <utility>

#include "limiters/floor_div.h"

namespace ratelab {

namespace {

constexpr qint64 kSecondMs = 1000;
constexpr qint64 kMinuteMs = 60 * kSecondMs;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kDayMs = 24 * kHourMs;
constexpr qint64 kUnixEpochJulianDay = 2440588;  // QDate(1970, 1, 1).toJulianDay()

// The remainder of floorDiv (instants before 1970 are negative).
qint64 floorMod(qint64 a, qint64 b) {
    return a - floorDiv(a, b) * b;
}

// Offset from UTC in milliseconds at an instant.
qint64 offsetMsAt(const QTimeZone& zone, qint64 ms) {
    return qint64(zone.offsetFromUtc(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC))) * kSecondMs;
}

// The first instant of a local date: the earliest instant whose local clock reads date 00:00 or
// later. When midnight falls into a DST gap this is the transition ending the gap; when it is
// repeated (clocks go back over it) this is its first occurrence.
qint64 dayStartMs(const QTimeZone& zone, QDate date) {
    // Local midnight of the date expressed as if it were UTC.
    const qint64 localMidnight = (date.toJulianDay() - kUnixEpochJulianDay) * kDayMs;
    if (!zone.hasTransitions())
        return localMidnight - offsetMsAt(zone, localMidnight);

    // Walk the pieces of constant offset from one day before (every offset is below a day, so
    // the local clock there is still before midnight): in the piece [from, to) with offset o,
    // the earliest instant whose local clock is at or past midnight is max(from, midnight - o).
    qint64 from = localMidnight - kDayMs;
    qint64 offset = offsetMsAt(zone, from);
    for (int piece = 0; piece < 64; ++piece) {
        const QTimeZone::OffsetData next =
            zone.nextTransition(QDateTime::fromMSecsSinceEpoch(from, Qt::UTC));
        const qint64 candidate = std::max(from, localMidnight - offset);
        if (!next.atUtc.isValid() || candidate < next.atUtc.toMSecsSinceEpoch())
            return candidate;
        from = next.atUtc.toMSecsSinceEpoch();
        offset = qint64(next.offsetFromUtc) * kSecondMs;
    }
    return localMidnight - offset;  // unreachable for real zones
}

// The date the local clock shows at an instant.
QDate localDateAt(const QTimeZone& zone, qint64 ms) {
    const qint64 local = ms + offsetMsAt(zone, ms);
    return QDate::fromJulianDay(floorDiv(local, kDayMs) + kUnixEpochJulianDay);
}

}  // namespace

CalendarWindows::CalendarWindows(qint64 interval, CalendarUnit unit, QTimeZone zone)
    // Validation refuses intervals outside [1, maxInterval]; clamping keeps windowAt safe
    // anyway and changes nothing, since a window never outlasts its enclosing unit.
    : interval_(std::clamp<qint64>(interval, 1, maxInterval(unit))),
      unit_(unit),
      zone_(std::move(zone)) {}

qint64 CalendarWindows::maxInterval(CalendarUnit unit) {
    switch (unit) {
        case CalendarUnit::Milliseconds:
            return 1000;
        case CalendarUnit::Seconds:
        case CalendarUnit::Minutes:
            return 60;
        case CalendarUnit::Hours:
            return 24;
        case CalendarUnit::Days:
            return 31;
        case CalendarUnit::Months:
            return 12;
    }
    return 1;
}

CalendarWindow CalendarWindows::windowAt(qint64 nowMs) const {
    const qint64 n = interval_;
    switch (unit_) {
        case CalendarUnit::Milliseconds: {
            // Offsets are whole seconds: local seconds start on UTC seconds.
            const qint64 second = floorDiv(nowMs, kSecondMs) * kSecondMs;
            const qint64 start = second + (nowMs - second) / n * n;
            return {start, std::min(start + n, second + kSecondMs)};
        }
        case CalendarUnit::Seconds:
        case CalendarUnit::Minutes: {
            const qint64 unitMs = unit_ == CalendarUnit::Seconds ? kSecondMs : kMinuteMs;
            const qint64 enclosingMs = 60 * unitMs;
            const qint64 offset = offsetMsAt(zone_, nowMs);
            const qint64 local = nowMs + offset;
            const qint64 enclosingStart = floorDiv(local, enclosingMs) * enclosingMs;
            const qint64 startLocal =
                enclosingStart + (local - enclosingStart) / unitMs / n * n * unitMs;
            const qint64 endLocal = std::min(startLocal + n * unitMs, enclosingStart + enclosingMs);
            CalendarWindow window{startLocal - offset, endLocal - offset};
            if (!zone_.hasTransitions())
                return window;

            // An offset change by a whole number of enclosing units (a one-hour DST shift) moves no
            // boundary. Another (Lord Howe's 30 minutes, a historical change) cuts the window at
            // the transition, so that windows computed on either side of it still tile.
            const auto aligned = [&](qint64 otherOffset) {
                return floorMod(otherOffset - offset, enclosingMs) == 0;
            };
            if (!aligned(offsetMsAt(zone_, window.startMs))) {
                QDateTime at = QDateTime::fromMSecsSinceEpoch(nowMs + 1, Qt::UTC);
                for (;;) {
                    const QTimeZone::OffsetData tr = zone_.previousTransition(at);
                    if (!tr.atUtc.isValid() || tr.atUtc.toMSecsSinceEpoch() <= window.startMs)
                        break;
                    at = tr.atUtc;
                    if (!aligned(offsetMsAt(zone_, at.toMSecsSinceEpoch() - 1))) {
                        window.startMs = at.toMSecsSinceEpoch();
                        break;
                    }
                }
            }
            if (!aligned(offsetMsAt(zone_, window.endMs - 1))) {
                QDateTime at = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
                for (;;) {
                    const QTimeZone::OffsetData tr = zone_.nextTransition(at);
                    if (!tr.atUtc.isValid() || tr.atUtc.toMSecsSinceEpoch() >= window.endMs)
                        break;
                    at = tr.atUtc;
                    if (!aligned(qint64(tr.offsetFromUtc) * kSecondMs)) {
                        window.endMs = at.toMSecsSinceEpoch();
                        break;
                    }
                }
            }
            return window;
        }
        case CalendarUnit::Hours: {
            // Elapsed hours since the first instant of the local day, up to the next day's start.
            QDate date = localDateAt(zone_, nowMs);
            qint64 dayStart = dayStartMs(zone_, date);
            qint64 dayEnd = dayStartMs(zone_, date.addDays(1));
            if (nowMs >= dayEnd) {
                // Clocks went back across midnight: the local date still reads the previous day
                // although the next one has begun.
                date = date.addDays(1);
                dayStart = dayEnd;
                dayEnd = dayStartMs(zone_, date.addDays(1));
            }
            const qint64 start = dayStart + (nowMs - dayStart) / kHourMs / n * n * kHourMs;
            return {start, std::min(start + n * kHourMs, dayEnd)};
        }
        case CalendarUnit::Days:
        case CalendarUnit::Months: {
            const int ni = int(n);
            const auto windowOf = [&](QDate date) {
                QDate first;
                QDate last;
                if (unit_ == CalendarUnit::Days) {
                    first = QDate(date.year(), date.month(), 1 + (date.day() - 1) / ni * ni);
                    last = std::min(first.addDays(ni),
                                    QDate(date.year(), date.month(), 1).addMonths(1));
                } else {
                    first = QDate(date.year(), 1 + (date.month() - 1) / ni * ni, 1);
                    last = std::min(first.addMonths(ni), QDate(date.year() + 1, 1, 1));
                }
                return std::make_pair(
                    CalendarWindow{dayStartMs(zone_, first), dayStartMs(zone_, last)}, last);
            };
            const auto [window, last] = windowOf(localDateAt(zone_, nowMs));
            // Clocks went back across midnight: the local date still reads the last day of the
            // window although the next window has begun (a later day inside the window changes
            // nothing).
            return nowMs < window.endMs ? window : windowOf(last).first;
        }
    }
    return {nowMs, nowMs + 1};
}

QTimeZone zoneForId(const QByteArray& ianaId) {
    return ianaId.isEmpty() ? QTimeZone::systemTimeZone() : QTimeZone(ianaId);
}

qint64 nominalUnitMs(CalendarUnit unit) {
    switch (unit) {
        case CalendarUnit::Milliseconds:
            return 1;
        case CalendarUnit::Seconds:
            return 1000;
        case CalendarUnit::Minutes:
            return 60 * 1000;
        case CalendarUnit::Hours:
            return 3600 * 1000;
        case CalendarUnit::Days:
            return 24LL * 3600 * 1000;
        case CalendarUnit::Months:
            return 30LL * 24 * 3600 * 1000;
    }
    return 1;
}

QString calendarSpanText(qint64 interval, CalendarUnit unit) {
    const QString plural = calendarUnitName(unit);  // "seconds"
    if (interval == 1) {
        return plural.chopped(1);
    }
    return QStringLiteral("%1 %2").arg(interval).arg(plural);
}

}  // namespace ratelab
