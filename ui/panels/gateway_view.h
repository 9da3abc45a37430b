#pragma once

#include <QWidget>

#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QBoxLayout;
QT_END_NAMESPACE

namespace ratelab {

class ComparisonBars;

// The comparison tab's gateways, shown while a limiter has more than one: each such limiter's
// admissions as one bar stacked by gateway (g0, g1, …) against what its limit admits over the
// run in the steady state (the dashed line), so three node-local gateways admitting three
// times the limit read at a glance; and beside it the Redis calls its decisions made against
// the decisions (the calls cached refusals saved). Side by side where the width holds both.
class GatewayView : public QWidget {
    Q_OBJECT

public:
    explicit GatewayView(QWidget* parent = nullptr);

    void updateFrom(const RunSnapshot& run);
    ComparisonBars* admitted() const { return admitted_; }
    ComparisonBars* calls() const { return calls_; }
    // Side by side when `width` (what the view has for it) holds both, else one under the other.
    void arrange(int width);

private:
    ComparisonBars* admitted_ = nullptr;
    ComparisonBars* calls_ = nullptr;
    QBoxLayout* row_ = nullptr;
};

}  // namespace ratelab
