#pragma once

#include <optional>
#include <vector>

#include "hunt/hunt_property.h"
#include "hunt/trace_decider.h"
#include "limiters/limiter_spec.h"
#include "traffic/trace.h"

namespace ratelab {

// A trace decided on Redis and checked: the limiter's decision of every row (and the
// reference's, when there is one), and the first violation of the properties.
struct CheckedTrace {
    std::vector<Decision> limiter;
    std::vector<Decision> reference;  // empty unless agree was checked
    std::optional<Violation> violation;
};

// Checks properties of a limiter on traces, every decision made on Redis (TraceDecider): the
// trace by the limiter and the reference in the same round trips; then every retry's and
// remaining's probe of the trace together, each by the limiter alone from the same state, which
// a scratch copy reaches by deciding the rows before it (the prefix) and then the probe.
class PropertyCheck {
public:
    PropertyCheck(TraceDecider& decider, LimiterSpec limiter, std::optional<LimiterSpec> reference,
                  std::vector<HuntProperty> properties);

    // Decides `trace` and checks the properties row by row: the violation at the earliest row
    // (at one row, in the properties' order). Throws RedisError.
    CheckedTrace check(const Trace& trace) const;
    // The same for one property only (a counterexample keeps the property it broke).
    CheckedTrace check(const Trace& trace, HuntProperty property) const;

    const LimiterSpec& limiter() const { return limiter_; }
    const std::optional<LimiterSpec>& reference() const { return reference_; }
    const std::vector<HuntProperty>& properties() const { return properties_; }

private:
    CheckedTrace check(const Trace& trace, const std::vector<HuntProperty>& properties) const;
    std::optional<Violation> retry(const Trace& trace, qsizetype row, const Decision& d) const;
    std::optional<Violation> remaining(const Trace& trace, qsizetype row, const Decision& d) const;

    TraceDecider& decider_;
    LimiterSpec limiter_;
    std::optional<LimiterSpec> reference_;
    std::vector<HuntProperty> properties_;
};

// The rows [0, end) of a trace, and the same followed by `extra`.
Trace tracePrefix(const Trace& trace, qsizetype end, const QVector<TraceRow>& extra = {});

}  // namespace ratelab
