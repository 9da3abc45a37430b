#pragma once

#include <QMap>
#include <QString>
#include <atomic>
#include <mutex>

#include "limiters/limiter_state.h"
#include "live/run_cost.h"

namespace ratelab {

// The newest limiter states read in the background that the UI has not taken yet: per limiter,
// the chart state, the key listing and the error, a newer one replacing an older. put* returns
// true when the mailbox was empty, so the reader posts one delivery at a time however far the
// UI thread falls behind.
class StateMailbox {
public:
    struct Contents {
        QMap<int, LimiterState> charts;
        QMap<int, LimiterState> keys;  // read with a key listing
        // A virtual run's readings at run-time instants, oldest first, none dropped: each is
        // the state at its nowMs (see RunTimeSampler).
        QMap<int, QVector<LimiterState>> samples;
        QMap<int, QString> errors;
        bool hasCost = false;
        RunCost cost;           // the newest cost reading, when hasCost
        qint64 generation = 0;  // how many dropAll() came before the take
    };

    // `chart` false: only for the key listing (a sampled run draws its samples, not these).
    bool putState(int limiter, LimiterState state, bool listed, bool chart = true);
    bool putSample(int limiter, LimiterState state);
    bool putError(int limiter, const QString& message);  // the error shows until a listing works
    bool putCost(RunCost cost);
    Contents take();
    // Drops everything not taken yet: another run or step session is read from now on. What
    // take() returns after it was put after it (its generation is one more).
    void dropAll();

    void countListing() { listingReads_.fetch_add(1); }
    qint64 listingReads() const { return listingReads_.load(); }

private:
    std::mutex mutex_;
    Contents contents_;
    bool pending_ = false;
    qint64 generation_ = 0;
    std::atomic<qint64> listingReads_{0};
};

}  // namespace ratelab
