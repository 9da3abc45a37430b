#include <QJsonArray>
#include <cmath>
#include <limits>

#include "input_error.h"
#include "json_input.h"
#include "output/summary_json.h"

namespace ratelab {
namespace {

namespace key = output_format::key;

// Doubles hold whole numbers exactly up to 2^53: larger "counts" were never written by ratelab.
constexpr double kMaxWhole = 9007199254740992.0;

// Reads typed values of summary.json; an error names the file and the JSON path.
class Reader {
public:
    explicit Reader(QString file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const QString& path, const QString& what) const {
        throw InputError(file_ + QStringLiteral(": ") + path, what);
    }
    [[noreturn]] void wrong(const QString& path, const QString& expected,
                            const QJsonValue& value) const {
        fail(path,
             QStringLiteral("expected %1, got %2").arg(expected, json_input::describe(value)));
    }

    // A whole number from `min`; absent: `fallback`.
    qint64 whole(const QJsonValue& v, const QString& where, qint64 min = 0,
                 qint64 fallback = 0) const {
        if (v.isUndefined()) {
            return fallback;
        }
        const double n = v.toDouble();
        if (!v.isDouble() || n != std::trunc(n) || std::fabs(n) > kMaxWhole || n < double(min)) {
            wrong(where,
                  min == 0   ? QStringLiteral("a count (a whole number from 0)")
                  : min == 1 ? QStringLiteral("a whole number from 1")
                             : QStringLiteral("a whole number"),
                  v);
        }
        return qint64(n);
    }
    qint64 whole(const QJsonObject& o, const QString& path, QLatin1String k, qint64 min = 0,
                 qint64 fallback = 0) const {
        return whole(o.value(k), json_input::memberPath(path, k), min, fallback);
    }
    qint64 count(const QJsonObject& o, const QString& path, QLatin1String k) const {
        return whole(o, path, k);
    }
    qint64 signedWhole(const QJsonObject& o, const QString& path, QLatin1String k) const {
        return whole(o, path, k, std::numeric_limits<qint64>::min());
    }
    double number(const QJsonObject& o, const QString& path, QLatin1String k,
                  double fallback = 0) const {
        const QJsonValue v = typed(o, path, k, &QJsonValue::isDouble, "a number");
        return v.isUndefined() ? fallback : v.toDouble();
    }
    bool flag(const QJsonObject& o, const QString& path, QLatin1String k,
              bool fallback = false) const {
        const QJsonValue v = typed(o, path, k, &QJsonValue::isBool, "true or false");
        return v.isUndefined() ? fallback : v.toBool();
    }
    QString text(const QJsonObject& o, const QString& path, QLatin1String k) const {
        return typed(o, path, k, &QJsonValue::isString, "a string").toString();
    }
    QJsonObject object(const QJsonObject& o, const QString& path, QLatin1String k) const {
        return typed(o, path, k, &QJsonValue::isObject, "an object").toObject();
    }
    QJsonArray array(const QJsonObject& o, const QString& path, QLatin1String k) const {
        return typed(o, path, k, &QJsonValue::isArray, "an array").toArray();
    }
    // Element i of an array of objects.
    QJsonObject element(const QJsonArray& a, const QString& path, qsizetype i) const {
        if (!a.at(i).isObject()) {
            wrong(json_input::elementPath(path, i), QStringLiteral("an object"), a.at(i));
        }
        return a.at(i).toObject();
    }

private:
    // The value at `k`: undefined when absent, else one that passes `is`.
    QJsonValue typed(const QJsonObject& o, const QString& path, QLatin1String k,
                     bool (QJsonValue::*is)() const, const char* expected) const {
        const QJsonValue v = o.value(k);
        if (!v.isUndefined() && !(v.*is)()) {
            wrong(json_input::memberPath(path, k), QLatin1String(expected), v);
        }
        return v;
    }

