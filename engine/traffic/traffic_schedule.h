#pragma once

#include <QString>
#include <memory>

#include "traffic/pacer.h"
#include "traffic/traffic_spec.h"

namespace ratelab {

// The schedule of a whole traffic. One shape: its pacer (makePacer), exactly. Groups: every
// group's pacer merged in time order (at the same µs the earlier group first); each send's
// group and its index among the group's sends come with it (Pacer::origin). Each group draws
// from a seed of its own (groupSeed), so changing one group's shape or clients leaves the other
// groups' send times and clients as they were.
std::unique_ptr<Pacer> makeSchedule(const TrafficSpec& traffic, qint64 durationUs);

// expectedSends and peakRate of the whole traffic: with groups, theirs added up (the peak an
// upper bound: the groups' busiest moments need not meet).
double scheduleExpectedSends(const TrafficSpec& traffic, qint64 durationUs);
double schedulePeakRate(const TrafficSpec& traffic);

// Group `name`'s seed in a traffic of seed `seed`: its Poisson sends and its client draws.
quint64 groupSeed(quint64 seed, const QString& name);

}  // namespace ratelab
