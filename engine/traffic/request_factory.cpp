#include "traffic/request_factory.h"

#include <QHash>
#include <algorithm>
#include <cmath>

namespace ratelab {
namespace {

// splitmix64: a well-mixed 64-bit hash, so (seed, k) pairs give independent draws.
quint64 mix(quint64 x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

quint32 fnv1a32(const QByteArray& bytes) {
    quint32 h = 2166136261u;
    for (const char c : bytes) {
        h = (h ^ quint32(quint8(c))) * 16777619u;
    }
    return h;
}

double unit(quint64 bits) {
    return double(bits >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace

RequestFactory::RequestFactory(const TrafficSpec& traffic) : traffic_(traffic) {
    makeClients();
    if (traffic.gateways.balance == GatewaysSpec::Balance::Sticky) {
        for (const QString& name : std::as_const(names_)) {
            stickyGateway_.push_back(
                int(fnv1a32(name.toUtf8()) % quint32(std::max(1, traffic.gateways.count))));
        }
    }
    if (traffic.clockSkewMs != 0 || !traffic.clientSkewMs.isEmpty()) {
        for (const QString& name : std::as_const(names_)) {
            skewMs_.push_back(traffic.clientSkewMs.isEmpty() ? traffic.clockSkewMs
                                                             : traffic.clientSkewMs.value(name));
        }
    }
}

void RequestFactory::makeClients() {
    const TrafficSpec& traffic = traffic_;
    if (traffic.shape.type == ShapeSpec::Type::Replay) {
        QHash<QString, int> index;
        for (const TraceRow& row : traffic.trace) {
            auto it = index.find(row.client);
            if (it == index.end()) {
                it = index.insert(row.client, names_.size());
                names_.push_back(row.client);
            }
            traceClient_.push_back(it.value());
        }
        return;
    }
    for (int i = 0; i < traffic.clients; ++i) {
        names_.push_back(QStringLiteral("c%1").arg(i));
    }
    if (!traffic.clientWeights.isEmpty()) {
        double total = 0;
        for (double w : traffic.clientWeights) {
            total += w;
        }
        double running = 0;
        for (double w : traffic.clientWeights) {
            running += w / total;
            cumulative_.push_back(running);
        }
        cumulative_.back() = 1.0;
    }
}

int RequestFactory::gatewayOf(qint64 k, int client) const {
    if (!stickyGateway_.isEmpty()) {
        return stickyGateway_[client];
    }
    return int(k % std::max(1, traffic_.gateways.count));
}

qint64 RequestFactory::holdMs(qint64 k) const {
    const HoldSpec& hold = traffic_.hold;
    if (hold.type == HoldSpec::Type::None) {
        return -1;
    }
    // Draws of their own, apart from the client's and the permits'.
    const quint64 leak = mix(traffic_.seed ^ mix(static_cast<quint64>(k) ^ 0x686f6c64ULL));
    if (unit(leak) * 100 < traffic_.leakPct) {
        return -1;
    }
    if (hold.type == HoldSpec::Type::Constant) {
        return hold.ms;
    }
    const double u = unit(mix(leak));  // in [0, 1): 1 - u in (0, 1]
    return static_cast<qint64>(std::llround(-std::log(1.0 - u) * double(hold.ms)));
}

RequestFactory::Draw RequestFactory::draw(qint64 k) const {
    Draw d;
    d.holdMs = holdMs(k);
    if (!traceClient_.isEmpty()) {
        const int row = static_cast<int>(std::min<qint64>(k, traceClient_.size() - 1));
        d.client = traceClient_[row];
        d.permits = traffic_.trace[row].permits;
        return d;
    }
    const quint64 a = mix(traffic_.seed ^ mix(static_cast<quint64>(k)));
    const quint64 b = mix(a);
    if (cumulative_.isEmpty()) {
        d.client = static_cast<int>(a % static_cast<quint64>(names_.size()));
    } else {
        const double u = unit(a);
        d.client = static_cast<int>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) -
                                    cumulative_.begin());
        d.client = std::min(d.client, static_cast<int>(names_.size()) - 1);
    }
    const qint64 span = traffic_.permitsMax - traffic_.permitsMin + 1;
    d.permits = traffic_.permitsMin + static_cast<qint64>(b % static_cast<quint64>(span));
    return d;
}

}  // namespace ratelab
