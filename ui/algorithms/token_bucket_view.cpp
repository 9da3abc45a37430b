#include <QCoreApplication>

#include "algorithms/algorithm_view.h"
#include "algorithms/token_bucket_page.h"
#include "algorithms/view_list.h"

namespace ratelab {
namespace {

class TokenBucketView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::TokenBucketView)

public:
    TokenBucketView() : AlgorithmView(algorithmOf(LimiterType::TokenBucket)) {}
    QString title() const override { return tr("token bucket"); }
    QString selectorLabel() const override { return tr("Token bucket (Redisson RRateLimiter)"); }
    LimiterPage* makePage(QWidget* parent) const override { return new TokenBucketPage(parent); }
    QString configText(const LimiterSpec& spec) const override {
        return tr("%1 per %2 ms").arg(spec.rate).arg(spec.intervalMs);
    }
};

}  // namespace

const AlgorithmView& tokenBucketView() {
    static const TokenBucketView view;
    return view;
}

}  // namespace ratelab
