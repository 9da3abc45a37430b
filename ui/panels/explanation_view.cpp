#include "panels/explanation_view.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEvent>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QTimeZone>
#include <QVBoxLayout>

#include "algorithms/algorithm_view.h"
#include "explain/explanation_output.h"
#include "limiters/reason_text.h"
#include "style/palette_colors.h"

namespace ratelab {
namespace {

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

QString keyValue(const KeyState& key) {
    if (key.type == QLatin1String("string"))
        return esc(key.value);
    if (key.type == QLatin1String("hash")) {
        QStringList fields;
        for (const auto& [field, v] : key.fields)
            fields << esc(field + QLatin1Char('=') + v);
        return fields.join(QStringLiteral("<br>"));
    }
    if (key.type == QLatin1String("zset")) {
        QStringList times;
        const int from = std::max(0, int(key.members.size()) - 5);
        for (int i = from; i < key.members.size(); ++i)
            times << esc(reasonTime(qint64(key.members[i].second)));
        return QCoreApplication::translate("ratelab::ExplanationView", "%1 entries, newest at %2")
            .arg(key.size)
            .arg(times.join(QStringLiteral(", ")));
    }
    return esc(key.value);
}

QString keysTable(const QVector<KeyState>& keys) {
    if (keys.isEmpty())
        return QCoreApplication::translate("ratelab::ExplanationView",
                                           "<p><i>no key: this scope starts fresh</i></p>");
    QString out = QStringLiteral("<table cellpadding=\"3\">");
    for (const KeyState& key : keys) {
        QString ttl = key.ttlMs < 0
                          ? QStringLiteral("–")
                          : QStringLiteral("%1 s").arg(double(key.ttlMs) / 1000.0, 0, 'f', 1);
        if (key.ttlMs >= kClockStandstillMs)
            ttl += QCoreApplication::translate("ratelab::ExplanationView",
                                               " (stepping keeps keys a day)");
        out +=
            QStringLiteral("<tr><td><code>%1</code></td><td>%2</td><td>TTL %3</td><td>%4</td></tr>")
                .arg(esc(key.key), esc(key.type), ttl, keyValue(key));
    }
    return out + QStringLiteral("</table>");
}

// The limiter's name in the scenario, which `ratelab explain --limiter` takes: a gateway of mode
// local decides on its own "<name>@g<g>", the name its explanation shows.
QString scenarioLimiterName(const LimiterSpec& spec) {
    static const QRegularExpression gatewaySuffix(QStringLiteral("@g\\d+$"));
    QString name = spec.name;
    if (spec.gateway.mode == GatewayMode::Local)
        name.remove(gatewaySuffix);
    return name;
}

}  // namespace

ExplanationView::ExplanationView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    text_ = new QTextBrowser(this);
    text_->setObjectName(QStringLiteral("explanation"));
    text_->setOpenLinks(false);
    layout->addWidget(text_);
    show(std::nullopt, tr("Step (F10) a request, or click a timeline of a virtual-clock run: "
                          "why it was granted or refused shows here."));
}

void ExplanationView::show(const std::optional<Explanation>& explanation,
                           const QString& placeholder) {
    shown_ = explanation;
    placeholder_ = placeholder;
    render();
}

QString ExplanationView::plainText() const {
    return text_->toPlainText();
}

void ExplanationView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange)
        render();  // the outcome's colours follow the palette
    QWidget::changeEvent(event);
}

void ExplanationView::render() {
    text_->setHtml(shown_ ? html(*shown_)
                          : QStringLiteral("<p><i>%1</i></p>").arg(esc(placeholder_)));
}

// A script limiter: its reply as Redis gave it, beside its reference's decision of the same
// request and that reference's reason, and whether the two agree (the disagreement in the
// palette's error colour and in words, readable without colour).
QString ExplanationView::scriptAndReference(const Explanation& e) const {
    if (e.scriptReply.isEmpty() && !e.reference)
        return QString();
    const auto outcome = [](bool allowed) { return allowed ? tr("granted") : tr("refused"); };
    QString out = QStringLiteral("<h3>%1</h3>").arg(tr("Your script and its reference"));
    out += QStringLiteral(
               "<table cellpadding=\"4\" border=\"1\" style=\"border-collapse:"
               "collapse\" width=\"100%\"><tr><th align=\"left\">%1</th>")
               .arg(tr("Your script's reply"));
    if (e.reference) {
        out +=
            QStringLiteral("<th align=\"left\">%1</th>")
                .arg(tr("The reference, %1")
                         .arg(esc(algorithmView(e.reference->spec).title() + QStringLiteral(": ") +
                                  algorithmView(e.reference->spec).configText(e.reference->spec))));
    }
    out += QStringLiteral("</tr><tr valign=\"top\"><td><code>%1</code><br>%2</td>")
               .arg(esc(e.scriptReply.isEmpty() ? tr("(not kept)") : e.scriptReply),
                    tr("read as: <b>%1</b>").arg(outcome(e.decision.allowed)));
    if (e.reference) {
        out += QStringLiteral("<td><b>%1</b>: %2</td>")
                   .arg(outcome(e.reference->decision.allowed), esc(e.reference->reason));
    }
    out += QStringLiteral("</tr></table>");
    if (!e.reference)
        return out + tr("<p>No reference: nothing to compare this decision with.</p>");
    if (e.reference->decision.allowed == e.decision.allowed) {
        return out + tr("<p>They agree: the reference %1 it too.</p>")
                         .arg(e.decision.allowed ? tr("grants") : tr("refuses"));
    }
    return out + QStringLiteral("<p style=\"color:%1\"><b>%2</b></p>")
                     .arg(style::errorColor(palette()).name(),
                          tr("They disagree: your script %1 it; the reference %2 it.")
                              .arg(outcome(e.decision.allowed),
                                   e.reference->decision.allowed ? tr("grants") : tr("refuses")));
}

