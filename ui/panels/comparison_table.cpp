#include "panels/comparison_table.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/column_fit.h"
#include "panels/comparison_cells.h"
#include "panels/table_cells.h"
#include "style/palette_colors.h"

namespace ratelab {
using namespace comparison;
namespace {

QString runIdOf(const RunSnapshot& run) {
    QString id = run.scenarioName + QLatin1Char('\n') + QString::number(run.startEpochMs);
    for (const LimiterSnapshot& limiter : run.limiters)
        id += QLatin1Char('\n') + limiter.spec.name;
    return id;
}

// Italic for a baseline's rows, bold for a figure past the limit; set only when it changes.
void setFontStyle(QTableWidgetItem* item, bool italic, bool bold) {
    QFont font = item->font();
    if (font.italic() == italic && font.bold() == bold)
        return;
    font.setItalic(italic);
    font.setBold(bold);
    item->setFont(font);
}

}  // namespace

ComparisonTable::ComparisonTable(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    accounting_ = new QLabel(this);
    accounting_->setObjectName(QStringLiteral("accounting"));
    accounting_->setTextFormat(Qt::RichText);
    accounting_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    accounting_->setWordWrap(true);  // a long line never widens the tab past its window
    layout->addWidget(accounting_);
    // A figure's unit under its name: the headers as narrow as the figures (a 1024 px window
    // shows every column whole, the admitted burst's too).
    table_ = panel::makeTable(
        this, QStringLiteral("comparison"),
        {tr("Limiter"), tr("Type"), tr("Fired"), tr("Accepted"), tr("Rejected"), tr("Errors"),
         tr("Let through"), tr("Refused"), tr("Accepted\n%"), tr("p50\nms"), tr("p99\nms"),
         tr("Fairness"), tr("Redis\ncalls"), tr("Max burst"), tr("Against\nreference")});
    panel::fitColumns(
        table_,
        {tr("The limiter's name. With a baseline (Runs: Compare with), the italic row under "
            "each limiter holds the baseline's figures: its value and \u0394 = this run "
            "\u2212 baseline (hover a cell for both)."),
         tr("Its algorithm, and per_client when each client has its own limit."),
         tr("Requests whose final outcome is known: Fired = Accepted + Rejected + Errors."),
         tr("Requests the limiter allowed (wait mode: after their waits)."),
         tr("Requests the limiter refused (wait mode: those that gave up waiting)."),
         tr("Decisions that failed (Redis unreachable, timed out or answered an error). "
            "Never part of Accepted or Rejected."),
         tr("Of Errors: failed decisions let through by the limiter's on_error \"open\" "
            "policy (counted in Errors, not in Accepted)."),
         tr("Of Errors: failed decisions refused by the limiter's on_error \"closed\" policy "
            "(counted in Errors, not in Rejected)."),
         tr("Accepted / Fired \u00d7 100."),
         tr("Median time per script call (each wait-mode retry is one call), from the "
            "request's scheduled send time to this limiter's reply, in ms. A virtual clock at a "
            "speed measures it on the run's clock (the time on the wall times the speed); as "
            "fast as possible it decides at the scheduled time, with nothing to measure: "
            "0 (virtual). Wait mode: not the wait, see the Clients tab and the latency "
            "histogram for that."),
         tr("99th percentile of the same time per script call, in ms (1 call in 100 took "
            "longer)."),
         tr("Jain's fairness index over the clients' accepted counts: (\u03a3x)\u00b2 / "
            "(n \u00b7 \u03a3x\u00b2). 1 when every client got as much, 1/n when one client "
            "got everything."),
         tr("The decisions that called Redis; the others a gateway decided from its own state "
            "(a local limiter, a cached refusal, a batched window's known count). Shown when a "
            "limiter has its own gateway use or the run has several gateways: calls saved, "
            "read against the admitted burst beside it."),
         tr("Once the run is over: the most requests the limiter accepted in any interval as "
            "long as its own window, on the time it decided at (what it enforces; the burst "
            "bar above). Bold in the error colour when above what its limit admits in that "
            "window in the steady state (the cell's tooltip says how much)."),
         tr("A script limiter with a \"reference\": the requests the reference, deciding each "
            "one too on its own keys, decided otherwise (disagreements_with_reference), and "
            "their share of the decisions both made. Bold in the error colour when there is "
            "any; the triangles on the script's timeline show when.")});
    // Too narrow for every column, the algorithm's name is cut first (the names stay whole).
    panel::setYieldingColumn(table_, kType);
    panel::setYieldingColumn(table_, kLimiter);  // elided names keep their tooltips
    layout->addWidget(table_, 1);
    table_->setColumnHidden(kRedisCalls, true);
    table_->setColumnHidden(kBurst, true);
    table_->setColumnHidden(kReference, true);
}

void ComparisonTable::updateFrom(const RunSnapshot& run) {
    const int n = int(run.limiters.size());
    const QString id = runIdOf(run);
    if (id != runId_) {
        runId_ = id;
        everBroken_.fill(false, n);
    }
    lines_.clear();
    figuresBeyondTable_ = false;
    red_.clear();
    for (int i = 0; i < n; ++i) {
        const LimiterSnapshot& s = run.limiters[i];
        const bool holds = s.fired == s.accepted + s.rejected + s.errors;
        if (!holds)
            everBroken_[i] = true;
        lines_.append(accountingLine(s, holds, everBroken_[i]));
        figuresBeyondTable_ = figuresBeyondTable_ || s.leases.any();
        red_.append(everBroken_[i]);
    }
    plainText_ = lines_.join(QLatin1Char('\n'));
    renderAccounting();
    run_ = run;
    renderTable();
}

// Each limiter's row, under it the baseline's, then each of its groups' (with the baseline's
// under each).
void ComparisonTable::renderTable() {
    QVector<RowRef> layout;
    for (int i = 0; i < run_.limiters.size(); ++i) {
        layout.append({i, -1, false});
        if (baseline_)
            layout.append({i, -1, true});
        if (!showGroups_)
            continue;
        for (int g = 0; g < run_.limiters[i].groups.size(); ++g) {
            layout.append({i, g, false});
            if (baseline_)
                layout.append({i, g, true});
        }
    }
    layout_ = layout;
    if (table_->rowCount() != layout_.size())
        table_->setRowCount(int(layout_.size()));

    const qint64 window = burstColumnWindow(run_);
    // One scope for all: the header says it once, and the type cells keep the width.
    const QString scope = comparison::sharedScope(run_);
    const QString typeHeader = scope.isEmpty() ? tr("Type") : tr("Type\n(all %1)").arg(scope);
    if (table_->horizontalHeaderItem(kType)->text() != typeHeader)
        table_->horizontalHeaderItem(kType)->setText(typeHeader);
    const QColor alert = style::errorColor(palette());
    for (int r = 0; r < layout_.size(); ++r) {
        const RowRef& ref = layout_[r];
        const LimiterSnapshot& s = run_.limiters[ref.limiter];
        const GroupTotals* g = ref.group >= 0 ? &s.groups[ref.group] : nullptr;
        const Row cells = ref.baseline
                              ? (g ? comparison::groupBaselineRow(*baseline_, s, *g, window)
                                   : comparison::baselineRow(*baseline_, s, window))
                              : (g ? comparison::groupRow(s, *g, window)
                                   : comparison::limiterRow(s, window, scope.isEmpty()));
        for (int c = 0; c < kColumns; ++c) {
            QTableWidgetItem* item = panel::cell(table_, r, c, c >= kFired);
            panel::setText(item, cells[c].text);
            item->setToolTip(cells[c].toolTip.isEmpty() ? cells[c].text : cells[c].toolTip);
            setFontStyle(item, ref.baseline, cells[c].alert);
            item->setData(Qt::ForegroundRole, cells[c].alert ? QVariant(alert) : QVariant());
        }
        if (table_->columnSpan(r, kLimiter) != cells[kLimiter].span)
            table_->setSpan(r, kLimiter, 1, cells[kLimiter].span);
    }
    // The error columns only when there were errors (in this run or the baseline): the
    // accounting line above says "errors 0", and the room goes to the names. Redis calls only
    // where a gateway decides some requests itself; the burst once the run is over; the
    // disagreements with a reference where a script limiter has one.
    // The latency columns only when some latency was measured: a virtual clock as fast as
    // possible has none (each cell would say "0 (virtual)"; the histogram below says why).
    bool errors = false;
    bool gateways = false;
    bool references = false;
    bool latencies = false;
    for (const LimiterSnapshot& s : run_.limiters) {
        const LimiterSummary* b = baseline_ ? baseline_->find(s.spec.name) : nullptr;
        latencies = latencies || s.latency.total == 0 || s.latency.max > 0 ||
                    (b != nullptr && b->latency.p99Ms > 0);
        errors = errors || s.errors > 0 || (b != nullptr && b->counts.errors > 0);
        gateways = gateways || reportsGateways(s) || (b != nullptr && b->redisCalls >= 0);
        references = references || s.hasReference;
    }
    table_->setColumnHidden(kReference, !references);
    for (int c : {kP50, kP99})
        table_->setColumnHidden(c, !latencies);
    for (int c : {kErrors, kErrorsOpen, kErrorsClosed})
        table_->setColumnHidden(c, !errors);
    table_->setColumnHidden(kRedisCalls, !gateways);
    table_->setColumnHidden(kBurst, window < 0);
    // Two lines: the header as narrow as the figures under it.
    const QString burstHeader =
        window > 0 ? tr("Max\nin %1").arg(windowText(window)) : tr("Max burst");
    if (table_->horizontalHeaderItem(kBurst)->text() != burstHeader)
        table_->horizontalHeaderItem(kBurst)->setText(burstHeader);
    panel::refitColumns(table_);
    panel::showAllRows(table_);  // the comparison tab scrolls as a whole
}

QString ComparisonTable::accountingLine(const LimiterSnapshot& s, bool holds,
                                        bool brokeEarlier) const {
    using panel::count;
    QString line = tr("%1: fired %2 %3 accepted %4 + rejected %5 + errors %6")
                       .arg(s.spec.name, count(s.fired),
                            holds ? QStringLiteral("=") : QStringLiteral("\u2260"),
                            count(s.accepted), count(s.rejected), count(s.errors));
    if (s.errorsOpen > 0 || s.errorsClosed > 0) {
        QStringList parts;
        if (s.errorsOpen > 0)
            parts << tr("%1 let through").arg(count(s.errorsOpen));
        if (s.errorsClosed > 0)
            parts << tr("%1 refused").arg(count(s.errorsClosed));
        line += tr(" (errors %1 by on_error %2)")
                    .arg(parts.join(QStringLiteral(", ")), failurePolicyName(s.spec.onError));
    }
    // Several gateways, or a limiter's own gateway use: the decisions that called Redis.
    if (reportsGateways(s)) {
        line += tr(" \u00b7 Redis calls %1 of %2 decisions (%3)")
                    .arg(count(s.redisCalls), count(s.gatewayDecisions()), gatewaysText(s));
    }
    if (s.leases.any()) {
        line += tr(" \u00b7 leases released %1, late %2, leaked %3, expired %4")
                    .arg(count(s.leases.released), count(s.leases.lateReleases),
                         count(s.leases.leaked), count(s.leases.expired));
    }
    if (holds && brokeEarlier)
        line += tr(" (did not hold earlier in this run)");
    return line;
}

// Broken lines in the palette's error colour.
void ComparisonTable::renderAccounting() {
    QStringList html;
    const QString color = style::errorColor(palette()).name();
    for (int i = 0; i < lines_.size(); ++i) {
        const QString line = lines_[i].toHtmlEscaped();
        html.append(red_[i] ? QStringLiteral("<span style=\"color:%1\">%2</span>").arg(color, line)
                            : line);
    }
    panel::setText(accounting_, html.join(QStringLiteral("<br>")));
    const bool broken = std::find(red_.cbegin(), red_.cend(), true) != red_.cend();
    accounting_->setVisible(!accountingOnlyWhenBroken_ || broken || figuresBeyondTable_);
}

bool ComparisonTable::accountingShown() const {
    return !accounting_->isHidden();
}

void ComparisonTable::setAccountingOnlyWhenBroken(bool only) {
    accountingOnlyWhenBroken_ = only;
    renderAccounting();
}

QString ComparisonTable::accountingText() const {
    return plainText_;
}

void ComparisonTable::setShowGroups(bool show) {
    if (showGroups_ == show)
        return;
    showGroups_ = show;
    renderTable();
}

QStringList ComparisonTable::rowTexts(const RowRef& ref) const {
    const int r = int(layout_.indexOf(ref));
    return r < 0 ? QStringList() : panel::rowTexts(table_, r);
}

QStringList ComparisonTable::row(int limiter) const {
    return rowTexts({limiter, -1, false});
}

void ComparisonTable::setBaseline(std::shared_ptr<const RunBaseline> baseline) {
    baseline_ = std::move(baseline);
    table_->setRowCount(0);  // rows are laid out again by the next updateFrom
    layout_.clear();
}

QStringList ComparisonTable::baselineRow(int limiter) const {
    return rowTexts({limiter, -1, true});
}

QStringList ComparisonTable::groupRow(int limiter, int group) const {
    return rowTexts({limiter, group, false});
}

QStringList ComparisonTable::groupBaselineRow(int limiter, int group) const {
    return rowTexts({limiter, group, true});
}

bool ComparisonTable::alerted(int limiter, int column) const {
    const int r = int(layout_.indexOf(RowRef{limiter, -1, false}));
    const QTableWidgetItem* item = r < 0 ? nullptr : table_->item(r, column);
    return item != nullptr && item->font().bold() &&
           item->foreground().color() == style::errorColor(palette());
}

void ComparisonTable::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && accounting_) {
        renderAccounting();
        renderTable();  // the error colour of a burst past its limit
    }
    QWidget::changeEvent(event);
}

}  // namespace ratelab
