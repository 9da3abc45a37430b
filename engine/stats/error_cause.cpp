#include "stats/error_cause.h"

#include <QStringList>
#include <algorithm>
#include <array>

namespace ratelab {
namespace {

constexpr std::array<const char*, kErrorCauses> kNames = {
    "unknown outcome",
    "connection refused",
    "no such socket",
    "connect timeout",
    "connection lost",
    "host unreachable",
    "connection failed",
    "timeout",
    "interrupted",
    "max clients",
    "NOPERM",
    "NOAUTH",
    "WRONGPASS",
    "OOM",
    "BUSY",
    "LOADING",
    "READONLY",
    "MASTERDOWN",
    "CLUSTERDOWN",
    "MISCONF",
    "WRONGTYPE",
    "NOSCRIPT",
    "CROSSSLOT",
    "redirected too often",
    "failover",
    "no sentinel",
    "unknown master",
    "ERR",
    "protocol error",
    "bad reply",
    "other",
};

}  // namespace

QString errorCauseName(ErrorCause cause) {
    return QString::fromLatin1(kNames[size_t(cause)]);
}

ErrorCause errorCauseNamed(std::string_view name) {
    for (int i = 0; i < kErrorCauses; ++i) {
        if (name == kNames[size_t(i)]) {
            return ErrorCause(i);
        }
    }
    return ErrorCause::Other;
}

ErrorCause errorCauseOfReply(std::string_view text) {
    if (text.substr(0, 30) == "ERR max number of clients reac") {
        return ErrorCause::MaxClients;
    }
    const std::string_view word = text.substr(0, text.find(' '));
    // Only the error words: "connection refused" and the like never come as a reply.
    if (word.empty() || word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != word.npos) {
        return ErrorCause::ErrReply;
    }
    const ErrorCause cause = errorCauseNamed(word);
    return cause == ErrorCause::Other ? ErrorCause::ErrReply : cause;
}

QVector<ErrorCauseCount> nonZeroCauses(const qint64 (&counts)[kErrorCauses]) {
    QVector<ErrorCauseCount> out;
    for (int i = 0; i < kErrorCauses; ++i) {
        if (counts[i] != 0) {
            out.push_back(ErrorCauseCount{ErrorCause(i), counts[i]});
        }
    }
    std::stable_sort(
        out.begin(), out.end(),
        [](const ErrorCauseCount& a, const ErrorCauseCount& b) { return a.count > b.count; });
    return out;
}

QString errorCausesText(const QVector<ErrorCauseCount>& causes) {
    QStringList parts;
    for (const ErrorCauseCount& c : causes) {
        parts.push_back(errorCauseName(c.cause) + QLatin1Char(' ') + QString::number(c.count));
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace ratelab
