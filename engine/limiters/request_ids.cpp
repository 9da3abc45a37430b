#include "limiters/request_ids.h"

#include <QRandomGenerator>

#include "input_error.h"

namespace ratelab {

namespace {
// One generator per thread, seeded from the global one: the global generator takes a lock on
// every call, and ids are drawn on every decision from every worker thread.
QRandomGenerator& threadGenerator() {
    thread_local QRandomGenerator generator(QRandomGenerator::global()->generate());
    return generator;
}
}  // namespace

std::string randomRecordId() {
    quint32 words[4];
    threadGenerator().fillRange(words);
    return std::string(reinterpret_cast<const char*>(words), sizeof(words));
}

std::string randomRequestId() {
    static const char kHex[] = "0123456789abcdef";
    quint64 value = threadGenerator().generate64();
    std::string id(12, '0');
    for (char& c : id) {
        c = kHex[value & 0xf];
        value >>= 4;
    }
    return id;
}

void checkPermits(long long permits) {
    if (permits < 1) {
        throw InputError(QStringLiteral("permits"),
                         QStringLiteral("must be at least 1, got %1").arg(permits));
    }
}

}  // namespace ratelab