QString ExplanationView::html(const Explanation& e) const {
    const Decision& d = e.decision;
    const QPalette& p = palette();
    // A refusal in the palette's readable red, a grant in its text colour.
    const QString outcomeColor =
        (d.allowed ? p.color(QPalette::Text) : style::errorColor(p)).name();
    QString out;
    out += QStringLiteral("<h2 style=\"color:%1\">%2</h2>")
               .arg(outcomeColor, d.allowed ? tr("%1: granted").arg(esc(e.spec.name))
                                            : tr("%1: refused").arg(esc(e.spec.name)));
    // Numbered as `ratelab explain --request` numbers it, and as the window does everywhere.
    out += tr("<p>Request #%1 at %2 (run +%3 ms) from <b>%4</b>, %5 permit(s).<br>"
              "<small>Requests are numbered from 0 in schedule order: <code>ratelab explain "
              "SCENARIO.json --limiter %6 --request %1</code> explains this one.</small></p>")
               .arg(e.index)
               .arg(esc(reasonTime(e.request.nowMs)))
               .arg(e.runMs)
               .arg(esc(e.request.client))
               .arg(e.request.permits)
               .arg(esc(scenarioLimiterName(e.spec)));
    out += QStringLiteral("<p style=\"font-size:large\"><b>%1</b></p>").arg(esc(e.reason));
    out += scriptAndReference(e);
    // A refusal: what would have let it through; a grant: how much room it had.
    out += QStringLiteral("<h3>%1</h3>")
               .arg(d.allowed
                        ? tr("How much room it had (%1)").arg(counterfactualBasisText())
                        : tr("What would have let it through (%1)").arg(counterfactualBasisText()));
    QStringList what;
    if (e.passesAtMs < 0)
        what << tr("No wait: it asks for more than the limiter ever allows.");
    else if (!d.allowed)
        what << tr("Waiting until %1 (%2 ms later).")
                    .arg(esc(reasonTime(e.passesAtMs)))
                    .arg(e.passesAtMs - e.request.nowMs);
    for (const Counterfactual& c : e.counterfactuals) {
        if (c.found && d.allowed)
            what << tr("<code>%1 %2 %3</code> would still grant it (now %4)")
                        .arg(esc(c.path), c.moreAdmits ? QStringLiteral("≥") : QStringLiteral("≤"))
                        .arg(c.value)
                        .arg(c.current);
        else if (c.found)
            what << tr("<code>%1 %2 %3</code> (now %4)")
                        .arg(esc(c.path), c.moreAdmits ? QStringLiteral("≥") : QStringLiteral("≤"))
                        .arg(c.value)
                        .arg(c.current);
        else
            what << QStringLiteral("<code>%1</code>: %2").arg(esc(c.path), esc(c.note));
    }
    out += QStringLiteral("<ul><li>%1</li></ul>").arg(what.join(QStringLiteral("</li><li>")));
    if (!e.capacityUsedBy.empty()) {
        // A global limiter: whose grants stood in the interval that counted.
        QStringList used;
        for (const ClientUse& u : e.capacityUsedBy)
            used << tr("%1: %2").arg(esc(u.client)).arg(u.permits);
        out += tr("<p>Grants that counted against it, by client: %1</p>")
                   .arg(used.join(QStringLiteral(", ")));
    }
    out += QStringLiteral("<h3>%1</h3>").arg(tr("Redis just before"));
    out += keysTable(e.stateBefore);
    out += QStringLiteral("<h3>%1</h3>").arg(tr("Redis just after"));
    out += keysTable(e.stateAfter);
    out += QStringLiteral("<h3>%1</h3><pre>%2</pre>")
               .arg(tr("HTTP headers a server would send"), esc(e.headers.join(QLatin1Char('\n'))));
    return out;
}

}  // namespace ratelab
