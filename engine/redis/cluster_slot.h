#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ratelab {

// Redis Cluster key distribution (https://redis.io/docs/reference/cluster-spec/).
constexpr int kClusterSlots = 16384;

// CRC16-CCITT (XMODEM: polynomial 0x1021, initial value 0), as Redis Cluster computes it.
unsigned crc16(std::string_view data);

// The hash slot of a key: CRC16 of the hash tag (the part between the first '{' and the next
// '}', when that part is not empty) or of the whole key, modulo 16384.
int keyHashSlot(std::string_view key);

// A redirection error reply: "MOVED <slot> <host>:<port>" or "ASK <slot> <host>:<port>".
struct ClusterRedirect {
    enum class Kind { Moved, Ask };
    Kind kind = Kind::Moved;
    int slot = 0;
    std::string host;
    int port = 0;
};

// Parses the text of an error reply; nullopt when it is not a well-formed redirection.
std::optional<ClusterRedirect> parseClusterRedirect(std::string_view error);

}  // namespace ratelab
