#include "scenario/summary_size.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "input_limits.h"
#include "memory_size.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {
namespace {

// summary.json is indented four spaces a level: a listed client's or a group's members are five
// levels deep (root, "limiters", the limiter, "clients" or "groups", the row), a limiter's three.
constexpr qint64 kRowMemberIndent = 20;
constexpr qint64 kLimiterMemberIndent = 12;
// What the text holds besides the rows and their figures, at most: the root's own members, a
// limiter's (its spec, latencies, causes, other clients; and per gateway its counts), one
// expectation's result besides its expression and limiter name, one pair of limiters compared.
constexpr qint64 kRootText = 16 * 1024;
constexpr qint64 kLimiterText = 16 * 1024;
constexpr qint64 kGatewayText = 1024;
constexpr qint64 kResultText = 320;
constexpr qint64 kPairText = 256;
// The JSON tree (Qt 6's QJsonObject: 16 bytes a value, keys and strings in a byte array per
// object, a container per object and list), measured and rounded up: a figure's two values and
// its object of five in a list 642 bytes, a client's row without figures 944, a group's 1,500.
constexpr qint64 kFigureTree = 768;
constexpr qint64 kClientTree = 1024;
constexpr qint64 kGroupTree = 2048;
constexpr qint64 kLimiterTree = 32 * 1024;
constexpr qint64 kResultTree = 1024;
constexpr qint64 kRootTree = 64 * 1024;

// Characters of `value` written as a JSON number (a minus sign included).
qint64 numberLength(qint64 value) {
    qint64 length = value < 0 ? 2 : 1;
    for (value = std::llabs(value); value >= 10; value /= 10) {
        ++length;
    }
    return length;
}

// One member line: `indent` spaces, "key": value, a comma and a newline.
qint64 memberLine(qint64 indent, qint64 keyLength, qint64 valueLength) {
    return indent + keyLength + 2 + 2 + valueLength + 2;
}

// How long the numbers of one run's figures are at most.
struct Widths {
    qint64 count = 1;  // accepted permits
    qint64 ms = 1;     // times since the run's start (skewed clocks: either side of it)
    qint64 name = 1;   // a client's name, every character escaped
};

// One admitted-burst figure of window `windowMs` with members at `indent`: its own line
// ("max_accepted_in_any_<N>ms" or, on the run's clock, "max_admitted_in_any_<N>ms_run_clock")
// and its object in the list ({accepted, first_ms, from_ms, last_ms, window_ms}).
qint64 figureText(qint64 indent, qint64 windowMs, bool runClock, const Widths& w) {
    const qint64 key = 20 + numberLength(windowMs) + (runClock ? 12 : 2);
    const qint64 inner = indent + 8;
    return memberLine(indent, key, w.count) + (indent + 4 + 2) + memberLine(inner, 8, w.count) +
           memberLine(inner, 8, w.ms) + memberLine(inner, 7, w.ms) + memberLine(inner, 7, w.ms) +
           memberLine(inner, 9, numberLength(windowMs)) + (indent + 4 + 3);
}

// A row's own members (counts, names, the lists' brackets), its figures aside.
qint64 clientRowText(const Widths& w) {
    return 12 * memberLine(kRowMemberIndent, 15, w.count) + 2 * w.name + 64;
}
qint64 groupRowText(const Widths& w) {
    return 16 * memberLine(kRowMemberIndent, 24, std::max<qint64>(w.count, 24)) +
           6 * spec_limits::kMaxNameLength + 64;
}

qint64 maxPermits(const TrafficSpec& traffic) {
    qint64 most = std::max<qint64>(1, traffic.permitsMax);
    const auto ofTrace = [&most](const Trace& trace) {
        for (qsizetype i = 0; i < trace.size(); ++i) {
            most = std::max(most, trace.permitsAt(i));
        }
    };
    ofTrace(traffic.trace);
    for (const ClientGroup& group : traffic.groups) {
        ofTrace(group.trace);
    }
    return most;
}

qint64 maxSkewMs(const TrafficSpec& traffic) {
    qint64 most = std::llabs(traffic.clockSkewMs);
    for (const qint64 skew : traffic.clientSkewMs) {
        most = std::max(most, std::llabs(skew));
    }
    qint64 gateway = 0;
    for (const qint64 skew : traffic.gateways.clockSkewMs) {
        gateway = std::max(gateway, std::llabs(skew));
    }
    return most + gateway;
}

// The longest client name: "c<i>", "<group>-<i>" or a trace's.
qint64 maxClientName(const TrafficSpec& traffic) {
    qint64 most = 1 + numberLength(std::max(0, traffic.clients - 1));
    const auto ofTrace = [&most](const Trace& trace) {
        for (const QString& client : trace.clients()) {
            most = std::max<qint64>(most, client.toUtf8().size());
        }
    };
    ofTrace(traffic.trace);
    for (const ClientGroup& group : traffic.groups) {
        most = std::max<qint64>(most, group.name.size() + 1 + numberLength(group.clients));
        ofTrace(group.trace);
    }
    return most;
}

}  // namespace

