#pragma once

#include <QStringList>
#include <QVector>

#include "traffic/traffic_spec.h"

namespace ratelab {

// Who sends the k-th request of a run and for how many permits. A pure function of (seed, k),
// so every worker agrees without sharing state; replay takes both from the trace row k.
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
    Draw draw(qint64 k) const;

    const QStringList& clientNames() const { return names_; }
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
    void makeClients();
    qint64 holdMs(qint64 k) const;

    const TrafficSpec& traffic_;
    QStringList names_;
    QVector<int> traceClient_;    // replay: row -> client index
    QVector<double> cumulative_;  // weights, normalised running sums
    QVector<qint64> skewMs_;      // per client; empty: no skew
    QVector<int> stickyGateway_;  // per client, sticky balance
};

}  // namespace ratelab
