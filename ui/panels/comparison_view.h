#pragma once

#include <QScrollArea>
#include <QStringList>
#include <memory>

#include "live/run_cost.h"
#include "output/run_baseline.h"
#include "stats/run_snapshot.h"

QT_BEGIN_NAMESPACE
class QBoxLayout;
class QCheckBox;
QT_END_NAMESPACE

namespace ratelab {

class ClientTable;
class ComparisonBars;
class ComparisonTable;
class CumulativeChart;
class DisagreementTable;
class GatewayView;
class LatencyChart;
class RedisCostView;

// The comparison tab, made to be read at a glance and from the back of a room: first a chart
// per measure across the limiters — the accepted share and the admitted burst side by side
// (each limiter a bar; the burst's bar crossed by the limit it is held to), a limiter's
// several gateways' admissions and Redis calls (GatewayView), then every
// limiter's accepted requests over time on one axis — then the exact figures (the table with
// its accounting, where two limiters decided alike requests differently, Redis's own cost), then
// the clients and the latency histogram. A run with traffic groups has a "Per group" check box
// over the table (checked: each group's row under its limiter's). It scrolls
// when the window is small or the fonts large (presentation mode); side-by-side parts stack
// when the width is too narrow for both.
class ComparisonView : public QScrollArea {
    Q_OBJECT

public:
    explicit ComparisonView(QWidget* parent = nullptr);

    void updateFrom(const RunSnapshot& run);
    void updateCost(const RunCost& cost, const QStringList& names);
    void clearCost();
    void setBaseline(std::shared_ptr<const RunBaseline> baseline);

    ComparisonBars* acceptedBars() const { return accepted_; }
    ComparisonBars* burstBars() const { return burst_; }
    CumulativeChart* cumulative() const { return cumulative_; }
    GatewayView* gateways() const { return gateways_; }  // shown while a limiter has several
    ComparisonTable* table() const { return table_; }
    QCheckBox* perGroup() const { return perGroup_; }  // hidden when the run has no groups
    DisagreementTable* disagreements() const { return disagreements_; }
    RedisCostView* cost() const { return cost_; }
    ClientTable* clients() const { return clients_; }
    LatencyChart* latency() const { return latency_; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void showBars(const RunSnapshot& run);
    void arrange();

    ComparisonBars* accepted_ = nullptr;
    ComparisonBars* burst_ = nullptr;
    GatewayView* gateways_ = nullptr;
    CumulativeChart* cumulative_ = nullptr;
    ComparisonTable* table_ = nullptr;
    QCheckBox* perGroup_ = nullptr;
    DisagreementTable* disagreements_ = nullptr;
    RedisCostView* cost_ = nullptr;
    ClientTable* clients_ = nullptr;
    LatencyChart* latency_ = nullptr;
    QBoxLayout* barsRow_ = nullptr;
    QBoxLayout* detailsRow_ = nullptr;
};

}  // namespace ratelab
