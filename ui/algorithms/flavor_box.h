#pragma once

#include <QComboBox>
#include <QJsonObject>
#include <vector>

#include "limiters/limiter_spec.h"

namespace ratelab {

// The "flavor" choice of a limiter page whose type offers library flavors: exact first, then
// each flavor, named with the library whose arithmetic it follows.
class FlavorBox : public QComboBox {
    Q_OBJECT

public:
    FlavorBox(const std::vector<Flavor>& flavors, QWidget* parent = nullptr);
    // "flavor" into the spec JSON when not exact (the parser's default).
    void writeJson(QJsonObject& json) const;
    // Shows values' "flavor" (exact when absent) without announcing an edit.
    void fill(const QJsonObject& values);
    // "upstash (@upstash/ratelimit v2)": what the window calls a flavor.
    static QString label(Flavor flavor);
};

}  // namespace ratelab
