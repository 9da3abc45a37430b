#include "panels/comparison_table.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

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

QString runIdOf(const RunSnapshot& run) {
    QString id = run.scenarioName + QLatin1Char('\n') + QString::number(run.startEpochMs);
    for (const LimiterSnapshot& limiter : run.limiters)
        id += QLatin1Char('\n') + limiter.spec.name;
    return id;
}

// A latency percentile cell. A virtual clock decides each request at its scheduled time without
// waiting for Redis: every latency is 0, and the cell says why.
QString latencyText(const LatencyHistogram::Snapshot& latency, double percentile) {
    if (latency.total == 0)
        return panel::dash();
    if (latency.max == 0)
        return ComparisonTable::tr("0 (virtual)");
    return panel::formatMs(latency.percentile(percentile));
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
        {tr("The limiter's name."),
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
            "request's scheduled send time to this limiter's reply, in ms. A virtual clock "
            "decides at the scheduled time: 0 (virtual). Wait mode: not the wait, see the Clients "
            "tab "
            "and the latency histogram for that."),
         tr("99th percentile of the same time per script call, in ms (1 call in 100 took "
            "longer)."),
         tr("Jain's fairness index over the clients' accepted counts: (\u03a3x)\u00b2 / "
            "(n \u00b7 \u03a3x\u00b2). 1 when every client got as much, 1/n when one client "
            "got everything.")});
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
    red_.clear();
    if (table_->rowCount() != n)
        table_->setRowCount(n);
    for (int i = 0; i < n; ++i) {
        const LimiterSnapshot& s = run.limiters[i];
        const bool holds = s.fired == s.accepted + s.rejected + s.errors;
        if (!holds)
            everBroken_[i] = true;
        lines_.append(accountingLine(s, holds, everBroken_[i]));
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
            panel::setText(panel::cell(table_, i, c, c >= kFired), cells[c]);
        if (s.latency.total > 0 && s.latency.max == 0) {
            for (int c : {kP50, kP99}) {
                table_->item(i, c)->setToolTip(
                    tr("A virtual clock decides each request at its scheduled time without "
                       "waiting for Redis: there is no latency to measure."));
            }
        }
    }
    plainText_ = lines_.join(QLatin1Char('\n'));
    renderAccounting();
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
}

QString ComparisonTable::accountingText() const {
    return plainText_;
}

QStringList ComparisonTable::row(int limiter) const {
    return panel::rowTexts(table_, limiter);
}

void ComparisonTable::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && accounting_)
        renderAccounting();
    QWidget::changeEvent(event);
}

}  // namespace ratelab
