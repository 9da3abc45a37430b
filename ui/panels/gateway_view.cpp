#include "panels/gateway_view.h"

#include <QBoxLayout>
#include <QLocale>
#include <algorithm>

#include "limiters/limit_geometry.h"
#include "panels/comparison_bars.h"
#include "panels/table_cells.h"

namespace ratelab {

GatewayView::GatewayView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("gatewayView"));
    row_ = new QBoxLayout(QBoxLayout::LeftToRight, this);
    row_->setContentsMargins(0, 0, 0, 0);
    admitted_ = new ComparisonBars(tr("Admitted per gateway"), this);
    admitted_->setObjectName(QStringLiteral("gatewayAdmitted"));
    admitted_->setToolTip(
        tr("Each limiter's grants stacked by the gateway that made them. The dashed line is "
           "what its limit admits over the run in the steady state: gateways that each keep "
           "the limit on their own admit it once each."));
    calls_ = new ComparisonBars(tr("Redis calls of its decisions"), this);
    calls_->setObjectName(QStringLiteral("gatewayCalls"));
    calls_->setToolTip(
        tr("The decisions that called Redis; the dashed line is all of the decisions. A "
           "gateway that caches refusals or keeps the limit itself saves the rest."));
    row_->addWidget(admitted_, 1);
    row_->addWidget(calls_, 1);
    hide();
}

void GatewayView::updateFrom(const RunSnapshot& run) {
    const QLocale locale;
    QVector<ComparisonBars::Bar> admitted;
    QVector<ComparisonBars::Bar> calls;
    const qint64 runMs = std::max<qint64>(run.elapsedUs / 1000, 1);
    for (const LimiterSnapshot& l : run.limiters) {
        if (l.gateways.size() < 2)
            continue;
        ComparisonBars::Bar bar;
        bar.name = l.spec.name;
        QStringList parts;
        for (qsizetype g = 0; g < l.gateways.size(); ++g) {
            bar.parts << double(l.gateways[g].accepted);
            bar.partNames << QStringLiteral("g%1").arg(g);
            bar.value += double(l.gateways[g].accepted);
            parts << tr("g%1 %2").arg(g).arg(panel::count(l.gateways[g].accepted));
        }
        const int clients = std::max<int>(int(l.clients.size()), 1);
        bar.reference = limitPerBucket(l.spec, runMs, clients);
        const double times = bar.reference > 0 ? bar.value / bar.reference : 0;
        bar.text = tr("%1 (%2× the limit)")
                       .arg(panel::count(qint64(bar.value)), locale.toString(times, 'f', 1));
        bar.toolTip = tr("%1 admitted: %2; its limit admits %3 over these %4 s")
                          .arg(panel::count(qint64(bar.value)), parts.join(QStringLiteral(", ")),
                               locale.toString(bar.reference, 'f', 0),
                               locale.toString(double(runMs) / 1000.0, 'f', 1));
        admitted << bar;

        ComparisonBars::Bar call;
        call.name = l.spec.name;
        const qint64 decisions = l.gatewayDecisions();
        call.value = double(l.redisCalls);
        call.reference = double(decisions);
        call.text = tr("%1 of %2 · %3 saved")
                        .arg(panel::count(l.redisCalls), panel::count(decisions),
                             panel::count(std::max<qint64>(decisions - l.redisCalls, 0)));
        QStringList perGateway;
        for (qsizetype g = 0; g < l.gateways.size(); ++g) {
            perGateway << tr("g%1 %2 of %3")
                              .arg(g)
                              .arg(panel::count(l.gateways[g].redisCalls),
                                   panel::count(l.gateways[g].decisions));
        }
        call.toolTip =
            tr("Redis calls of the decisions: %1").arg(perGateway.join(QStringLiteral(", ")));
        calls << call;
    }
    admitted_->setBars(admitted);
    calls_->setBars(calls);
    setVisible(!admitted.isEmpty());
}

void GatewayView::arrange(int width) {
    const int both =
        admitted_->minimumSizeHint().width() + calls_->minimumSizeHint().width() + row_->spacing();
    const auto direction = width >= both ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (row_->direction() != direction)
        row_->setDirection(direction);
}

}  // namespace ratelab