    QString file_;
};

QString at(const QString& path, QLatin1String k) {
    return json_input::memberPath(path, k);
}

int formatOf(const Reader& r, const QJsonObject& root) {
    const qint64 format =
        r.whole(root, QStringLiteral("$"), key::kFormat, 1, output_format::kUnversionedFormat);
    if (format > output_format::kFormat) {
        r.fail(at(QStringLiteral("$"), key::kFormat),
               QStringLiteral("format %1 is newer than this ratelab reads (up to %2): the folder "
                              "was written by a newer ratelab; read it with that version")
                   .arg(format)
                   .arg(output_format::kFormat));
    }
    return int(format);
}

Percentiles percentilesFrom(const Reader& r, const QJsonObject& parent, const QString& parentPath,
                            QLatin1String k) {
    const QJsonObject o = r.object(parent, parentPath, k);
    const QString path = at(parentPath, k);
    Percentiles p;
    p.count = r.count(o, path, key::kCount);
    p.p50Ms = r.number(o, path, key::kP50Ms);
    p.p90Ms = r.number(o, path, key::kP90Ms);
    p.p99Ms = r.number(o, path, key::kP99Ms);
    p.p999Ms = r.number(o, path, key::kP999Ms);
    p.maxMs = r.number(o, path, key::kMaxMs);
    p.meanMs = r.number(o, path, key::kMeanMs);
    return p;
}

QMap<QString, qint64> causesFrom(const Reader& r, const QJsonObject& parent,
                                 const QString& parentPath) {
    const QJsonObject o = r.object(parent, parentPath, key::kErrorsByCause);
    const QString path = at(parentPath, key::kErrorsByCause);
    QMap<QString, qint64> causes;
    for (auto it = o.begin(); it != o.end(); ++it) {
        causes.insert(it.key(), r.whole(it.value(), json_input::memberPath(path, it.key())));
    }
    return causes;
}

// The "pipeline" object (absent in older summaries: all 0, one of each requested).
PipelineSummary pipelineFrom(const Reader& r, const QJsonObject& root, const QString& top) {
    PipelineSummary p;
    const QJsonObject o = r.object(root, top, key::kPipeline);
    const QString path = at(top, key::kPipeline);
    p.requested = int(r.whole(o, path, key::kRequested, 1, 1));
    p.threads = int(r.whole(o, path, key::kThreads, 1, 1));
    p.batches = r.count(o, path, key::kBatches);
    p.roundTrips = r.count(o, path, key::kRoundTrips);
    p.decisions = r.count(o, path, key::kDecisions);
    const QJsonObject ended = r.object(o, path, key::kEndedBy);
    for (auto it = ended.begin(); it != ended.end(); ++it) {
        p.endedBy.insert(it.key(), r.whole(it.value(), json_input::memberPath(
                                                           at(path, key::kEndedBy), it.key())));
    }
    p.limitedBy = r.text(o, path, key::kLimitedBy);
    return p;
}

// Every object of the array at `k`, each read by `read(r, object, its path)`.
template <typename List, typename Read>
List listFrom(const Reader& r, const QJsonObject& parent, const QString& parentPath,
              QLatin1String k, Read read) {
    const QJsonArray array = r.array(parent, parentPath, k);
    const QString path = at(parentPath, k);
    List list;
    for (qsizetype i = 0; i < array.size(); ++i) {
        list.push_back(read(r, r.element(array, path, i), json_input::elementPath(path, i)));
    }
    return list;
}

BusiestInterval burstFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    BusiestInterval b;
    b.windowMs = r.whole(o, path, key::kWindowMs, 1, 1);
    b.permits = r.count(o, path, key::kAccepted);
    b.fromMs = r.signedWhole(o, path, key::kFromMs);
    b.firstMs = r.signedWhole(o, path, key::kFirstMs);
    b.lastMs = r.signedWhole(o, path, key::kLastMs);
    return b;
}

std::vector<BusiestInterval> burstsFrom(const Reader& r, const QJsonObject& parent,
                                        const QString& parentPath, QLatin1String k) {
    return listFrom<std::vector<BusiestInterval>>(r, parent, parentPath, k, burstFrom);
}

// A script limiter's comparisons with its reference are read where written (absent: none).
OutcomeTotals countsFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    return {r.count(o, path, key::kFired),
            r.count(o, path, key::kAccepted),
            r.count(o, path, key::kRejected),
            r.count(o, path, key::kErrors),
            r.count(o, path, key::kErrorsOpen),
            r.count(o, path, key::kErrorsClosed),
            r.count(o, path, key::kWaitedMsTotal),
            {r.count(o, path, key::kComparedWithReference),
             r.count(o, path, key::kDisagreementsWithReference)}};
}

ClientSummary clientFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    ClientSummary c;
    c.client = r.text(o, path, key::kClient);
    c.group = r.text(o, path, key::kGroup);
    c.counts = countsFrom(r, o, path);
    c.admittedBurst = burstsFrom(r, o, path, key::kAdmittedBurst);
    return c;
}

// Absent (every client listed): no other clients.
OtherClients otherClientsFrom(const Reader& r, const QJsonObject& parent,
                              const QString& parentPath) {
    OtherClients others;
    if (!parent.contains(key::kOtherClients)) {
        return others;
    }
    const QJsonObject o = r.object(parent, parentPath, key::kOtherClients);
    const QString path = at(parentPath, key::kOtherClients);
    others.clients = r.count(o, path, key::kClients);
    others.counts = countsFrom(r, o, path);
    return others;
}