SummarySize estimateSummarySize(const Scenario& scenario) {
    const TrafficSpec& traffic = scenario.traffic;
    const qint64 durationUs = std::llround(traffic.durationS * 1e6);
    const qint64 durationMs = durationUs / 1000 + 1;
    const double requests = std::ceil(std::min(scheduleExpectedSends(traffic, durationUs), 1e15));
    Widths w;
    w.count =
        numberLength(qint64(std::min(1e15, std::max(1.0, requests) * double(maxPermits(traffic)))));
    w.name = 6 * maxClientName(traffic) + 2;  // \uXXXX at worst, and the quotes
    const qint64 groups = traffic.groups.size();
    qint64 clients = traffic.clients;
    if (!traffic.groups.isEmpty()) {
        clients = 0;
        for (const ClientGroup& group : traffic.groups) {
            clients += group.shape.type == ShapeSpec::Type::Replay ? group.trace.clients().size()
                                                                   : group.clients;
        }
    } else if (traffic.shape.type == ShapeSpec::Type::Replay) {
        clients = traffic.trace.clients().size();
    }
    const qint64 listed = std::min<qint64>(clients, output_limits::kMaxListedClients);

    SummarySize s;
    s.textBytes = kRootText;
    s.treeBytes = kRootTree;
    const qint64 limiters = scenario.limiters.size();
    for (int l = 0; l < limiters; ++l) {
        const std::vector<qint64> windows = burstWindowsFor(scenario, l);
        const qint64 longest = windows.empty() ? 0 : windows.back();
        w.ms = numberLength(durationMs + longest + maxSkewMs(traffic)) + 1;
        qint64 rowFigures = 0;      // a listed client's
        qint64 limiterFigures = 0;  // the limiter's and a group's, both clocks
        for (const qint64 windowMs : windows) {
            rowFigures += figureText(kRowMemberIndent, windowMs, false, w);
            limiterFigures += figureText(kLimiterMemberIndent, windowMs, false, w) +
                              figureText(kLimiterMemberIndent, windowMs, true, w);
        }
        const qint64 groupFigures = 2 * rowFigures + 12 * qint64(windows.size());  // run clock
        s.rows += listed + groups;
        s.figures += qint64(windows.size()) * (listed + 2 * groups + 2);
        s.textBytes += kLimiterText + kGatewayText * traffic.gateways.count +
                       6 * scenario.limiters[l].name.size() + limiterFigures +
                       listed * (clientRowText(w) + rowFigures) +
                       groups * (groupRowText(w) + groupFigures);
        s.treeBytes += kLimiterTree + listed * kClientTree + groups * kGroupTree;
    }
    s.treeBytes += s.figures * kFigureTree;
    // Each expectation's result ("*" gives one per limiter), and each pair of limiters compared.
    for (const Expectation& e : scenario.expectations) {
        const qint64 results = e.limiter == QLatin1String("*") ? limiters : 1;
        s.textBytes += results * (kResultText + 2 * (e.text().size() + e.metric.size()) +
                                  6 * spec_limits::kMaxNameLength);
        s.treeBytes += results * kResultTree;
    }
    s.textBytes += limiters * (limiters - 1) / 2 * (kPairText + 12 * spec_limits::kMaxNameLength);
    return s;
}

QString summarySizeNote(const Scenario& scenario) {
    const SummarySize s = estimateSummarySize(scenario);
    if (s.textBytes <= output_limits::kMaxCompareSummaryBytes) {
        return QString();
    }
    return QStringLiteral(
               "summary.json will be up to %1: more than `ratelab compare` reads (%2); it lists "
               "%3 admitted-burst figures (a listed client's per window of its limiter, a "
               "group's and a limiter's two per window): name fewer windows in \"expect\" or use "
               "fewer groups or clients to compare this run")
        .arg(formatBytes(s.textBytes), formatBytes(output_limits::kMaxCompareSummaryBytes),
             QLocale(QLocale::English).toString(s.figures));
}

}  // namespace ratelab
