#include "explain/explanation_output.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include "limiters/reason_text.h"

namespace ratelab {
namespace {

constexpr int kMembersShown = 5;

QString keyLine(const KeyState& key) {
    const QString ttl = key.ttlMs < 0
                            ? QStringLiteral("no TTL")
                            : QStringLiteral("TTL %1 s").arg(double(key.ttlMs) / 1000.0, 0, 'f', 3);
    QString value;
    if (key.type == QLatin1String("string")) {
        value = key.value.size() > 80 ? key.value.left(77) + QStringLiteral("…") : key.value;
    } else if (key.type == QLatin1String("hash")) {
        QStringList fields;
        for (const auto& [field, v] : key.fields) {
            fields << field + QLatin1Char('=') + v;
        }
        value = fields.join(QStringLiteral(" "));
    } else if (key.type == QLatin1String("zset")) {
        // Scores are grant times (or lease ends); a token bucket's member says its permits.
        QStringList newest;
        for (int i = std::max(0, int(key.members.size()) - kMembersShown); i < key.members.size();
             ++i) {
            const QString& member = key.members[i].first;
            const QString at = reasonTime(qint64(key.members[i].second));
            newest
                << (member.contains(QLatin1String("permit(s)"))
                        ? QStringLiteral("%1 at %2").arg(member.section(QLatin1Char(' '), 0, 1), at)
                        : at);
        }
        value = QStringLiteral("%1 members; newest scores: %2")
                    .arg(key.size)
                    .arg(newest.join(QStringLiteral(", ")));
    }
    return QStringLiteral("  %1  %2  %3  %4").arg(key.key, key.type, ttl, value);
}

QString stateText(const QVector<KeyState>& keys) {
    if (keys.isEmpty()) {
        return QStringLiteral("  (no key: a fresh scope)\n");
    }
    QString out;
    for (const KeyState& key : keys) {
        out += keyLine(key) + QLatin1Char('\n');
    }
    return out;
}

QJsonArray stateJson(const QVector<KeyState>& keys) {
    QJsonArray out;
    for (const KeyState& key : keys) {
        QJsonObject k{{QStringLiteral("key"), key.key},
                      {QStringLiteral("type"), key.type},
                      {QStringLiteral("ttl_ms"), double(key.ttlMs)},
                      {QStringLiteral("size"), double(key.size)}};
        if (key.type == QLatin1String("string")) {
            k.insert(QStringLiteral("value"), key.value);
        } else if (key.type == QLatin1String("hash")) {
            QJsonObject fields;
            for (const auto& [field, v] : key.fields) {
                fields.insert(field, v);
            }
            k.insert(QStringLiteral("fields"), fields);
        } else if (key.type == QLatin1String("zset")) {
            QJsonArray members;
            for (const auto& [member, score] : key.members) {
                members.append(QJsonObject{{QStringLiteral("member"), member},
                                           {QStringLiteral("score"), score}});
            }
            k.insert(QStringLiteral("members"), members);
        }
        out.append(k);
    }
    return out;
}

// "rate >= 11", "interval_ms <= 900"
QString counterfactualText(const Counterfactual& c) {
    if (!c.found) {
        return QStringLiteral("%1: %2").arg(c.path, c.note);
    }
    return QStringLiteral("%1 %2 %3 (now %4)")
        .arg(c.path, c.moreAdmits ? QStringLiteral(">=") : QStringLiteral("<="))
        .arg(c.value)
        .arg(c.current);
}

// "your script granted it; the reference, sliding_window, refuses: <its reason>" (or "agrees").
QString referenceText(const Explanation& e) {
    const ReferenceDecision& r = *e.reference;
    const bool agrees = r.decision.allowed == e.decision.allowed;
    return QStringLiteral("your script %1 it; the reference, %2, %3%4: %5")
        .arg(e.decision.allowed ? QStringLiteral("granted") : QStringLiteral("refused"),
             limiterTypeName(r.spec.type),
             r.decision.allowed ? QStringLiteral("grants") : QStringLiteral("refuses"),
             agrees ? QStringLiteral(" too") : QStringLiteral(" (they disagree)"), r.reason);
}

QString when(const Explanation& e, qint64 ms) {
    return QStringLiteral("%1 (run +%2 ms)").arg(reasonTime(ms)).arg(ms - e.startEpochMs);
}

}  // namespace

QString counterfactualBasisText() {
    return QStringLiteral("each setting alone, decided again on Redis from the same state");
}

QString explanationText(const Explanation& e) {
    QString text;
    QTextStream out(&text);
    const Decision& d = e.decision;
    out << "scenario: " << e.scenario << "\n";
    out << "limiter: " << e.spec.name << " "
        << QJsonDocument(limiterSpecToJson(e.spec)).toJson(QJsonDocument::Compact) << "\n";
    out << QStringLiteral("request #%1 (0-based, schedule order): %2, client %3, %4 permit(s)\n")
               .arg(e.index)
               .arg(when(e, e.request.nowMs), e.request.client)
               .arg(e.request.permits);
    out << QStringLiteral("decision: %1, retry_after_ms %2, remaining %3%4\n")
               .arg(d.allowed ? QStringLiteral("granted") : QStringLiteral("refused"))
               .arg(d.retryAfterMs)
               .arg(d.remaining)
               .arg(d.delayMs > 0 ? QStringLiteral(", delay_ms %1").arg(d.delayMs) : QString());
    out << "why: " << e.reason << "\n";
    if (!e.scriptReply.isEmpty()) {
        out << "script's reply: " << e.scriptReply << "\n";
    }
    if (e.reference) {
        out << "reference: " << referenceText(e) << "\n";
    }
    out << "state before:\n" << stateText(e.stateBefore);
    out << "state after:\n" << stateText(e.stateAfter);
    out << "headers:\n";
    for (const QString& h : e.headers) {
        out << "  " << h << "\n";
    }
    out << QStringLiteral("what would have let it through (%1):\n").arg(counterfactualBasisText());
    if (e.passesAtMs < 0) {
        out << "  no time: it asks for more than the limiter ever allows\n";
    } else if (d.allowed) {
        out << QStringLiteral("  granted as it is, at %1\n").arg(when(e, e.passesAtMs));
    } else {
        out << QStringLiteral("  waiting: granted from %1 on (passes_at_ms %2)\n")
                   .arg(when(e, e.passesAtMs))
                   .arg(e.passesAtMs);
    }
    for (const Counterfactual& c : e.counterfactuals) {
        out << "  " << counterfactualText(c) << "\n";
    }
    if (!e.capacityUsedBy.empty()) {
        QStringList used;
        for (const ClientUse& u : e.capacityUsedBy) {
            used << QStringLiteral("%1 %2").arg(u.client).arg(u.permits);
        }
        out << "grants that counted against it, by client: " << used.join(QStringLiteral(", "))
            << "\n";
    }
    for (const QString& note : e.notes) {
        out << "note: " << note << "\n";
    }
    return text;
}

QJsonObject explanationJson(const Explanation& e) {
    const Decision& d = e.decision;
    const DecisionReason& r = d.reason;
    QJsonObject headers;
    for (const QString& h : e.headers) {
        const qsizetype colon = h.indexOf(QLatin1Char(':'));
        headers.insert(h.left(colon), h.mid(colon + 2));
    }
    QJsonObject found;
    QJsonObject notes;
    for (const Counterfactual& c : e.counterfactuals) {
        if (c.found) {
            found.insert(c.path, double(c.value));
        } else {
            notes.insert(c.path, c.note);
        }
    }
    QJsonArray used;
    for (const ClientUse& u : e.capacityUsedBy) {
        used.append(QJsonObject{{QStringLiteral("client"), u.client},
                                {QStringLiteral("permits"), double(u.permits)}});
    }
    QJsonObject details{{QStringLiteral("limit"), double(r.limit)},
                        {QStringLiteral("counted"), double(r.counted)},
                        {QStringLiteral("from_ms"), double(r.fromMs)},
                        {QStringLiteral("to_ms"), double(r.toMs)}};
    if (r.releaseAtMs >= 0) {
        details.insert(QStringLiteral("release_at_ms"), double(r.releaseAtMs));
    }
    if (r.hasTat || r.tolerance > 0) {
        // GCRA's times as exact fractions of ms: numerator / units_per_ms.
        details.insert(QStringLiteral("units_per_ms"), double(r.unitsPerMs));
        details.insert(QStringLiteral("tolerance"), double(r.tolerance));
        details.insert(QStringLiteral("allow_at"), double(r.allowAt));
        if (r.hasTat) {
            details.insert(QStringLiteral("tat"), double(r.tat));
        }
    }
    if (r.estimate >= 0) {
        details.insert(QStringLiteral("previous"), double(r.previous));
        details.insert(QStringLiteral("current"), double(r.current));
        details.insert(QStringLiteral("weight_per_mille"), double(r.weightPerMille));
        details.insert(QStringLiteral("estimate"), double(r.estimate));
    }
    if (r.levelMilli >= 0) {
        details.insert(QStringLiteral("level_milli"), double(r.levelMilli));
        details.insert(QStringLiteral("capacity_milli"), double(r.capacityMilli));
    }
    QJsonObject out{{QStringLiteral("scenario"), e.scenario},
                    {QStringLiteral("limiter"), e.spec.name},
                    {QStringLiteral("type"), limiterTypeName(e.spec.type)},
                    {QStringLiteral("request"),
                     QJsonObject{{QStringLiteral("index"), double(e.index)},
                                 {QStringLiteral("t_ms"), double(e.request.nowMs)},
                                 {QStringLiteral("run_ms"), double(e.runMs)},
                                 {QStringLiteral("client"), e.request.client},
                                 {QStringLiteral("permits"), double(e.request.permits)}}},
                    {QStringLiteral("allowed"), d.allowed},
                    {QStringLiteral("retry_after_ms"), double(d.retryAfterMs)},
                    {QStringLiteral("remaining"), double(d.remaining)},
                    {QStringLiteral("delay_ms"), double(d.delayMs)},
                    {QStringLiteral("rule"), r.rule},
                    {QStringLiteral("reason"), e.reason},
                    {QStringLiteral("reason_details"), details},
                    {QStringLiteral("passes_at_ms"), double(e.passesAtMs)},
                    {QStringLiteral("state_before"), stateJson(e.stateBefore)},
                    {QStringLiteral("state_after"), stateJson(e.stateAfter)},
                    {QStringLiteral("headers"), headers},
                    {QStringLiteral("counterfactuals"), found},
                    {QStringLiteral("counterfactual_notes"), notes},
                    {QStringLiteral("capacity_used_by"), used},
                    {QStringLiteral("notes"), QJsonArray::fromStringList(e.notes)}};
    if (!e.scriptReply.isEmpty()) {
        out.insert(QStringLiteral("script_reply"), e.scriptReply);
    }
    if (e.reference) {
        const Decision& rd = e.reference->decision;
        out.insert(QStringLiteral("reference"),
                   QJsonObject{{QStringLiteral("type"), limiterTypeName(e.reference->spec.type)},
                               {QStringLiteral("allowed"), rd.allowed},
                               {QStringLiteral("retry_after_ms"), double(rd.retryAfterMs)},
                               {QStringLiteral("remaining"), double(rd.remaining)},
                               {QStringLiteral("rule"), rd.reason.rule},
                               {QStringLiteral("reason"), e.reference->reason},
                               {QStringLiteral("agrees"), rd.allowed == d.allowed}});
    }
    return out;
}

}  // namespace ratelab
