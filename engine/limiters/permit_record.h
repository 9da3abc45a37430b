#pragma once

#include <QByteArray>
#include <cstddef>
#include <optional>

namespace ratelab {

// One grant of a Redisson RRateLimiter (and of ratelab's token bucket, which shares the
// layout): a member of the `{name}:permits[:client]` zset written by Lua as
// struct.pack('Bc0I', n, <n id bytes>, permits): one unsigned byte n, n bytes of id, then a
// 4-byte unsigned int in native byte order (little-endian on every platform Redis runs on;
// Lua's struct packs with no alignment). Redisson >= 3.17 uses n = 16, older versions 8.
struct PermitRecord {
    QByteArray id;
    quint32 permits = 0;
};

// Decodes one record; nullopt when the bytes are not exactly 1 + n + 4 long.
std::optional<PermitRecord> decodePermitRecord(const char* data, std::size_t size);

// The inverse (tests and tools): struct.pack('Bc0I', id.size(), id, permits). id.size() <= 255.
QByteArray encodePermitRecord(const QByteArray& id, quint32 permits);

}  // namespace ratelab
