#include "stats/agreement_counters.h"

namespace ratelab {

AgreementCounters::AgreementCounters(int limiters)
    : limiters_(limiters), counts_(limiters * (limiters - 1)) {}

void AgreementCounters::record(const signed char* outcomes) {
    int pair = 0;
    for (int a = 0; a < limiters_; ++a) {
        for (int b = a + 1; b < limiters_; ++b, ++pair) {
            if (outcomes[a] < 0 || outcomes[b] < 0) {
                continue;
            }
            counts_.add(2 * pair, 1);
            if (outcomes[a] != outcomes[b]) {
                counts_.add(2 * pair + 1, 1);
            }
        }
    }
}

void AgreementCounters::addTo(QVector<LimiterDisagreement>& pairs) const {
    if (pairs.isEmpty()) {
        for (int a = 0; a < limiters_; ++a) {
            for (int b = a + 1; b < limiters_; ++b) {
                pairs.append(LimiterDisagreement{a, b, 0, 0});
            }
        }
    }
    for (int pair = 0; pair < pairs.size(); ++pair) {
        pairs[pair].compared += counts_.get(2 * pair);
        pairs[pair].disagreed += counts_.get(2 * pair + 1);
    }
}

}  // namespace ratelab
