#include "traffic/request_factory.h"

#include <algorithm>

namespace ratelab {
namespace {

// splitmix64: a well-mixed 64-bit hash, so (seed, k) pairs give independent draws.
quint64 mix(quint64 x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double unit(quint64 bits) {
    return double(bits >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace

RequestFactory::RequestFactory(const TrafficSpec& traffic) : traffic_(traffic) {
    makeClients();
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
        names_ = traffic.trace.clients();  // each row names its client by index into these
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

RequestFactory::Draw RequestFactory::draw(qint64 k) const {
    Draw d;
    if (traffic_.shape.type == ShapeSpec::Type::Replay && !traffic_.trace.isEmpty()) {
        const qsizetype row = qsizetype(std::min<qint64>(k, traffic_.trace.size() - 1));
        d.client = traffic_.trace.clientAt(row);
        d.permits = traffic_.trace.permitsAt(row);
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
