#include <QCoreApplication>

#include "algorithms/algorithm_view.h"
#include "algorithms/rate_period_burst_page.h"
#include "algorithms/view_list.h"

namespace ratelab {
namespace {

class LeakyBucketView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::LeakyBucketView)

public:
    LeakyBucketView() : AlgorithmView(algorithmOf(LimiterType::LeakyBucket)) {}
    QString title() const override { return tr("leaky bucket"); }
    QString selectorLabel() const override { return tr("Leaky bucket (nginx limit_req)"); }
    LimiterPage* makePage(QWidget* parent) const override {
        return new RatePeriodBurstPage(true, {}, parent);
    }
    QString configText(const LimiterSpec& spec) const override {
        return tr("%1 per %2 ms, burst %3%4")
            .arg(spec.rate)
            .arg(spec.periodMs)
            .arg(spec.burst)
            .arg(spec.nodelay ? tr(", nodelay") : QString());
    }
    // Ending at now: the time the water takes to drain at the leak rate.
    QVector<TimeSpan> levelSpans(const LimiterSpec& spec, const LimiterState::Level& level, qint64,
                                 double x, const QString& who) const override {
        const double drainMs =
            level.used * double(spec.periodMs) / double(std::max<qint64>(1, spec.rate));
        return {{x - drainMs / 1000.0, x,
                 tr("water %1 of %2, drains in %3 ms · queue delay %4 ms%5")
                     .arg(level.used, 0, 'f', 1)
                     .arg(spec.burst + 1)
                     .arg(qRound64(drainMs))
                     .arg(level.aheadMs)
                     .arg(who)}};
    }
};

}  // namespace

const AlgorithmView& leakyBucketView() {
    static const LeakyBucketView view;
    return view;
}

}  // namespace ratelab
