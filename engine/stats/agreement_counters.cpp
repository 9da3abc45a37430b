#include "stats/agreement_counters.h"

namespace ratelab {

AgreementCounters::AgreementCounters(int limiters, int buckets)
    : limiters_(limiters),
      buckets_(bucketed(limiters) ? buckets : 0),
      counts_(limiters * (limiters - 1)),
      bucketCounts_(limiters * (limiters - 1) / 2 * buckets_) {}

qint64 AgreementCounters::allocatedBytes(qint64 limiters, qint64 buckets) {
    const qint64 pairs = limiters * (limiters - 1) / 2;
    const qint64 counters = 2 * pairs + (bucketed(int(limiters)) ? pairs * buckets : 0);
    return counters * qint64(sizeof(std::atomic<long long>));
}

void AgreementCounters::record(const signed char* outcomes, int bucket) {
    int pair = 0;
    for (int a = 0; a < limiters_; ++a) {
        for (int b = a + 1; b < limiters_; ++b, ++pair) {
            if (outcomes[a] < 0 || outcomes[b] < 0) {
                continue;
            }
            counts_.add(2 * pair, 1);
            if (outcomes[a] != outcomes[b]) {
                counts_.add(2 * pair + 1, 1);
                if (bucket >= 0 && bucket < buckets_) {
                    bucketCounts_.add(pair * buckets_ + bucket, 1);
                }
            }
        }
    }
}

void AgreementCounters::addTo(QVector<LimiterDisagreement>& pairs) const {
    if (pairs.isEmpty()) {
        for (int a = 0; a < limiters_; ++a) {
            for (int b = a + 1; b < limiters_; ++b) {
                pairs.append(LimiterDisagreement{a, b, 0, 0, {}});
            }
        }
    }
    for (int pair = 0; pair < pairs.size(); ++pair) {
        LimiterDisagreement& p = pairs[pair];
        p.compared += counts_.get(2 * pair);
        p.disagreed += counts_.get(2 * pair + 1);
        if (buckets_ > 0) {
            p.bucketDisagreed.resize(buckets_);
            for (int b = 0; b < buckets_; ++b) {
                p.bucketDisagreed[b] += bucketCounts_.get(pair * buckets_ + b);
            }
        }
    }
}

}  // namespace ratelab
