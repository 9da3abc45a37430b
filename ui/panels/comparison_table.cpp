#include "panels/comparison_table.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "panels/column_fit.h"
#include "panels/table_cells.h"
#include "style/palette_colors.h"

namespace ratelab {
namespace {

enum Column {
    kLimiter,
    kType,
    kFired,
    kAccepted,
    kRejected,
    kErrors,
    kErrorsOpen,
    kErrorsClosed,
    kAcceptedPct,
    kP50,
    kP99,
    kFairness,
};

// Several gateways, or a limiter's own gateway use: its decisions that called Redis are worth
// a line.
bool reportsGateways(const LimiterSnapshot& s) {
    return !s.spec.gateway.isDefault() || s.gateways.size() > 1;
}

QString runIdOf(const RunSnapshot& run) {
    QString id = run.scenarioName + QLatin1Char('\n') + QString::number(run.startEpochMs);
    for (const LimiterSnapshot& limiter : run.limiters)
        id += QLatin1Char('\n') + limiter.spec.name;
    return id;
}

// A latency percentile cell. A virtual clock run as fast as possible decides each request at its
// scheduled time without waiting for Redis: every latency is 0, and the cell says why.
QString latencyText(const LatencyHistogram::Snapshot& latency, double percentile) {
    if (latency.total == 0)
        return panel::dash();
    if (latency.max == 0)
        return ComparisonTable::tr("0 (virtual)");
    return panel::formatMs(latency.percentile(percentile));
}

// "+3", "−2", "0": a difference, signed.
QString signedText(double delta, const QString& magnitude) {
    if (delta == 0)
        return QStringLiteral("0");
    return (delta > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + magnitude;
}

// One baseline cell: the baseline's value and this run's difference to it, and the tooltip
// that says so in words.
struct BaselineCell {
    QString text;
    QString toolTip;
};

BaselineCell baselineCell(const QString& label, const QString& base, const QString& now,
                          const QString& delta) {
    if (delta.isEmpty())
        return {base, ComparisonTable::tr("baseline %1: %2; this run: %3").arg(label, base, now)};
    return {ComparisonTable::tr("%1 (\u0394 %2)").arg(base, delta),
            ComparisonTable::tr("baseline %1: %2; this run: %3; \u0394 (this run \u2212 "
                                "baseline) %4")
                .arg(label, base, now, delta)};
}

BaselineCell countCell(const QString& label, qint64 base, qint64 now) {
    return baselineCell(label, panel::count(base), panel::count(now),
                        signedText(double(now - base), panel::count(std::abs(now - base))));
}

// A baseline latency percentile (ms), as latencyText shows this run's.
BaselineCell latencyCell(const QString& label, const Percentiles& base, double baseMs,
                         const LatencyHistogram::Snapshot& now, double percentile) {
    const QString nowText = latencyText(now, percentile);
    if (base.count == 0)
        return {panel::dash(), ComparisonTable::tr("baseline %1: no decision timed").arg(label)};
    if (base.maxMs == 0)
        return baselineCell(label, ComparisonTable::tr("0 (virtual)"), nowText, QString());
    const qint64 baseUs = qint64(std::llround(baseMs * 1000));
    if (now.total == 0 || now.max == 0)
        return baselineCell(label, panel::formatMs(baseUs), nowText, QString());
    const qint64 deltaUs = now.percentile(percentile) - baseUs;
    return baselineCell(label, panel::formatMs(baseUs), nowText,
                        signedText(double(deltaUs), panel::formatMs(std::abs(deltaUs))));
}

}  // namespace

ComparisonTable::ComparisonTable(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    accounting_ = new QLabel(this);
    accounting_->setObjectName(QStringLiteral("accounting"));
    accounting_->setTextFormat(Qt::RichText);
    accounting_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(accounting_);
    table_ = panel::makeTable(this, QStringLiteral("comparison"),
                              {tr("Limiter"), tr("Type"), tr("Fired"), tr("Accepted"),
                               tr("Rejected"), tr("Errors"), tr("Let through"), tr("Refused"),
                               tr("Accepted %"), tr("p50 ms"), tr("p99 ms"), tr("Fairness")});
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
            "got everything.")});
    // Too narrow for every column, the algorithm's name is cut first (the names stay whole).
    panel::setYieldingColumn(table_, kType);
    panel::setYieldingColumn(table_, kLimiter);  // elided names keep their tooltips
    layout->addWidget(table_, 1);
}

