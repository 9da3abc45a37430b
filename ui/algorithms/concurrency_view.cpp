#include <QCoreApplication>

#include "algorithms/algorithm_view.h"
#include "algorithms/concurrency_page.h"
#include "algorithms/view_list.h"

namespace ratelab {
namespace {

class ConcurrencyView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::ConcurrencyView)

public:
    ConcurrencyView() : AlgorithmView(algorithmOf(LimiterType::Concurrency)) {}
    QString title() const override { return tr("concurrency"); }
    QString selectorLabel() const override {
        return tr("Concurrency: requests in flight (Stripe)");
    }
    bool usesCommonRate() const override { return false; }
    LimiterPage* makePage(QWidget* parent) const override { return new ConcurrencyPage(parent); }
    QString configText(const LimiterSpec& spec) const override {
        return tr("%1 in flight, leases of %2 ms").arg(spec.limit).arg(spec.leaseMs);
    }
    // Slots held at once, not a rate: the line (limit per lease) is only what the limiter
    // admits while no grant releases; with releases it admits far more.
    QString limitLineLabel(const LimiterSpec& spec) const override {
        return tr("limit %1 in flight (%1 per %2 ms if none release)")
            .arg(spec.limit)
            .arg(spec.leaseMs);
    }
    // From now to the first lease that runs out unreleased.
    QVector<TimeSpan> levelSpans(const LimiterSpec& spec, const LimiterState::Level& level, qint64,
                                 double x, const QString& who) const override {
        const QString text =
            tr("%1 of %2 in flight%3").arg(qRound64(level.used)).arg(spec.limit).arg(who);
        if (level.used <= 0)
            return {{x, x, text}};
        return {{x, x + double(level.aheadMs) / 1000.0,
                 text + tr(" · first lease runs out in %1 ms").arg(level.aheadMs)}};
    }
};

}  // namespace

const AlgorithmView& concurrencyView() {
    static const ConcurrencyView view;
    return view;
}

}  // namespace ratelab
