#pragma once

#include <QStringList>
#include <QVector>

#include "stats/client_groups.h"
#include "traffic/traffic_spec.h"

namespace ratelab {

// Who sends the k-th request of a run and for how many permits. A pure function of (seed, k),
// so every worker agrees without sharing state; replay takes both from the trace row k. With
// traffic groups, of (seed, the send's group, its index among the group's sends): the schedule
// says which group sends (Pacer::origin), and the group's own clients draw.
class RequestFactory {
public:
    explicit RequestFactory(const TrafficSpec& traffic);

    struct Draw {
        int client = 0;  // index into clientNames()
        qint64 permits = 1;
        // When a grant of this request releases what it holds, after the grant (ms); -1 never
        // (no hold in the traffic, or this request leaks).
        qint64 holdMs = -1;
    };
    // Request k of the schedule; with groups `origin` is its send's (Pacer::origin).
    Draw draw(qint64 k, Pacer::Origin origin = {}) const;

    const QStringList& clientNames() const { return names_; }
    // The traffic's groups and each client's (empty without groups).
    const ClientGroups& groups() const { return groups_; }
    // The gateway request k of `client` goes through (TrafficSpec::gateways): k mod G (round
    // robin) or FNV-1a-32 of the client's name (UTF-8) mod G (sticky); and that gateway's clock
    // offset.
    int gatewayOf(qint64 k, int client) const;
    qint64 gatewaySkewMs(int gateway) const {
        const QVector<qint64>& skews = traffic_.gateways.clockSkewMs;
        return skews.isEmpty() ? 0 : skews[gateway];
    }
    // How far this client's clock is off (TrafficSpec::clockSkewMs, clientSkewMs).
    qint64 clockSkewMs(int client) const { return skewMs_.isEmpty() ? 0 : skewMs_[client]; }

private:
    // One group's clients: generated (firstClient .. firstClient + clients - 1) or a trace's.
    struct Group {
        const ClientGroup* spec = nullptr;
        int firstClient = 0;
        int clients = 0;
        quint64 seed = 0;
        QVector<int> traceClient;  // replay: row -> client index
    };
    void makeClients();
    void makeGroups();
    // A trace's distinct clients, in order of first appearance, as clients of group `group`;
    // returns row -> client index.
    QVector<int> addTraceClients(const QVector<TraceRow>& trace, int group);
    qint64 drawPermits(quint64 bits) const;
    qint64 holdMs(qint64 k) const;

    const TrafficSpec& traffic_;
    QStringList names_;
    QVector<int> traceClient_;    // replay: row -> client index
    QVector<double> cumulative_;  // weights, normalised running sums
    QVector<qint64> skewMs_;      // per client; empty: no skew
    QVector<Group> groupDraws_;
    ClientGroups groups_;
    QVector<int> stickyGateway_;  // per client, sticky balance
};

}  // namespace ratelab
