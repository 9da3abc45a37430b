#include "limiters/permit_record.h"

#include <QtEndian>

namespace ratelab {

std::optional<PermitRecord> decodePermitRecord(const char* data, std::size_t size) {
    if (data == nullptr || size < 1) {
        return std::nullopt;
    }
    const std::size_t n = static_cast<unsigned char>(data[0]);
    if (size != 1 + n + 4) {
        return std::nullopt;
    }
    PermitRecord record;
    record.id = QByteArray(data + 1, int(n));
    record.permits = qFromLittleEndian<quint32>(data + 1 + n);
    return record;
}

QByteArray encodePermitRecord(const QByteArray& id, quint32 permits) {
    QByteArray out;
    out.reserve(1 + id.size() + 4);
    out.append(char(static_cast<unsigned char>(id.size())));
    out.append(id);
    char bytes[4];
    qToLittleEndian<quint32>(permits, bytes);
    out.append(bytes, 4);
    return out;
}

}  // namespace ratelab
