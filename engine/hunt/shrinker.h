#pragma once

#include <QSet>
#include <QVector>
#include <functional>

#include "hunt/property_check.h"
#include "traffic/trace.h"

namespace ratelab {

// Shrinks a failing trace to a 1-minimal one (without any one of its rows, the property holds):
// delta debugging over the rows (ddmin), then each row simplified (permits down, its time
// merged onto a neighbour's, a gap shortened to a window's length or to half, a client merged
// into another), rows removed again after each
// simplification that held, and the times shifted to start at kHuntStartMs where that keeps it
// failing (else by whole multiples of the windows, so that epoch-aligned windows stay where
// they were; a DST day or a float flavor's date may keep the times as found). Every candidate
// is decided on Redis through `fails`.
class Shrinker {
public:
    // Checks a candidate: its violation, or none when the property holds on it.
    using Fails = std::function<CheckedTrace(const Trace&)>;
    // `stopped` is asked between candidates: once true, shrink() returns what it has (a failing
    // trace, maybe not 1-minimal).
    Shrinker(Fails fails, std::function<bool()> stopped, std::vector<qint64> windowsMs);

    struct Result {
        Trace trace;
        CheckedTrace checked;  // its decisions and violation
        bool minimal = false;  // false: stopped before the end
        qint64 candidates = 0;
    };
    // `trace` fails with `checked`.
    Result shrink(const Trace& trace, const CheckedTrace& checked);

private:
    using Rows = QVector<TraceRow>;
    // Decides a candidate; true (and it becomes the current one) when it fails.
    bool tryCandidate(const Rows& rows);
    bool ddmin();
    bool simplifyRows();
    bool renameClients();
    bool shiftTimes();
    bool stopped();

    Fails fails_;
    std::function<bool()> stopped_;
    std::vector<qint64> windowsMs_;
    Rows rows_;
    CheckedTrace checked_;
    QSet<QByteArray> held_;  // the candidates decided on which the property held
    qint64 candidates_ = 0;
    bool halted_ = false;
};

}  // namespace ratelab
