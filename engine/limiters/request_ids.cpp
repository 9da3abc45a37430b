#include "limiters/request_ids.h"

#include <QRandomGenerator>

#include "input_error.h"

namespace ratelab {

std::string randomRecordId() {
    quint32 words[4];
    QRandomGenerator::global()->fillRange(words);
    return std::string(reinterpret_cast<const char*>(words), sizeof(words));
}

std::string randomRequestId() {
    static const char kHex[] = "0123456789abcdef";
    quint64 value = QRandomGenerator::global()->generate64();
    std::string id(16, '0');
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
