#include "traffic/traffic_schedule.h"

#include <vector>

#include "traffic/seed_mix.h"

namespace ratelab {
namespace {

// Every group's pacer, merged in time order.
class MergedPacer final : public Pacer {
public:
    explicit MergedPacer(std::vector<std::unique_ptr<Pacer>> parts) : parts_(std::move(parts)) {
        for (const auto& part : parts_) {
            fresh_.push_back(part->clone());
        }
        due_.resize(parts_.size());
        sent_.assign(parts_.size(), 0);
        for (size_t g = 0; g < parts_.size(); ++g) {
            due_[g] = parts_[g]->next();
        }
    }

    qint64 next() override {
        size_t first = parts_.size();
        qint64 at = kNoMore;
        for (size_t g = 0; g < parts_.size(); ++g) {
            if (due_[g] < at) {
                at = due_[g];
                first = g;
            }
        }
        if (first == parts_.size()) {
            return kNoMore;
        }
        origin_ = Origin{int(first), sent_[first]++};
        due_[first] = parts_[first]->next();
        return at;
    }
    std::unique_ptr<Pacer> clone() const override {
        std::vector<std::unique_ptr<Pacer>> parts;
        for (const auto& part : fresh_) {
            parts.push_back(part->clone());
        }
        return std::make_unique<MergedPacer>(std::move(parts));
    }
    double targetRate(qint64 atUs) const override {
        double rate = 0;
        for (const auto& part : fresh_) {
            rate += part->targetRate(atUs);
        }
        return rate;
    }
    Origin origin() const override { return origin_; }

private:
    std::vector<std::unique_ptr<Pacer>> parts_;  // walked
    std::vector<std::unique_ptr<Pacer>> fresh_;  // untouched: clones start from these
    std::vector<qint64> due_;                    // each part's next send
    std::vector<qint64> sent_;                   // each part's sends so far
    Origin origin_;
};

}  // namespace

quint64 groupSeed(quint64 seed, const QString& name) {
    // FNV-1a over the name's UTF-8: the seed follows the name, not the group's place.
    quint64 hash = 0xcbf29ce484222325ULL;
    for (const char c : name.toUtf8()) {
        hash = (hash ^ quint64(quint8(c))) * 0x100000001b3ULL;
    }
    return seedMix(seed ^ seedMix(hash));
}

std::unique_ptr<Pacer> makeSchedule(const TrafficSpec& traffic, qint64 durationUs) {
    if (traffic.groups.isEmpty()) {
        return makePacer(traffic.shape, durationUs, traffic.seed);
    }
    std::vector<std::unique_ptr<Pacer>> parts;
    for (const ClientGroup& group : traffic.groups) {
        parts.push_back(makePacer(group.shape, durationUs, groupSeed(traffic.seed, group.name)));
    }
    return std::make_unique<MergedPacer>(std::move(parts));
}

double scheduleExpectedSends(const TrafficSpec& traffic, qint64 durationUs) {
    if (traffic.groups.isEmpty()) {
        return expectedSends(traffic.shape, durationUs);
    }
    double sends = 0;
    for (const ClientGroup& group : traffic.groups) {
        sends += expectedSends(group.shape, durationUs);
    }
    return sends;
}

double schedulePeakRate(const TrafficSpec& traffic) {
    if (traffic.groups.isEmpty()) {
        return peakRate(traffic.shape);
    }
    double peak = 0;
    for (const ClientGroup& group : traffic.groups) {
        peak += peakRate(group.shape);
    }
    return peak;
}

}  // namespace ratelab
