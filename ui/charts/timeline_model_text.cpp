#include "charts/timeline_model.h"

#include "algorithms/algorithm_view.h"

// The timeline's words: the chart title and what a live edit of the spec changed.

namespace ratelab {
namespace {

QString rulesText(const QVector<SlidingRule>& rules) {
    QStringList parts;
    for (const SlidingRule& rule : rules)
        parts << QStringLiteral("%1/%2 ms").arg(rule.limit).arg(rule.windowMs);
    return parts.join(QStringLiteral(", "));
}

}  // namespace

QString TimelineModel::title() const {
    if (spec_.name.isEmpty())
        return QString();
    QString config = algorithmView(spec_).configText(spec_);
    if (spec_.scope == Scope::PerClient)
        config += tr(" per client");
    QString title =
        QStringLiteral("<b>%1</b> · %2 · %3")
            .arg(spec_.name.toHtmlEscaped(), limiterTypeName(spec_.type), config.toHtmlEscaped());
    // Each gateway keeps its own state: what is drawn from Redis is the first gateway's.
    if (spec_.gateway.mode == GatewayMode::Local)
        title +=
            QStringLiteral(" · <i>%1</i>").arg(tr("Redis state: gateway 0's own").toHtmlEscaped());
    // "Compare with…" chose a run without this limiter: nothing of it is drawn, and why.
    if (baselineMissing())
        title += QStringLiteral(" · <i>%1</i>").arg(baselineNote().toHtmlEscaped());
    return title;
}

QString TimelineModel::describeChange(const LimiterSpec& from, const LimiterSpec& to) {
    QStringList parts;
    const QString arrow = QStringLiteral(" \u2192 ");
    if (from.type != to.type)
        parts << limiterTypeName(from.type) + arrow + limiterTypeName(to.type);
    if (from.rate != to.rate)
        parts << tr("rate %1%2%3").arg(from.rate).arg(arrow).arg(to.rate);
    if (from.intervalMs != to.intervalMs)
        parts << tr("interval %1%2%3 ms").arg(from.intervalMs).arg(arrow).arg(to.intervalMs);
    if (from.periodMs != to.periodMs)
        parts << tr("period %1%2%3 ms").arg(from.periodMs).arg(arrow).arg(to.periodMs);
    if (from.burst != to.burst)
        parts << tr("burst %1%2%3").arg(from.burst).arg(arrow).arg(to.burst);
    if (from.limit != to.limit)
        parts << tr("limit %1%2%3").arg(from.limit).arg(arrow).arg(to.limit);
    if (from.windowMs != to.windowMs)
        parts << tr("window %1%2%3 ms").arg(from.windowMs).arg(arrow).arg(to.windowMs);
    if (from.nodelay != to.nodelay)
        parts << (to.nodelay ? tr("nodelay on") : tr("nodelay off"));
    if (from.flavor != to.flavor)
        parts << tr("flavor %1%2%3").arg(flavorName(from.flavor), arrow, flavorName(to.flavor));
    if (from.interval != to.interval || from.unit != to.unit) {
        parts << tr("window %1 %2%3%4 %5")
                     .arg(from.interval)
                     .arg(calendarUnitName(from.unit), arrow)
                     .arg(to.interval)
                     .arg(calendarUnitName(to.unit));
    }
    if (from.timezone != to.timezone) {
        parts << tr("zone %1%2%3")
                     .arg(QString::fromUtf8(from.timezone), arrow, QString::fromUtf8(to.timezone));
    }
    if (from.rules != to.rules)
        parts << tr("rules %1%2%3").arg(rulesText(from.rules), arrow, rulesText(to.rules));
    if (from.scope != to.scope)
        parts << tr("scope changed");
    if (from.onError != to.onError) {
        parts << tr("on_error %1%2%3")
                     .arg(failurePolicyName(from.onError), arrow, failurePolicyName(to.onError));
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace ratelab
