#include "algorithms/algorithm_view.h"

#include <QCoreApplication>

#include "algorithms/view_list.h"

namespace ratelab {

QVector<TimeSpan> AlgorithmView::levelSpans(const LimiterSpec&, const LimiterState::Level&, qint64,
                                            double, const QString&) const {
    return {};
}

QString AlgorithmView::limitLineLabel(const LimiterSpec&) const {
    return QCoreApplication::translate("ratelab::AlgorithmView", "limit (steady state)");
}

const std::vector<const AlgorithmView*>& algorithmViews() {
    static const std::vector<const AlgorithmView*> list = {
        &tokenBucketView(),    &fixedWindowView(), &slidingWindowView(), &gcraView(),
        &slidingCounterView(), &leakyBucketView(), &concurrencyView(),   &scriptView()};
    return list;
}

const AlgorithmView& algorithmView(LimiterType type) {
    for (const AlgorithmView* view : algorithmViews()) {
        if (view->type() == type)
            return *view;
    }
    return *algorithmViews().front();  // every type has a view (tst_algorithm_views)
}

const AlgorithmView& algorithmViewOf(const QJsonObject& json) {
    const Algorithm* algorithm = algorithmNamed(json.value(QLatin1String("type")).toString());
    return algorithm != nullptr ? algorithmView(algorithm->type()) : *algorithmViews().front();
}

QString AlgorithmView::flavorSuffix(const LimiterSpec& spec) {
    if (spec.flavor == Flavor::Exact) {
        return QString();
    }
    return QCoreApplication::translate("ratelab::AlgorithmView", " · %1's arithmetic")
        .arg(flavorName(spec.flavor));
}

}  // namespace ratelab
