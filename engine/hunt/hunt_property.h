#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "limiters/decision.h"

namespace ratelab {

// What a hunt checks of every decision (docs/command-line.md, "hunt"):
//  - Agree: its `allowed` equals the reference's;
//  - Retry: a refusal with retry_after_ms r >= 0, sent alone again from the state before it,
//    is granted at now + r and (r >= 1) refused at now + r - 1;
//  - Remaining: after a grant reporting remaining k, k single permits more at the same instant
//    are granted and one more refused.
enum class HuntProperty { Agree, Retry, Remaining };

QString huntPropertyName(HuntProperty property);  // "agree", "retry", "remaining"
std::optional<HuntProperty> huntPropertyNamed(const QString& name);
QStringList huntPropertyNames();

// A grant reporting more remaining than this is not probed by `remaining` (that many single
// permits would be decided from its state for one row).
constexpr qint64 kMaxRemainingProbed = 1024;

// How a property failed at one row of a trace.
struct Violation {
    HuntProperty property = HuntProperty::Agree;
    qsizetype row = -1;  // 0-based
    Decision decision;   // the limiter's, at the row
    // Agree: the reference's decision of the row.
    std::optional<Decision> reference;
    // Retry: the refused request sent alone again from the state before it, at probeAtMs
    // (now + r, which should grant, or now + r - 1, which should refuse), and its decision.
    // Remaining: the single permits sent at the grant's instant after it: `probes` of them
    // (k + 1, or fewer up to the first that broke it), `probesGranted` granted; `probe` the
    // decision of the last one sent.
    qint64 probeAtMs = 0;
    bool probeShouldGrant = false;
    std::optional<Decision> probe;
    qint64 probes = 0;
    qint64 probesGranted = 0;
};

}  // namespace ratelab