// The limiter's spec: an object, read leniently (a spec of a newer ratelab reads as none).
std::optional<LimiterSpec> specFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    const QJsonObject spec = r.object(o, path, key::kSpec);
    if (spec.isEmpty()) {
        return std::nullopt;
    }
    try {
        return parseLimiterSpec(spec, at(path, key::kSpec));
    } catch (const InputError&) {
        return std::nullopt;
    }
}

GroupSummary groupFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    GroupSummary g;
    g.group = r.text(o, path, key::kGroup);
    g.clients = r.count(o, path, key::kClients);
    g.counts = countsFrom(r, o, path);
    g.fairness = r.number(o, path, key::kFairness, 1);
    g.admittedBurst = burstsFrom(r, o, path, key::kAdmittedBurst);
    g.admittedBurstRunClock = burstsFrom(r, o, path, key::kAdmittedBurstRunClock);
    return g;
}

LimiterSummary limiterFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    LimiterSummary l;
    if (!o.value(key::kName).isString()) {
        r.fail(at(path, key::kName), o.contains(key::kName)
                                         ? QStringLiteral("expected the limiter's name, got ") +
                                               json_input::describe(o.value(key::kName))
                                         : QStringLiteral("missing: a limiter without a name"));
    }
    l.name = o.value(key::kName).toString();
    l.type = r.text(o, path, key::kType);
    l.onError = r.text(o, path, key::kOnError);
    l.spec = specFrom(r, o, path);
    l.counts = countsFrom(r, o, path);
    l.attempts = r.count(o, path, key::kAttempts);
    l.hasReference = o.contains(key::kComparedWithReference);
    if (o.contains(key::kLeases)) {
        const QJsonObject leases = r.object(o, path, key::kLeases);
        const QString at = json_input::memberPath(path, key::kLeases);
        l.leases = {r.count(leases, at, key::kReleased), r.count(leases, at, key::kLateReleases),
                    r.count(leases, at, key::kLeaked), r.count(leases, at, key::kExpired)};
    }
    if (o.contains(key::kRedisCalls)) {
        l.redisCalls = r.count(o, path, key::kRedisCalls);
        const QJsonArray gateways = r.array(o, path, key::kGateways);
        const QString at = json_input::memberPath(path, key::kGateways);
        for (qsizetype g = 0; g < gateways.size(); ++g) {
            const QJsonObject one = r.element(gateways, at, g);
            const QString where = json_input::elementPath(at, g);
            GatewayCounts counts;
            counts.decisions = r.count(one, where, key::kDecisions);
            counts.redisCalls = r.count(one, where, key::kRedisCalls);
            counts.accepted = r.count(one, where, key::kAccepted);
            l.gateways.append(counts);
        }
    }
    l.errorsByCause = causesFrom(r, o, path);
    const OutcomeTotals& c = l.counts;
    l.accountingExact =
        r.flag(o, path, key::kAccountingExact, c.fired == c.accepted + c.rejected + c.errors);
    l.latency = percentilesFrom(r, o, path, key::kLatency);
    l.waited = percentilesFrom(r, o, path, key::kWaited);
    l.fairness = r.number(o, path, key::kFairness, 1);
    l.clients = listFrom<QVector<ClientSummary>>(r, o, path, key::kClients, clientFrom);
    l.groups = listFrom<QVector<GroupSummary>>(r, o, path, key::kGroups, groupFrom);
    l.otherClients = otherClientsFrom(r, o, path);
    l.admittedBurst = burstsFrom(r, o, path, key::kAdmittedBurst);
    l.admittedBurstRunClock = burstsFrom(r, o, path, key::kAdmittedBurstRunClock);
    return l;
}

CompareOp opFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    const QString name = r.text(o, path, key::kOp);
    QStringList names;
    for (const CompareOp op : {CompareOp::Less, CompareOp::LessEqual, CompareOp::Equal,
                               CompareOp::GreaterEqual, CompareOp::Greater}) {
        if (compareOpName(op) == name) {
            return op;
        }
        names << compareOpName(op);
    }
    r.fail(at(path, key::kOp), QStringLiteral("expected %1, got %2")
                                   .arg(json_input::oneOf(names), json_input::quoted(name)));
}

ExpectationResult expectationFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    ExpectationResult e;
    e.limiter = r.text(o, path, key::kLimiter);
    e.expectation.limiter = e.limiter;
    e.expectation.metric = r.text(o, path, key::kMetric);
    e.expectation.op = opFrom(r, o, path);
    e.expectation.threshold = r.number(o, path, key::kThreshold);
    e.measured = o.value(key::kMeasured).isNull()
                     ? std::numeric_limits<double>::quiet_NaN()
                     : r.number(o, path, key::kMeasured, std::numeric_limits<double>::quiet_NaN());
    e.held = r.flag(o, path, key::kHeld);
    return e;
}

