#pragma once

#include <string>

namespace ratelab {

// 16 random bytes: the member of a Redisson permit record (as Redisson's generateIdArray).
std::string randomRecordId();
// 12 random hex characters: the id of a sliding-window request, unique within its millisecond
// (its members are "<time><id>" and "<time><id>:<i>").
std::string randomRequestId();
// A random version-4 UUID, "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx" (a script limiter's {uuid}).
std::string randomUuid();
// Throws InputError unless 1 <= permits.
void checkPermits(long long permits);

}  // namespace ratelab
