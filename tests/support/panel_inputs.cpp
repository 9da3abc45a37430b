#include "support/panel_inputs.h"

namespace ratelab::test {

QStringList texts(std::initializer_list<const char*> items) {
    QStringList list;
    for (const char* item : items)
        list.append(QString::fromUtf8(item));
    return list;
}

LimiterSnapshot limiterSnapshot(const QString& name, qint64 fired, qint64 accepted, qint64 rejected,
                                qint64 errors) {
    LimiterSnapshot s;
    s.spec.name = name;
    s.fired = fired;
    s.accepted = accepted;
    s.rejected = rejected;
    s.errors = errors;
    return s;
}

}  // namespace ratelab::test
