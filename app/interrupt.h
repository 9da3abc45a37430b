#pragma once

#include <QString>
#include <atomic>

namespace ratelab::cli {

// SIGINT, SIGTERM and SIGHUP for the headless commands, installed by runGuarded for every one of
// them. The handler only records the signal in lock-free atomics; the commands' loops check
// interrupted(), the engine's loops that wait on no server check the same flag
// (interrupt_flag.h), and every Redis wait is cut short within
// RedisConnection::kInterruptGrace, so a command ends within a second whatever it is doing. A
// second signal ends the process at once with the same exit code. SIGPIPE is ignored.
void installInterruptHandlers();
bool interrupted();
const std::atomic<bool>& interruptFlag();
// 130 after SIGINT, 143 after SIGTERM, 129 after SIGHUP (128 + the signal, as shells report it).
int interruptExitCode();
// "SIGINT", "SIGTERM" or "SIGHUP".
QString interruptName();

}  // namespace ratelab::cli
