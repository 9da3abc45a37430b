#include <QCoreApplication>

#include "algorithms/algorithm_view.h"
#include "algorithms/sliding_window_page.h"
#include "algorithms/view_list.h"

namespace ratelab {
namespace {

class SlidingWindowView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::SlidingWindowView)

public:
    SlidingWindowView() : AlgorithmView(algorithmOf(LimiterType::SlidingWindow)) {}
    QString title() const override { return tr("sliding window"); }
    QString selectorLabel() const override { return tr("Sliding window log (multi-rule)"); }
    bool usesCommonRate() const override { return false; }
    LimiterPage* makePage(QWidget* parent) const override { return new SlidingWindowPage(parent); }
    QString configText(const LimiterSpec& spec) const override {
        QStringList rules;
        for (const SlidingRule& rule : spec.rules)
            rules << tr("%1 per %2 ms").arg(rule.limit).arg(rule.windowMs);
        return rules.join(QStringLiteral(", "));
    }
};

}  // namespace

const AlgorithmView& slidingWindowView() {
    static const SlidingWindowView view;
    return view;
}

}  // namespace ratelab
