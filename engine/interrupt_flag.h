#pragma once

#include <atomic>
#include <stdexcept>

namespace ratelab {

// The process-wide request to stop: the command line's SIGINT, SIGTERM and SIGHUP set the flag
// registered here (app/interrupt.*). Every Redis wait is cut short by it (RedisConnection), and
// the long loops that wait on no server (reading a trace or an access log, walking a schedule)
// check it between two pieces of their work, so that a command ends within a second whatever
// it is doing. The window registers no flag: nothing is ever interrupted there.
void setInterruptFlag(const std::atomic<bool>* flag);
bool interruptRequested();

// What such a loop throws once interruptRequested(): "<what>: interrupted".
class Interrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws Interrupted naming `what` when an interrupt was requested.
void throwIfInterrupted(const char* what);

}  // namespace ratelab
