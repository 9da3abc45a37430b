// RedisConnection's connect through Redis Sentinel: ask the sentinels in turn for the primary,
// open it, and make sure it is one (a sentinel that has not yet seen a failover names the old
// primary, which may be a replica by now).
#include <algorithm>
#include <vector>

#include "redis/redis_connection.h"
#include "redis/redis_error.h"
#include "redis/sentinel_query.h"
#include "url/sentinel_url.h"

namespace ratelab {
namespace {

using Clock = std::chrono::steady_clock;

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& part : parts) {
        out += (out.empty() ? "" : "; ") + part;
    }
    return out;
}

}  // namespace

void RedisConnection::connectThroughSentinels() {
    transport_.reset();
    broken_ = false;
    demoted_ = false;
    pending_ = 0;
    const TimePoint now = Clock::now();
    const std::string shown = url_.toDisplayString().toStdString();
    if (askedBefore_ && now - lastAsk_ < kSentinelAskInterval) {
        throw RedisError(RedisError::Kind::Connect,
                         "no primary through " + shown +
                             " yet (the sentinels are asked at most "
                             "every " +
                             std::to_string(kSentinelAskInterval.count()) + " ms)",
                         lastAskCause_);
    }
    askedBefore_ = true;
    lastAsk_ = now;
    lastRecheck_ = now;  // no recheck from the ROLE command below

    ConnectOptions askOptions = options_;
    askOptions.connectTimeout = std::min(askOptions.connectTimeout, kSentinelTimeout);
    askOptions.commandTimeout = std::min(askOptions.commandTimeout, kSentinelTimeout);

    const int count = int(url_.seeds.size());
    std::vector<std::string> problems;
    std::vector<QString> tried;  // primaries already opened in this round
    bool sentinelAnswered = false;
    bool nameKnown = false;
    for (int k = 0; k < count; ++k) {
        const int index = (sentinelIndex_ + k) % count;
        if (interrupted()) {
            problems.push_back("interrupted");
            break;
        }
        if (hasDeadline_) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
            if (left.count() <= 0) {
                problems.push_back("the deadline passed");
                break;
            }
            askOptions.connectTimeout = std::min(askOptions.connectTimeout, left);
        }
        const SentinelAnswer answer = askSentinel(url_, index, askOptions);
        if (!answer.reached) {
            problems.push_back(answer.problem);
            continue;
        }
        sentinelAnswered = true;
        if (!answer.known) {
            problems.push_back(answer.problem);
            continue;
        }
        nameKnown = true;
        const QString primary = answer.host + QLatin1Char(':') + QString::number(answer.port);
        if (std::find(tried.begin(), tried.end(), primary) != tried.end()) {
            continue;  // another sentinel named the same server: its problem is listed already
        }
        tried.push_back(primary);
        try {
            open(answer.host, answer.port);
            const std::string role = roleOf(*this);
            if (role != "master" && !role.empty()) {
                transport_.reset();
                problems.push_back(address_.toStdString() + ", named by sentinel " +
                                   answer.sentinel.toStdString() + ", is a " + role +
                                   ", not the primary (a failover in progress)");
                continue;
            }
        } catch (const RedisError& e) {
            transport_.reset();
            problems.push_back(std::string(e.what()) + " (named by sentinel " +
                               answer.sentinel.toStdString() + ")");
            continue;
        }
        if (index != sentinelIndex_) {
            sentinel_.reset();
        }
        sentinelIndex_ = index;
        primaryHost_ = answer.host;
        primaryPort_ = answer.port;
        lastRecheck_ = Clock::now();
        lastAskCause_.clear();
        return;
    }
    // Which cause the failed decisions count under: no sentinel to ask, a name no sentinel
    // knows, or sentinels that named no primary that could be reached (a failover).
    lastAskCause_ = interrupted()       ? "interrupted"
                    : !sentinelAnswered ? "no sentinel"
                    : !nameKnown        ? "unknown master"
                                        : "failover";
    throw RedisError(RedisError::Kind::Connect,
                     "no primary for \"" + url_.masterName.toStdString() + "\" through " + shown +
                         ": " + joined(problems),
                     lastAskCause_);
}

void RedisConnection::recheckPrimary() {
    const TimePoint now = Clock::now();
    if (pending_ != 0 || now - lastRecheck_ < kSentinelRecheck) {
        return;
    }
    lastRecheck_ = now;
    SentinelAnswer answer;
    try {
        if (!sentinel_ || sentinel_->broken()) {
            ConnectOptions options = options_;
            options.connectTimeout = std::min(options.connectTimeout, kSentinelTimeout);
            options.commandTimeout = std::min(options.commandTimeout, kSentinelTimeout);
            options.idleCheck = std::chrono::hours(24);  // a failed ask is simply skipped
            sentinel_.reset();  // before connecting: a failed connect leaves none
            sentinel_ =
                std::make_unique<RedisConnection>(sentinelNodeUrl(url_, sentinelIndex_), options);
        }
        if (hasDeadline_) {
            sentinel_->setDeadline(deadline_);
        } else {
            sentinel_->clearDeadline();
        }
        answer = askSentinel(*sentinel_, url_.masterName);
    } catch (const RedisError&) {
        sentinel_.reset();
        return;  // a sentinel gone is no reason to leave a primary that answers
    }
    if (!answer.known || (answer.host == primaryHost_ && answer.port == primaryPort_)) {
        return;
    }
    // The sentinel names another primary: a failover. Nothing is pending, so move now; the
    // sentinels are asked afresh (the answer is checked with ROLE like any other).
    askedBefore_ = false;
    connectThroughSentinels();
}

}  // namespace ratelab
