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
    };
    Draw draw(qint64 k) const;

    const QStringList& clientNames() const { return names_; }
    // How far this client's clock is off (TrafficSpec::clockSkewMs, clientSkewMs).
    qint64 clockSkewMs(int client) const { return skewMs_.isEmpty() ? 0 : skewMs_[client]; }

private:
    void makeClients();

    const TrafficSpec& traffic_;
    QStringList names_;
    QVector<double> cumulative_;  // weights, normalised running sums
    QVector<qint64> skewMs_;      // per client; empty: no skew
};

}  // namespace ratelab
