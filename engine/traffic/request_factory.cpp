#include "traffic/request_factory.h"

#include <QHash>
#include <algorithm>
#include <cmath>

#include "traffic/seed_mix.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {
namespace {

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
    if (traffic.groups.isEmpty()) {
        makeClients();
    } else {
        makeGroups();
    }
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

QVector<int> RequestFactory::addTraceClients(const QVector<TraceRow>& trace, int group) {
    QVector<int> rowClient;
    rowClient.reserve(trace.size());
    QHash<QString, int> index;
    for (const TraceRow& row : trace) {
        auto it = index.find(row.client);
        if (it == index.end()) {
            it = index.insert(row.client, names_.size());
            names_.push_back(row.client);
            groups_.ofClient.push_back(group);
        }
        rowClient.push_back(it.value());
    }
    return rowClient;
}

void RequestFactory::makeClients() {
    const TrafficSpec& traffic = traffic_;
    if (traffic.shape.type == ShapeSpec::Type::Replay) {
        traceClient_ = addTraceClients(traffic.trace, 0);
        groups_.ofClient.clear();  // no groups
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
    const quint64 leak = seedMix(traffic_.seed ^ seedMix(static_cast<quint64>(k) ^ 0x686f6c64ULL));
    if (unit(leak) * 100 < traffic_.leakPct) {
        return -1;
    }
    if (hold.type == HoldSpec::Type::Constant) {
        return hold.ms;
    }
    const double u = unit(seedMix(leak));  // in [0, 1): 1 - u in (0, 1]
    return static_cast<qint64>(std::llround(-std::log(1.0 - u) * double(hold.ms)));
}

void RequestFactory::makeGroups() {
    for (int g = 0; g < traffic_.groups.size(); ++g) {
        const ClientGroup& spec = traffic_.groups[g];
        groups_.names.push_back(spec.name);
        Group group;
        group.spec = &spec;
        group.firstClient = int(names_.size());
        group.seed = groupSeed(traffic_.seed, spec.name);
        if (spec.shape.type == ShapeSpec::Type::Replay) {
            group.traceClient = addTraceClients(spec.trace, g);
        } else {
            for (int i = 0; i < spec.clients; ++i) {
                names_.push_back(spec.name + QLatin1Char('-') + QString::number(i));
                groups_.ofClient.push_back(g);
            }
        }
        group.clients = int(names_.size()) - group.firstClient;
        groupDraws_.push_back(std::move(group));
    }
}

qint64 RequestFactory::drawPermits(quint64 bits) const {
    const qint64 span = traffic_.permitsMax - traffic_.permitsMin + 1;
    return traffic_.permitsMin + static_cast<qint64>(bits % static_cast<quint64>(span));
}

RequestFactory::Draw RequestFactory::draw(qint64 k, Pacer::Origin origin) const {
    Draw d;
    d.holdMs = holdMs(k);
    if (!groupDraws_.isEmpty()) {
        const Group& group = groupDraws_[std::clamp(origin.group, 0, int(groupDraws_.size()) - 1)];
        const qint64 index = std::max<qint64>(0, origin.index);
        if (group.spec->shape.type == ShapeSpec::Type::Replay) {
            const int row = static_cast<int>(std::min<qint64>(index, group.traceClient.size() - 1));
            d.client = group.traceClient[row];
            d.permits = group.spec->trace[row].permits;
            return d;
        }
        const quint64 a = seedMix(group.seed ^ seedMix(static_cast<quint64>(index)));
        d.client = group.firstClient + static_cast<int>(a % static_cast<quint64>(group.clients));
        d.permits = drawPermits(seedMix(a));
        return d;
    }
    if (!traceClient_.isEmpty()) {
        const int row = static_cast<int>(std::min<qint64>(k, traceClient_.size() - 1));
        d.client = traceClient_[row];
        d.permits = traffic_.trace[row].permits;
        return d;
    }
    const quint64 a = seedMix(traffic_.seed ^ seedMix(static_cast<quint64>(k)));
    const quint64 b = seedMix(a);
    if (cumulative_.isEmpty()) {
        d.client = static_cast<int>(a % static_cast<quint64>(names_.size()));
    } else {
        const double u = unit(a);
        d.client = static_cast<int>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) -
                                    cumulative_.begin());
        d.client = std::min(d.client, static_cast<int>(names_.size()) - 1);
    }
    d.permits = drawPermits(b);
    return d;
}

}  // namespace ratelab
