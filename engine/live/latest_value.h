#pragma once

#include <QtGlobal>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>

namespace ratelab {

// A mailbox of one value: a background reader publishes its newest result, the consumer copies
// whatever is newest when it wants to (on its own timer) and never waits on the reader. A newer
// value replaces an older one (coalescing); sequence() counts publications so the consumer can
// tell a new value from one it has already seen.
template <typename T>
class LatestValue {
public:
    void publish(T value) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            value_ = std::move(value);
            ++sequence_;
        }
        published_.notify_all();
    }

    T value() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return value_;
    }

    quint64 sequence() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return sequence_;
    }

    // For consumers without an event loop (the command line): waits until a value after the
    // `seen`-th is published or timeoutMs has passed; true when there is one.
    bool waitNewer(quint64 seen, int timeoutMs) const {
        std::unique_lock<std::mutex> lock(mutex_);
        return published_.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                                   [&] { return sequence_ > seen; });
    }

private:
    mutable std::mutex mutex_;
    mutable std::condition_variable published_;
    T value_{};
    quint64 sequence_ = 0;
};

}  // namespace ratelab
