#pragma once

#include <atomic>
#include <memory>

namespace ratelab {

// A fixed-size array of counters with one writer thread and any number of reader threads.
// The writer uses a relaxed load + store (no read-modify-write: nobody else writes), so the
// hot path costs the same as a plain increment while readers never see torn values.
class CounterArray {
public:
    explicit CounterArray(int size = 0)
        : size_(size), data_(std::make_unique<std::atomic<long long>[]>(size_t(size))) {}

    int size() const { return size_; }
    void add(int i, long long amount) {
        std::atomic<long long>& cell = data_[size_t(i)];
        cell.store(cell.load(std::memory_order_relaxed) + amount, std::memory_order_relaxed);
    }
    long long get(int i) const { return data_[size_t(i)].load(std::memory_order_relaxed); }

    // Release/acquire pair: a reader that sees the released value also sees every write the
    // writer made before it (used so a live "fired" never runs ahead of its outcome).
    void addRelease(int i, long long amount) {
        std::atomic<long long>& cell = data_[size_t(i)];
        cell.store(cell.load(std::memory_order_relaxed) + amount, std::memory_order_release);
    }
    long long getAcquire(int i) const { return data_[size_t(i)].load(std::memory_order_acquire); }

private:
    int size_;
    std::unique_ptr<std::atomic<long long>[]> data_;
};

}  // namespace ratelab
