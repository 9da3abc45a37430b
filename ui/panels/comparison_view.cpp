#include "panels/comparison_view.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <algorithm>

#include "panels/client_table.h"
#include "panels/column_fit.h"
#include "panels/comparison_bars.h"
#include "panels/comparison_table.h"
#include "panels/cumulative_chart.h"
#include "panels/disagreement_table.h"
#include "panels/gateway_view.h"
#include "panels/latency_chart.h"
#include "panels/marked_burst.h"
#include "panels/redis_cost_view.h"
#include "panels/table_cells.h"

namespace ratelab {
namespace {

// The width, in average characters, from which the clients and the latency go side by side.
constexpr int kDetailsSideBySideChars = 130;

QLabel* heading(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

}  // namespace

ComparisonView::ComparisonView(QWidget* parent) : QScrollArea(parent) {
    setObjectName(QStringLiteral("comparisonView"));
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* host = new QWidget(this);
    auto* layout = new QVBoxLayout(host);
    // Narrow side margins: the table's columns need every pixel of a 1024 px window.
    const QMargins margins = layout->contentsMargins();
    layout->setContentsMargins(4, margins.top(), 4, margins.bottom());

    barsRow_ = new QBoxLayout(QBoxLayout::LeftToRight);
    accepted_ = new ComparisonBars(tr("Accepted % of the requests fired"), host);
    accepted_->setObjectName(QStringLiteral("acceptedBars"));
    burst_ = new ComparisonBars(tr("Admitted burst: most accepted in any window"), host);
    burst_->setObjectName(QStringLiteral("burstBars"));
    burst_->setToolTip(
        tr("The most requests each limiter accepted in any interval as long as "
           "its own window, exact (from the decisions). The dashed line across "
           "a bar is what its limit admits in that window in the steady state: "
           "a bar past it let a burst through (a fixed window at a boundary, a "
           "full bucket)."));
    barsRow_->addWidget(accepted_, 1);
    barsRow_->addWidget(burst_, 1);
    layout->addLayout(barsRow_);
    gateways_ = new GatewayView(host);
    layout->addWidget(gateways_);
    cumulative_ = new CumulativeChart(host);
    layout->addWidget(cumulative_);

    perGroup_ = new QCheckBox(tr("Per &group"), host);
    perGroup_->setObjectName(QStringLiteral("perGroup"));
    perGroup_->setToolTip(
        tr("Under each limiter, a row per traffic group (the scenario's traffic \"groups\"): "
           "what the limiter did to each group's requests"));
    perGroup_->setChecked(true);
    perGroup_->hide();
    layout->addWidget(perGroup_);
    table_ = new ComparisonTable(host);
    table_->setAccountingOnlyWhenBroken(true);  // the status bar says it; red, it shows here too
    connect(perGroup_, &QCheckBox::toggled, table_, &ComparisonTable::setShowGroups);
    layout->addWidget(table_);
    disagreements_ = new DisagreementTable(host);
    layout->addWidget(disagreements_);
    cost_ = new RedisCostView(host);
    layout->addWidget(cost_);

    layout->addWidget(heading(tr("Per client and latency"), host));
    detailsRow_ = new QBoxLayout(QBoxLayout::LeftToRight);
    clients_ = new ClientTable(host);
    latency_ = new LatencyChart(host);
    detailsRow_->addWidget(clients_, 1);
    detailsRow_->addWidget(latency_, 1);
    layout->addLayout(detailsRow_);
    layout->addStretch(1);
    setWidget(host);
    showBars(RunSnapshot());
    arrange();
}

void ComparisonView::updateFrom(const RunSnapshot& run) {
    const bool groups = std::any_of(run.limiters.begin(), run.limiters.end(),
                                    [](const LimiterSnapshot& l) { return !l.groups.isEmpty(); });
    if (perGroup_->isHidden() == groups)
        perGroup_->setVisible(groups);
    gateways_->updateFrom(run);
    showBars(run);  // and arranges
    cumulative_->updateFrom(run);
    table_->updateFrom(run);
    disagreements_->updateFrom(run);
    panel::showAllRows(disagreements_->table());  // a row per pair, the tab scrolls as a whole
    clients_->updateFrom(run);
    latency_->updateFrom(run);
}

void ComparisonView::updateCost(const RunCost& cost, const QStringList& names) {
    cost_->updateCost(cost, names);
}

void ComparisonView::clearCost() {
    cost_->clear();
}

void ComparisonView::setBaseline(std::shared_ptr<const RunBaseline> baseline) {
    table_->setBaseline(std::move(baseline));
}

// The accepted share of each limiter, and once the run is over its admitted burst in its own
// window against what its limit admits there.
void ComparisonView::showBars(const RunSnapshot& run) {
    const QLocale locale;
    QVector<ComparisonBars::Bar> shares;
    QVector<ComparisonBars::Bar> bursts;
    for (const LimiterSnapshot& l : run.limiters) {
        ComparisonBars::Bar share;
        share.name = l.spec.name;
        share.value = l.fired > 0 ? 100.0 * double(l.accepted) / double(l.fired) : 0;
        share.text =
            l.fired > 0 ? tr("%1 %").arg(locale.toString(share.value, 'f', 1)) : panel::dash();
        share.toolTip =
            tr("%1 of %2 requests accepted").arg(panel::count(l.accepted), panel::count(l.fired));
        shares << share;

        const std::optional<panel::MarkedBurst> marked = panel::markedBurst(l);
        if (!run.finished || !marked)
            continue;
        const BusiestInterval& interval = marked->interval;
        ComparisonBars::Bar burst;
        burst.name = l.spec.name;
        burst.value = double(interval.permits);
        burst.reference = marked->limit;
        burst.text = tr("%1 in %2 ms").arg(panel::count(interval.permits)).arg(interval.windowMs);
        burst.toolTip =
            tr("%1 accepted in %2 – %3 s of the run; its limit admits %4 per %5 ms in the "
               "steady state (the dashed line)")
                .arg(panel::count(interval.permits),
                     locale.toString(double(interval.fromMs) / 1000.0, 'f', 3),
                     locale.toString(double(interval.fromMs + interval.windowMs) / 1000.0, 'f', 3),
                     locale.toString(burst.reference, 'g', 4))
                .arg(interval.windowMs);
        bursts << burst;
    }
    accepted_->setBars(shares, 100);
    accepted_->setNote(run.limiters.isEmpty() ? tr("No run yet: Start one.") : QString());
    burst_->setBars(bursts);
    burst_->setNote(!bursts.isEmpty() ? QString()
                    : run.limiters.isEmpty()
                        ? tr("No run yet.")
                        : tr("Measured from the decisions when the run ends."));
    arrange();  // the names and values may need another width
}

void ComparisonView::resizeEvent(QResizeEvent* event) {
    QScrollArea::resizeEvent(event);
    arrange();
}

void ComparisonView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange)
        arrange();
    QScrollArea::changeEvent(event);
}

// Side by side where the width holds both, stacked where it does not.
void ComparisonView::arrange() {
    const int width = viewport()->width() - 2 * widget()->layout()->contentsMargins().left();
    const auto direction = [](bool sideBySide) {
        return sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    };
    const int bars = accepted_->minimumSizeHint().width() + burst_->minimumSizeHint().width() +
                     barsRow_->spacing();
    if (barsRow_->direction() != direction(width >= bars))
        barsRow_->setDirection(direction(width >= bars));
    gateways_->arrange(width);
    const int details = kDetailsSideBySideChars * fontMetrics().averageCharWidth();
    if (detailsRow_->direction() != direction(width >= details))
        detailsRow_->setDirection(direction(width >= details));
    const int rows = fontMetrics().height() * 16;
    clients_->setMinimumHeight(rows);
    latency_->setMinimumHeight(rows);
}

}  // namespace ratelab
