#pragma once

#include <QCoreApplication>
#include <QList>
#include <QPointF>
#include <QString>
#include <QVector>

#include "charts/timeline_model.h"

namespace ratelab {

// What a timeline draws for its view, as its series and overlay hold it: the readout under the
// cursor tells this, not the model's newest data (a chart off screen draws later).
struct TimelineDrawing {
    TimelineModel::Counts counts;
    double barsTop = 0;  // on the left axis: the tallest bar, the limit, the releases per step
    QString limitName;   // the limit line's legend entry
    bool baselineShown = false;
    // The permits line in pieces (broken where decisions failed); empty without one.
    QVector<QList<QPointF>> tokenPieces;
    QVector<TimelineModel::Band> bands;
    QVector<TimelineModel::Span> spans;
    TimelineModel::InFlight inFlight;  // not shown for a rate limiter
    QStringList windowLabels() const;  // the counts written in the bands, oldest first
    QStringList spanLabels() const;    // "5/1000 ms: 3 of 5", one per rule
};

// The hover readout of a timeline (HTML): what is drawn at one run time. A pure function of the
// model (baseline, disagreements, admitted burst, markers) and the drawing.
class TimelineReadout {
    Q_DECLARE_TR_FUNCTIONS(TimelineReadout)

public:
    // At run time `seconds`: the step's fired = accepted + rejected + errors (stacked, so each
    // is told apart) and each traffic group's accepted, the baseline's counts, disagreements,
    // the limit in force, the permits last read, the calendar window's count, the spans of the
    // last reading, the admitted burst and the markers within `markerReach` seconds. Empty
    // outside the data.
    static QString at(const TimelineModel& model, const TimelineDrawing& drawing, double seconds,
                      double markerReach);

    // "200 ms", "1 s", "5 min".
    static QString durationText(qint64 ms);
};

}  // namespace ratelab