void ComparisonTable::updateFrom(const RunSnapshot& run) {
    using panel::count;
    const int n = int(run.limiters.size());
    const QString id = runIdOf(run);
    if (id != runId_) {
        runId_ = id;
        everBroken_.fill(false, n);
    }

    const QLocale locale;
    lines_.clear();
    figuresBeyondTable_ = false;
    red_.clear();
    const int rows = baseline_ ? 2 * n : n;
    if (table_->rowCount() != rows)
        table_->setRowCount(rows);
    for (int i = 0; i < n; ++i) {
        const LimiterSnapshot& s = run.limiters[i];
        const bool holds = s.fired == s.accepted + s.rejected + s.errors;
        if (!holds)
            everBroken_[i] = true;
        lines_.append(accountingLine(s, holds, everBroken_[i]));
        figuresBeyondTable_ = figuresBeyondTable_ || reportsGateways(s) || s.leases.any();
        red_.append(everBroken_[i]);

        QString type = limiterTypeName(s.spec.type);
        if (s.spec.scope == Scope::PerClient)
            type += QStringLiteral(" (per_client)");
        const QString cells[] = {
            s.spec.name,
            type,
            count(s.fired),
            count(s.accepted),
            count(s.rejected),
            count(s.errors),
            count(s.errorsOpen),
            count(s.errorsClosed),
            s.fired > 0 ? locale.toString(100.0 * double(s.accepted) / double(s.fired), 'f', 1)
                        : panel::dash(),
            latencyText(s.latency, 50),
            latencyText(s.latency, 99),
            locale.toString(s.fairness, 'f', 3),
        };
        for (int c = 0; c <= kFairness; ++c)
            panel::setText(panel::cell(table_, rowOf(i), c, c >= kFired), cells[c]);
        if (baseline_)
            showBaselineRow(rowOf(i) + 1, s);
        if (s.latency.total > 0 && s.latency.max == 0) {
            for (int c : {kP50, kP99}) {
                table_->item(rowOf(i), c)
                    ->setToolTip(
                        tr("A virtual clock as fast as possible decides each request at its "
                           "scheduled time without waiting for Redis: there is no latency to "
                           "measure."));
            }
        }
    }
    // The error columns only when there were errors (in this run or the baseline): the
    // accounting line above says "errors 0", and the room goes to the names.
    bool errors = false;
    for (const LimiterSnapshot& s : run.limiters) {
        const LimiterSummary* b = baseline_ ? baseline_->find(s.spec.name) : nullptr;
        errors = errors || s.errors > 0 || (b != nullptr && b->counts.errors > 0);
    }
    for (int c : {kErrors, kErrorsOpen, kErrorsClosed})
        table_->setColumnHidden(c, !errors);
    plainText_ = lines_.join(QLatin1Char('\n'));
    renderAccounting();
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
        qint64 decisions = 0;
        for (const GatewayCounts& g : s.gateways)
            decisions += g.decisions;
        line += tr(" \u00b7 Redis calls %1 of %2 decisions (%3 gateway%4, %5)")
                    .arg(count(s.redisCalls), count(decisions))
                    .arg(std::max<qsizetype>(1, s.gateways.size()))
                    .arg(s.gateways.size() > 1 ? QStringLiteral("s") : QString(),
                         gatewayModeName(s.spec.gateway.mode) +
                             (s.spec.gateway.cacheRefusals ? tr(", cached refusals") : QString()));
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

QStringList ComparisonTable::row(int limiter) const {
    return panel::rowTexts(table_, rowOf(limiter));
}

void ComparisonTable::setBaseline(std::shared_ptr<const RunBaseline> baseline) {
    baseline_ = std::move(baseline);
    table_->setRowCount(0);  // rows are laid out again by the next updateFrom
}

QStringList ComparisonTable::baselineRow(int limiter) const {
    return baseline_ ? panel::rowTexts(table_, rowOf(limiter) + 1) : QStringList();
}

// The baseline's figures for the limiter `s` names, in italics under its row.
void ComparisonTable::showBaselineRow(int row, const LimiterSnapshot& s) {
    const QString label = baseline_->label;
    const LimiterSummary* b = baseline_->find(s.spec.name);
    BaselineCell cells[kFairness + 1];
    if (b == nullptr) {
        cells[kLimiter] = {
            tr("not in baseline %1").arg(label),
            tr("The baseline %1 has no limiter named \"%2\"").arg(label, s.spec.name)};
        for (int c = kType; c <= kFairness; ++c)
            cells[c] = {panel::dash(), cells[kLimiter].toolTip};
    } else {
        const QLocale locale;
        cells[kLimiter] = {tr("baseline %1").arg(label),
                           tr("The baseline run %1 (%2): its figures for \"%3\"")
                               .arg(label, baseline_->run.scenario, s.spec.name)};
        cells[kType] = {QString(), cells[kLimiter].toolTip};
        const OutcomeCounts& base = b->counts;
        cells[kFired] = countCell(label, base.fired, s.fired);
        cells[kAccepted] = countCell(label, base.accepted, s.accepted);
        cells[kRejected] = countCell(label, base.rejected, s.rejected);
        cells[kErrors] = countCell(label, base.errors, s.errors);
        cells[kErrorsOpen] = countCell(label, base.errorsOpen, s.errorsOpen);
        cells[kErrorsClosed] = countCell(label, base.errorsClosed, s.errorsClosed);
        const auto pct = [](qint64 accepted, qint64 fired) {
            return fired > 0 ? 100.0 * double(accepted) / double(fired) : -1.0;
        };
        const double basePct = pct(base.accepted, base.fired);
        const double nowPct = pct(s.accepted, s.fired);
        const auto pctText = [&](double v) {
            return v < 0 ? panel::dash() : locale.toString(v, 'f', 1);
        };
        cells[kAcceptedPct] =
            basePct < 0 || nowPct < 0
                ? baselineCell(label, pctText(basePct), pctText(nowPct), QString())
                : baselineCell(label, pctText(basePct), pctText(nowPct),
                               signedText(std::round((nowPct - basePct) * 10) / 10,
                                          locale.toString(std::abs(nowPct - basePct), 'f', 1)));
        cells[kP50] = latencyCell(label, b->latency, b->latency.p50Ms, s.latency, 50);
        cells[kP99] = latencyCell(label, b->latency, b->latency.p99Ms, s.latency, 99);
        const double fairDelta = std::round((s.fairness - b->fairness) * 1000) / 1000;
        cells[kFairness] = baselineCell(
            label, locale.toString(b->fairness, 'f', 3), locale.toString(s.fairness, 'f', 3),
            signedText(fairDelta, locale.toString(std::abs(fairDelta), 'f', 3)));
    }
    for (int c = 0; c <= kFairness; ++c) {
        QTableWidgetItem* item = panel::cell(table_, row, c, c >= kFired);
        panel::setText(item, cells[c].text);
        item->setToolTip(cells[c].toolTip);
        if (!item->font().italic()) {
            QFont italic = item->font();
            italic.setItalic(true);
            item->setFont(italic);
        }
    }
}

void ComparisonTable::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && accounting_)
        renderAccounting();
    QWidget::changeEvent(event);
}

}  // namespace ratelab
