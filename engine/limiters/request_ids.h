#pragma once

#include <string>

namespace ratelab {

// 16 random bytes: the member of a Redisson permit record (as Redisson's generateIdArray).
std::string randomRecordId();
// 16 random hex characters: unique id of a sliding-window request (its members are "<id>:<i>").
std::string randomRequestId();
// Throws InputError unless 1 <= permits.
void checkPermits(long long permits);

}  // namespace ratelab
