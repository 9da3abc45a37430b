#include "redis/cluster_slot.h"

#include <array>
#include <charconv>

namespace ratelab {
namespace {

constexpr std::array<unsigned short, 256> makeCrc16Table() {
    std::array<unsigned short, 256> table{};
    for (unsigned i = 0; i < 256; ++i) {
        unsigned crc = i << 8;
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1;
        }
        table[i] = static_cast<unsigned short>(crc & 0xffff);
    }
    return table;
}

constexpr std::array<unsigned short, 256> kCrc16Table = makeCrc16Table();

bool parseInt(std::string_view text, int& out) {
    if (text.empty()) {
        return false;
    }
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

unsigned crc16(std::string_view data) {
    unsigned crc = 0;
    for (unsigned char c : data) {
        crc = ((crc << 8) ^ kCrc16Table[((crc >> 8) ^ c) & 0xff]) & 0xffff;
    }
    return crc;
}

int keyHashSlot(std::string_view key) {
    const std::size_t open = key.find('{');
    if (open != std::string_view::npos) {
        const std::size_t close = key.find('}', open + 1);
        if (close != std::string_view::npos && close > open + 1) {
            return static_cast<int>(crc16(key.substr(open + 1, close - open - 1)) % kClusterSlots);
        }
    }
    return static_cast<int>(crc16(key) % kClusterSlots);
}

std::optional<ClusterRedirect> parseClusterRedirect(std::string_view error) {
    ClusterRedirect redirect;
    std::string_view rest;
    if (error.substr(0, 6) == "MOVED ") {
        redirect.kind = ClusterRedirect::Kind::Moved;
        rest = error.substr(6);
    } else if (error.substr(0, 4) == "ASK ") {
        redirect.kind = ClusterRedirect::Kind::Ask;
        rest = error.substr(4);
    } else {
        return std::nullopt;
    }
    const std::size_t space = rest.find(' ');
    if (space == std::string_view::npos || !parseInt(rest.substr(0, space), redirect.slot) ||
        redirect.slot < 0 || redirect.slot >= kClusterSlots) {
        return std::nullopt;
    }
    const std::string_view address = rest.substr(space + 1);
    // The port follows the last ':' (an IPv6 host holds colons of its own).
    const std::size_t colon = address.rfind(':');
    if (colon == std::string_view::npos || colon == 0 ||
        !parseInt(address.substr(colon + 1), redirect.port) || redirect.port < 1 ||
        redirect.port > 65535) {
        return std::nullopt;
    }
    std::string_view host = address.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
    }
    redirect.host = std::string(host);
    return redirect;
}

}  // namespace ratelab
