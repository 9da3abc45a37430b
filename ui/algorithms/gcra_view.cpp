#include <QCoreApplication>

#include "algorithms/algorithm_view.h"
#include "algorithms/rate_period_burst_page.h"
#include "algorithms/view_list.h"

namespace ratelab {
namespace {

class GcraView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::GcraView)

public:
    GcraView() : AlgorithmView(algorithmOf(LimiterType::Gcra)) {}
    QString title() const override { return tr("GCRA"); }
    QString selectorLabel() const override { return tr("GCRA (redis_rate, redis-cell)"); }
    LimiterPage* makePage(QWidget* parent) const override {
        return new RatePeriodBurstPage(false, algorithm().flavors(), parent);
    }
    QString configText(const LimiterSpec& spec) const override {
        return tr("%1 per %2 ms, burst %3").arg(spec.rate).arg(spec.periodMs).arg(spec.burst) +
               flavorSuffix(spec);
    }
    // Ending at now: the tolerance τ and, inside it, how far the theoretical arrival time is
    // ahead of now (a request passes while TAT + T stays within τ of now).
    QVector<TimeSpan> levelSpans(const LimiterSpec& spec, const LimiterState::Level& level, qint64,
                                 double x, const QString& who) const override {
        const double emissionMs = double(spec.periodMs) / double(std::max<qint64>(1, spec.rate));
        const double toleranceMs = double(spec.burst) * emissionMs;
        return {{x - toleranceMs / 1000.0, x,
                 tr("tolerance %1 ms = burst %2 × %3 ms")
                     .arg(toleranceMs, 0, 'f', toleranceMs < 10 ? 2 : 0)
                     .arg(spec.burst)
                     .arg(emissionMs, 0, 'f', emissionMs < 10 ? 2 : 0)},
                {x - double(level.aheadMs) / 1000.0, x,
                 tr("TAT = now + %1 ms%2").arg(level.aheadMs).arg(who)}};
    }
};

}  // namespace

const AlgorithmView& gcraView() {
    static const GcraView view;
    return view;
}

}  // namespace ratelab
