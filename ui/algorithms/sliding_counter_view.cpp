#include <QCoreApplication>

#include "algorithms/algorithm_view.h"
#include "algorithms/rate_period_burst_page.h"
#include "algorithms/view_list.h"

namespace ratelab {
namespace {

class SlidingCounterView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::SlidingCounterView)

public:
    SlidingCounterView() : AlgorithmView(algorithmOf(LimiterType::SlidingCounter)) {}
    QString title() const override { return tr("sliding counter"); }
    QString selectorLabel() const override {
        return tr("Sliding window counter (Cloudflare, upstash)");
    }
    bool usesCommonRate() const override { return false; }
    LimiterPage* makePage(QWidget* parent) const override {
        return new SlidingCounterPage(algorithm().flavors(), parent);
    }
    QString configText(const LimiterSpec& spec) const override {
        return tr("%1 per %2 ms window").arg(spec.limit).arg(spec.windowMs) + flavorSuffix(spec);
    }
    // The previous window with its weight and the current one with the estimate.
    QVector<TimeSpan> levelSpans(const LimiterSpec& spec, const LimiterState::Level& level,
                                 qint64 nowMs, double x, const QString& who) const override {
        const qint64 intoWindowMs = nowMs - level.windowStartMs;
        const double start = x - double(intoWindowMs) / 1000.0;
        const double w = double(spec.windowMs) / 1000.0;
        const double weight = 1.0 - double(intoWindowMs) / double(spec.windowMs);
        return {{start - w, start,
                 tr("previous %1 × %2%").arg(level.previous).arg(qRound(weight * 100))},
                {start, start + w,
                 tr("current %1 · estimate %2 of %3%4")
                     .arg(level.current)
                     .arg(qRound64(level.used))
                     .arg(spec.limit)
                     .arg(who)}};
    }
};

}  // namespace

const AlgorithmView& slidingCounterView() {
    static const SlidingCounterView view;
    return view;
}

}  // namespace ratelab
