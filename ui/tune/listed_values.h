#pragma once

#include <QHash>
#include <QJsonArray>
#include <QString>
#include <QVector>
#include <QtGlobal>

#include "scenario/sweep_spec.h"

namespace ratelab {

// A sweep axis the scenario gives as a list ("vary": {"fw.rate": [5, 10, 20, 40]}). The Tune
// tab's fields hold a range (from, to, step); they show the list's first and last value and its
// average step, and while they still show that, the list itself is what is swept (the range
// would sweep 5, 16, 27, 38).
struct ListedValues {
    QVector<qint64> values;

    qint64 from() const { return values.first(); }
    qint64 to() const { return values.last(); }
    // The average spacing, at least 1.
    qint64 step() const;
    // Whether a range of the fields is this list's as shown.
    bool shownAs(qint64 rangeFrom, qint64 rangeTo, qint64 rangeStep) const;
    // "5, 10, 20, 40".
    QString text() const;
    // As the scenario file writes it: [5, 10, 20, 40].
    QJsonArray json() const;
};

// The axes of `sweep` given as lists of more than one value, by key.
QHash<QString, ListedValues> listedValuesOf(const SweepSpec& sweep);

// What the Tune tab's status says of the lists loaded ("fw.rate sweeps the scenario's values
// 5, 10, 20, 40 while its range reads as loaded …"); empty without one.
QString listedValuesNote(const QHash<QString, ListedValues>& listed);

}  // namespace ratelab
