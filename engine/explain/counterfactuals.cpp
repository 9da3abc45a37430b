#include "explain/counterfactuals.h"

#include <algorithm>

#include "limiters/scratch_keys.h"
#include "redis/redis_error.h"
#include "traffic/decision_path.h"

namespace ratelab {
namespace {

// A probe's copied keys outlive the explanation at most this long (it deletes them itself).
constexpr qint64 kProbeTtlMs = 10 * 60 * 1000;
// How far ahead passes_at_ms is searched.
constexpr qint64 kHorizonMs = 366LL * 24 * 3600 * 1000;

}  // namespace

Counterfactuals::Counterfactuals(RedisRouter& router, const Limiter& before, QString probeName)
    : router_(router), before_(before), probeName_(std::move(probeName)) {}

std::optional<bool> Counterfactuals::grants(const LimiterSpec& spec, const Request& request) {
    LimiterSpec named = spec;
    named.name = probeName_;
    const std::unique_ptr<Limiter> probe = makeLimiter(named, scratchOptions());
    if (!algorithmOf(named).copyState(router_, before_, *probe, request, kProbeTtlMs)) {
        return std::nullopt;
    }
    try {
        return DecisionPath::decideAlone(router_, *probe, request).allowed;
    } catch (const RedisError& e) {
        // A user's script may fail with an argument it never gets in production (a limit of
        // 0): no answer for that value, said in the note. Anything else is Redis's failure.
        if (!probe->userScript() || e.kind() != RedisError::Kind::Reply) {
            throw;
        }
        scriptFailure_ = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

qint64 Counterfactuals::passesAtMs(const Request& request) {
    const LimiterSpec& spec = before_.spec();
    const auto grantedAt = [&](qint64 t) {
        Request at = request;
        at.nowMs = t;
        return grants(spec, at).value_or(false);
    };
    if (grantedAt(request.nowMs)) {
        return request.nowMs;
    }
    // Gallop from now (refused) to a time that grants, then halve the gap: state only drains.
    qint64 refused = request.nowMs;
    qint64 step = 1;
    qint64 granted = -1;
    while (step <= kHorizonMs) {
        const qint64 t = request.nowMs + step;
        if (grantedAt(t)) {
            granted = t;
            break;
        }
        refused = t;
        step *= 2;
    }
    if (granted < 0) {
        return -1;
    }
    while (granted - refused > 1) {
        const qint64 mid = refused + (granted - refused) / 2;
        (grantedAt(mid) ? granted : refused) = mid;
    }
    return granted;
}

std::vector<Counterfactual> Counterfactuals::parameters(const Request& request, bool granted) {
    std::vector<Counterfactual> out;
    for (const NumericParam& param : algorithmOf(before_.spec()).numericParams(before_.spec())) {
        if (param.counterfactual) {
            out.push_back(search(param, request, granted));
        }
    }
    return out;
}

// The value nearest the current one at which the answer is "granted": gallop away from the
// current value in the direction that changes the answer until it does (or a bound is
// reached), then halve the gap. For a field that admits more when larger, "granted" holds from
// some value up; for a window or an interval, up to some value.
Counterfactual Counterfactuals::search(const NumericParam& param, const Request& request,
                                       bool granted) {
    Counterfactual c;
    c.path = param.path;
    c.current = param.value;
    c.moreAdmits = param.moreAdmits;
    const Algorithm& algorithm = algorithmOf(before_.spec());
    bool comparable = true;
    const auto grantsWith = [&](qint64 value) {
        LimiterSpec spec = before_.spec();
        algorithm.setNumericParam(spec, param.path, value);
        const std::optional<bool> answer = grants(spec, request);
        comparable = comparable && answer.has_value();
        return answer.value_or(false);
    };
    scriptFailure_.clear();
    const auto notComparable = [&](qint64 value) {
        if (!scriptFailure_.isEmpty()) {
            return QStringLiteral("your script cannot decide with %1 = %2: %3")
                .arg(param.path)
                .arg(value)
                .arg(scriptFailure_);
        }
        return QStringLiteral("not comparable: the state means something else under another %1")
            .arg(param.path);
    };
    // Walking `up` (towards max) or down; the answer at `from` is `granted`.
    const bool up = param.moreAdmits != granted;
    const qint64 bound = up ? param.max : param.min;
    qint64 same = param.value;  // last value with the current answer
    qint64 other = -1;          // first value with the other answer
    for (qint64 step = 1;; step *= 2) {
        const qint64 v =
            up ? std::min(param.value + step, bound) : std::max(param.value - step, bound);
        if (v == same) {
            break;  // at the bound already
        }
        const bool answer = grantsWith(v);
        if (!comparable) {
            c.note = notComparable(v);
            return c;
        }
        if (answer != granted) {
            other = v;
            break;
        }
        same = v;
        if (v == bound) {
            break;
        }
    }
    if (other >= 0) {
        while (std::abs(other - same) > 1) {
            const qint64 mid = same + (other - same) / 2;
            const bool answer = grantsWith(mid);
            if (!comparable) {
                c.note = notComparable(mid);
                return c;
            }
            (answer == granted ? same : other) = mid;
        }
    }
    // Granted as configured: the furthest value that still grants (`same`). Refused: the
    // nearest that grants (`other`).
    if (granted) {
        c.found = true;
        c.value = same;
    } else if (other >= 0) {
        c.found = true;
        c.value = other;
    } else if (param.value == bound) {
        c.note = QStringLiteral("already at its %1 (%2)")
                     .arg(up ? QStringLiteral("largest") : QStringLiteral("smallest"))
                     .arg(bound);
    } else {
        c.note =
            QStringLiteral("no value of %1 alone grants it from the same state: %2 still refuses")
                .arg(param.path)
                .arg(bound);
    }
    return c;
}

}  // namespace ratelab
