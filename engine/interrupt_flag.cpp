#include "interrupt_flag.h"

#include <string>

namespace ratelab {
namespace {

std::atomic<const std::atomic<bool>*> registered{nullptr};

}  // namespace

void setInterruptFlag(const std::atomic<bool>* flag) {
    registered.store(flag);
}

bool interruptRequested() {
    const std::atomic<bool>* flag = registered.load();
    return flag != nullptr && flag->load();
}

void throwIfInterrupted(const char* what) {
    if (interruptRequested()) {
        throw Interrupted(std::string(what) + ": interrupted");
    }
}

}  // namespace ratelab