DisagreementSummary disagreementFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    const QJsonArray names = r.array(o, path, key::kLimiters);
    if (names.size() != 2 || !names.at(0).isString() || !names.at(1).isString()) {
        r.fail(at(path, key::kLimiters), QStringLiteral("expected the pair's two limiter names"));
    }
    return {names.at(0).toString(), names.at(1).toString(), r.count(o, path, key::kCompared),
            r.count(o, path, key::kDisagreed)};
}

FailoverSummary failoverFrom(const Reader& r, const QJsonObject& o, const QString& path) {
    FailoverSummary f;
    f.atMs = r.number(o, path, key::kAtMs);
    f.from = r.text(o, path, key::kFrom);
    f.to = r.text(o, path, key::kTo);
    const QJsonObject around = r.object(o, path, key::kAcceptedAround);
    const QString aroundPath = at(path, key::kAcceptedAround);
    for (auto it = around.begin(); it != around.end(); ++it) {
        f.acceptedAround.append(
            {it.key(), r.whole(it.value(), json_input::memberPath(aroundPath, it.key()))});
    }
    return f;
}

}  // namespace

RunSummary summaryFromJson(const QJsonObject& root, const QString& file) {
    const Reader r(file);
    const QString top = QStringLiteral("$");
    RunSummary s;
    s.format = formatOf(r, root);
    if (!root.value(key::kLimiters).isArray()) {
        r.fail(at(top, key::kLimiters),
               root.contains(key::kLimiters)
                   ? QStringLiteral("expected an array, got ") +
                         json_input::describe(root.value(key::kLimiters))
                   : QStringLiteral("missing: not a summary.json written by ratelab run"));
    }
    s.scenario = r.text(root, top, key::kScenario);
    const QString clock = r.text(root, top, key::kClock);
    if (!clock.isEmpty() && clock != output_format::kVirtualClock &&
        clock != output_format::kRealClock) {
        r.fail(at(top, key::kClock),
               QStringLiteral("expected \"%1\" or \"%2\", got %3")
                   .arg(output_format::kVirtualClock, output_format::kRealClock,
                        json_input::quoted(clock)));
    }
    s.virtualClock = clock == output_format::kVirtualClock;
    s.clockSpeed = r.number(root, top, key::kClockSpeed, 1);
    const QString roundTrips = r.text(root, top, key::kRoundTrips);  // absent: older, shared
    if (!roundTrips.isEmpty() && roundTrips != output_format::kSharedRoundTrips &&
        roundTrips != output_format::kPerLimiterRoundTrips) {
        r.fail(at(top, key::kRoundTrips),
               QStringLiteral("expected \"%1\" or \"%2\", got %3")
                   .arg(output_format::kSharedRoundTrips, output_format::kPerLimiterRoundTrips,
                        json_input::quoted(roundTrips)));
    }
    s.roundTripPerLimiter = roundTrips == output_format::kPerLimiterRoundTrips;
    s.pipeline = pipelineFrom(r, root, top);
    s.expectations =
        listFrom<QVector<ExpectationResult>>(r, root, top, key::kExpectations, expectationFrom);
    s.verdict = root.contains(key::kVerdict) ? r.text(root, top, key::kVerdict)
                                             : expectationVerdict(s.expectations);
    s.verdictReason = r.text(root, top, key::kVerdictReason);
    s.startEpochMs = r.signedWhole(root, top, key::kStartEpochMs);
    s.durationS = r.number(root, top, key::kDurationS);
    s.runS = r.number(root, top, key::kRunS);
    s.finished = r.flag(root, top, key::kFinished);
    s.stoppedEarly = r.flag(root, top, key::kStoppedEarly);
    s.errorsByCause = causesFrom(r, root, top);
    s.bucketMs = r.whole(root, top, key::kBucketMs, 1, s.bucketMs);
    s.requests = r.count(root, top, key::kRequests);
    s.targetRate = r.number(root, top, key::kTargetRate);
    s.achievedRate = r.number(root, top, key::kAchievedRate);
    s.scheduleLag = percentilesFrom(r, root, top, key::kScheduleLag);
    s.limiters = listFrom<QVector<LimiterSummary>>(r, root, top, key::kLimiters, limiterFrom);
    s.disagreements =
        listFrom<QVector<DisagreementSummary>>(r, root, top, key::kDisagreements, disagreementFrom);
    s.failovers = listFrom<QVector<FailoverSummary>>(r, root, top, key::kFailovers, failoverFrom);
    return s;
}

}  // namespace ratelab
