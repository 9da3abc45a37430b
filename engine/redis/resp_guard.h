#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ratelab {

// How large one reply from a server may be: every byte of it (headers included) and every
// element of its arrays at any depth. Nothing ratelab reads comes near (SCAN pages of 1,000
// keys, state reads of at most 2,000 records, INFO): the bounds only stop a broken or hostile
// peer from making hiredis allocate what it announces.
struct ReplyLimits {
    std::uint64_t maxBytes = 64ULL * 1024 * 1024;
    std::uint64_t maxElements = 1'000'000;
};

// Reads the bytes a server sends, ahead of hiredis's reply parser, and refuses a reply that
// announces more than ReplyLimits allows: an array header `*N` whose elements would take the
// reply past maxElements, a bulk header `$N` past maxBytes, a line (status, error, integer)
// that runs past maxBytes, or bytes that are not RESP. hiredis 0.14 would allocate (and walk)
// an array of the announced size before its elements arrive, and buffer a bulk until all of it
// has: a peer answering "*2147483647" or "$999999999999" would stall or exhaust the process.
// The guard sees each header as soon as its line is complete, before the same bytes are fed to
// hiredis, so the connection fails at once with a protocol error instead.
class RespGuard {
public:
    explicit RespGuard(ReplyLimits limits = {}) : limits_(limits) {}

    // Scans the next `size` bytes of the stream. False at the first violation (error() says
    // which); every later call is false too.
    bool feed(const char* data, std::size_t size);
    const std::string& error() const { return error_; }

private:
    enum class State { Type, Header, Line, Payload };

    bool fail(std::string why);
    // A header line (`*N`, `$N`) is complete: checks N against the limits.
    bool headerDone();
    // A whole value (a line, a bulk, a null, an empty or finished array) ends.
    void valueDone();

    ReplyLimits limits_;
    State state_ = State::Type;
    char type_ = 0;
    std::string header_;  // a header's text, without its \r
    bool lastWasCr_ = false;
    std::uint64_t payloadLeft_ = 0;    // a bulk's bytes and its \r\n still to skip
    std::vector<std::uint64_t> open_;  // elements still due for each array being read
    std::uint64_t replyBytes_ = 0;     // of the reply being read
    std::uint64_t replyElements_ = 0;
    std::string error_;
};

}  // namespace ratelab
