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

std::string randomUuid() {
    static const char kHex[] = "0123456789abcdef";
    quint64 words[2] = {threadGenerator().generate64(), threadGenerator().generate64()};
    unsigned char bytes[16];
    for (int i = 0; i < 16; ++i) {
        bytes[i] = static_cast<unsigned char>(words[i / 8] >> (8 * (i % 8)));
    }
    bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);  // version 4
    bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);  // the RFC 4122 variant
    std::string out;
    out.reserve(36);
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            out += '-';
        }
        out += kHex[bytes[i] >> 4];
        out += kHex[bytes[i] & 0xf];
    }
    return out;
}

void checkPermits(long long permits) {
    if (permits < 1) {
        throw InputError(QStringLiteral("permits"),
                         QStringLiteral("must be at least 1, got %1").arg(permits));
    }
}

}  // namespace ratelab
