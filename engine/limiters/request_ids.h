#pragma once

#include <string>

namespace ratelab {

// 16 random bytes: the member of a Redisson permit record (as Redisson's generateIdArray).
std::string randomRecordId();
// 12 random hex characters: the id of a sliding-window request, unique within its millisecond
// (its members are "<time><id>" and "<time><id>:<i>").
std::string randomRequestId();
// Throws InputError unless 1 <= permits.
void checkPermits(long long permits);

}  // namespace ratelab
