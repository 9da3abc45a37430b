#pragma once

#include <QString>
#include <QVector>
#include <string_view>

namespace ratelab {

// Why a decision failed. A small fixed set, so each worker counts causes in plain lock-free
// slots like its other counters; anything else counts as Other.
//  - UnknownOutcome: the command was sent, then no reply came before the deadline or the
//    connection was lost: Redis may or may not have applied it. Never a refusal.
//  - Connection causes (refused, no such socket, connect timeout, lost, unreachable): the
//    decision was never sent.
//  - Redis error replies, by their first word (NOPERM, OOM, BUSY, ...), and "max clients".
//  - Sentinel causes: "failover", "no sentinel", "unknown master" (redis/sentinel_connect.cpp).
//  - BadReply: an answer of the wrong shape (e.g. garbage in the limiter's keys).
enum class ErrorCause : int {
    UnknownOutcome,
    ConnectionRefused,
    NoSuchSocket,
    ConnectTimeout,
    ConnectionLost,
    HostUnreachable,
    ConnectionFailed,
    Timeout,
    Interrupted,
    MaxClients,
    Noperm,
    Noauth,
    Wrongpass,
    Oom,
    Busy,
    Loading,
    Readonly,
    Masterdown,
    Clusterdown,
    Misconf,
    Wrongtype,
    Noscript,
    Crossslot,  // a script's keys in more than one hash slot of a cluster (a script limiter's)
    RedirectLoop,
    Failover,       // through sentinels: the named primary is a replica or unreachable
    NoSentinel,     // through sentinels: none of them answered
    UnknownMaster,  // through sentinels: none knows the URL's master name
    ErrReply,       // "ERR ..." and any other error word not listed
    ProtocolError,
    BadReply,
    Other,
    Count
};
constexpr int kErrorCauses = int(ErrorCause::Count);

// "unknown outcome", "connection refused", "NOPERM", "OOM", ...
QString errorCauseName(ErrorCause cause);
// The cause errorCauseName names `name`; Other for any other text.
ErrorCause errorCauseNamed(std::string_view name);
// From a Redis error reply's text: its first word ("ERR max number of clients reached": max
// clients; unlisted words: ERR).
ErrorCause errorCauseOfReply(std::string_view errorText);

// Counts per cause, non-zero ones, largest first: "NOPERM 400, unknown outcome 3".
struct ErrorCauseCount {
    ErrorCause cause;
    qint64 count;
};
QVector<ErrorCauseCount> nonZeroCauses(const qint64 (&counts)[kErrorCauses]);
QString errorCausesText(const QVector<ErrorCauseCount>& causes);

}  // namespace ratelab
