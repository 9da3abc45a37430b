#include "tune/listed_values.h"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>

namespace ratelab {

qint64 ListedValues::step() const {
    return values.size() > 1
               ? std::max<qint64>(1, (values.last() - values.first()) / (values.size() - 1))
               : 1;
}

bool ListedValues::shownAs(qint64 rangeFrom, qint64 rangeTo, qint64 rangeStep) const {
    return !values.isEmpty() && rangeFrom == from() && rangeTo == to() && rangeStep == step();
}

QString ListedValues::text() const {
    QStringList out;
    for (qint64 v : values) {
        out << QString::number(v);
    }
    return out.join(QStringLiteral(", "));
}

QJsonArray ListedValues::json() const {
    QJsonArray out;
    for (qint64 v : values) {
        out.append(double(v));
    }
    return out;
}

QHash<QString, ListedValues> listedValuesOf(const SweepSpec& sweep) {
    QHash<QString, ListedValues> out;
    for (const SweepAxis& axis : sweep.vary) {
        if (axis.step == 0 && axis.values.size() > 1) {
            out.insert(axis.key, ListedValues{axis.values});
        }
    }
    return out;
}

QString listedValuesNote(const QHash<QString, ListedValues>& listed) {
    QStringList lists;
    for (auto it = listed.cbegin(); it != listed.cend(); ++it) {
        lists << QCoreApplication::translate("TuneView", "%1 sweeps the scenario's values %2")
                     .arg(it.key(), it->text());
    }
    if (lists.isEmpty()) {
        return QString();
    }
    return lists.join(QStringLiteral("; ")) +
           QCoreApplication::translate(
               "TuneView", " while its range reads as loaded (edit it to sweep a range instead)");
}

}  // namespace ratelab
