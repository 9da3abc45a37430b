#include <QCoreApplication>

#include "algorithms/algorithm_view.h"
#include "algorithms/fixed_window_page.h"
#include "algorithms/view_list.h"
#include "limiters/calendar_window.h"

namespace ratelab {
namespace {

class FixedWindowView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::FixedWindowView)

public:
    FixedWindowView() : AlgorithmView(algorithmOf(LimiterType::FixedWindow)) {}
    QString title() const override { return tr("fixed window"); }
    QString selectorLabel() const override { return tr("Fixed window (natural calendar)"); }
    QStringList optionalKeys() const override { return {QStringLiteral("timezone")}; }
    LimiterPage* makePage(QWidget* parent) const override { return new FixedWindowPage(parent); }
    QString configText(const LimiterSpec& spec) const override {
        return tr("%1 per %2 (%3)")
            .arg(spec.rate)
            .arg(calendarSpanText(spec.interval, spec.unit),
                 spec.timezone.isEmpty() ? tr("system zone") : QString::fromUtf8(spec.timezone));
    }
};

}  // namespace

const AlgorithmView& fixedWindowView() {
    static const FixedWindowView view;
    return view;
}

}  // namespace ratelab
