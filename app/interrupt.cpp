#include "interrupt.h"

#include <unistd.h>
#include <csignal>

#include "interrupt_flag.h"

namespace ratelab::cli {
namespace {

std::atomic<bool> flag{false};
std::atomic<int> signalNumber{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler may only touch lock-free atomics");

void onSignal(int number) {
    if (flag.load()) {
        _exit(128 + number);  // the second one: the user means it
    }
    signalNumber.store(number);
    flag.store(true);
}

}  // namespace

void installInterruptHandlers() {
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR and its loop looks
    // SIGHUP (the terminal or the ssh session went away) ends a command as SIGTERM does: what
    // was measured is still written, and a managed server still stopped and its folder removed.
    for (const int number : {SIGINT, SIGTERM, SIGHUP}) {
        sigaction(number, &action, nullptr);
    }
    // A write to a pipe whose reader went away (`| head`) fails with EPIPE, which the command
    // reports (exit 4, standard_output.h), instead of killing the process with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    setInterruptFlag(&flag);
}

bool interrupted() {
    return flag.load();
}

const std::atomic<bool>& interruptFlag() {
    return flag;
}

int interruptExitCode() {
    return 128 + (signalNumber.load() != 0 ? signalNumber.load() : SIGINT);
}

QString interruptName() {
    switch (signalNumber.load()) {
        case SIGTERM:
            return QStringLiteral("SIGTERM");
        case SIGHUP:
            return QStringLiteral("SIGHUP");
        default:
            return QStringLiteral("SIGINT");
    }
}

}  // namespace ratelab::cli
