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
    // The two policy columns are parts of Errors (on_error "open" / "closed").
    table_->horizontalHeaderItem(kErrorsOpen)
        ->setToolTip(tr("Failed decisions let through by on_error \"open\" "
                        "(part of Errors, not of Accepted)"));
    table_->horizontalHeaderItem(kErrorsClosed)
        ->setToolTip(tr("Failed decisions refused by on_error \"closed\" "
                        "(part of Errors, not of Rejected)"));
    // A few rows only: fitting the columns to their contents costs next to nothing.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(false);
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
            s.latency.total ? panel::formatMs(s.latency.percentile(50)) : panel::dash(),
            s.latency.total ? panel::formatMs(s.latency.percentile(99)) : panel::dash(),
            locale.toString(s.fairness, 'f', 3),
        };
        for (int c = 0; c <= kFairness; ++c)
            panel::setText(panel::cell(table_, i, c, c >= kFired), cells[c]);
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
