#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <vector>

#include "limiters/algorithm.h"
#include "limiters/limiter_state.h"

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ratelab {

class LimiterPage;

// A labelled stretch of run time (seconds) a timeline draws over its plot.
struct TimeSpan {
    double x0 = 0;
    double x1 = 0;
    QString label;
};

// What the window shows of one algorithm: its names, its editor page, how its configuration
// reads, and what its state draws on a timeline. One registration per algorithm (views.cpp),
// beside the engine's descriptor (limiters/algorithm.h); outside them no window code switches
// on LimiterType.
class AlgorithmView {
public:
    virtual ~AlgorithmView() = default;
    AlgorithmView(const AlgorithmView&) = delete;
    AlgorithmView& operator=(const AlgorithmView&) = delete;

    const Algorithm& algorithm() const { return algorithm_; }
    LimiterType type() const { return algorithm_.type(); }

    // "token bucket": the list editor's menu and titles (translated).
    virtual QString title() const = 0;
    // "Token bucket (Redisson RRateLimiter)": the editor's type selector.
    virtual QString selectorLabel() const = 0;
    // Whether the editor's common "rate" field is this type's (the logs and counters have
    // limits instead).
    virtual bool usesCommonRate() const { return true; }
    // Keys of this type's defaults that a spec may leave out (the fixed window's timezone:
    // absent means the system zone): the editor does not fill them in.
    virtual QStringList optionalKeys() const { return {}; }
    // This type's page of the limiter editor, owned by `parent`.
    virtual LimiterPage* makePage(QWidget* parent) const = 0;

    // "10 per 1000 ms", "5 per 2 minutes (Asia/Shanghai)", "5 per 1000 ms, 20 per 60000 ms":
    // the configuration as the timeline titles and the report say it, without the scope.
    virtual QString configText(const LimiterSpec& spec) const = 0;
    // The name of the dashed limit line (limitPerBucket) in the charts' legends: "limit (steady
    // state)", the most the limiter admits per bucket in the long run; the concurrency
    // limiter's is its in-flight limit, the line only what it admits when no grant releases.
    virtual QString limitLineLabel(const LimiterSpec& spec) const;
    // Levels (ChartKind::Levels): what the busiest scope key's level draws, ending at the
    // state's now `nowMs`, which is run time `x` (seconds). `who` names the busiest client
    // (" (busiest client c3)") or is empty.
    virtual QVector<TimeSpan> levelSpans(const LimiterSpec& spec, const LimiterState::Level& level,
                                         qint64 nowMs, double x, const QString& who) const;

protected:
    explicit AlgorithmView(const Algorithm& algorithm) : algorithm_(algorithm) {}
    // " · upstash's arithmetic" for a library flavor, nothing for exact: configText's end.
    static QString flavorSuffix(const LimiterSpec& spec);

private:
    const Algorithm& algorithm_;
};

// The view of a type, of a spec's type; every view in the engine's order (algorithms()).
const AlgorithmView& algorithmView(LimiterType type);
inline const AlgorithmView& algorithmView(const LimiterSpec& spec) {
    return algorithmView(spec.type);
}
const std::vector<const AlgorithmView*>& algorithmViews();
// The view a spec JSON's "type" names (the first when it names none or an unknown one).
const AlgorithmView& algorithmViewOf(const QJsonObject& json);

}  // namespace ratelab
