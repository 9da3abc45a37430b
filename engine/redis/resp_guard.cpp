#include "redis/resp_guard.h"

#include <algorithm>
#include <cstring>

namespace ratelab {
namespace {

// hiredis 0.14 reads arrays nested 7 deep at most; deeper is refused here before it is read.
constexpr std::size_t kMaxDepth = 7;
// "-1" or up to 18 digits: a length of 19 digits is above every limit anyway.
constexpr std::size_t kMaxHeaderDigits = 18;

// The header's value: -1 (null), 0 or more; -2 when it is not a length at all; `huge` when it
// has more digits than any limit allows.
long long headerValue(const std::string& text, bool* huge) {
    *huge = false;
    if (text == "-1") {
        return -1;
    }
    if (text.empty() || text.size() > 64) {
        return -2;
    }
    long long value = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c < '0' || c > '9') {
            return -2;
        }
        if (i >= kMaxHeaderDigits) {
            *huge = true;
            continue;
        }
        value = value * 10 + (c - '0');
    }
    return value;
}

std::string printable(const std::string& text) {
    std::string out;
    for (char c : text.substr(0, 24)) {
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    }
    return text.size() > 24 ? out + "..." : out;
}

}  // namespace

bool RespGuard::fail(std::string why) {
    error_ = std::move(why);
    return false;
}

void RespGuard::valueDone() {
    state_ = State::Type;
    while (!open_.empty()) {
        if (--open_.back() > 0) {
            return;
        }
        open_.pop_back();  // the array is complete: one value of the array around it
    }
    replyBytes_ = 0;  // a whole reply has been read
    replyElements_ = 0;
}

bool RespGuard::headerDone() {
    const bool array = type_ == '*';
    const char* what = array ? "an array" : "a bulk string";
    bool huge = false;
    const long long value = headerValue(header_, &huge);
    if (value < -1) {
        return fail(std::string(what) + " header \"" + printable(header_) + "\" is not a length");
    }
    if (value <= 0 && !huge) {
        if (array || value == -1) {
            valueDone();  // a null, or an empty array
            return true;
        }
    }
    const std::string announced = huge ? header_ : std::to_string(value);
    // What came before it in the same reply counts too: the message says so when it does, so
    // that the figures it names add up to more than the limit it names.
    if (array) {
        if (huge || replyElements_ + std::uint64_t(value) > limits_.maxElements) {
            const std::string before =
                huge || replyElements_ == 0
                    ? std::string()
                    : " after " + std::to_string(replyElements_) + " in the reply before it (" +
                          std::to_string(replyElements_ + std::uint64_t(value)) + " in all)";
            return fail(std::string(what) + " of " + announced + " elements" + before +
                        "; a reply may hold at most " + std::to_string(limits_.maxElements) +
                        " elements");
        }
        if (open_.size() >= kMaxDepth) {
            return fail("arrays nested more than " + std::to_string(kMaxDepth) + " deep");
        }
        replyElements_ += std::uint64_t(value);
        open_.push_back(std::uint64_t(value));
        state_ = State::Type;
        return true;
    }
    if (huge || replyBytes_ + std::uint64_t(value) + 2 > limits_.maxBytes) {
        // replyBytes_ holds the reply's bytes so far, this header included.
        const std::string total =
            huge ? std::string()
                 : " (a reply of " + std::to_string(replyBytes_ + std::uint64_t(value) + 2) +
                       " bytes with its headers and what came before it)";
        return fail(std::string(what) + " of " + announced + " bytes" + total +
                    "; a reply may hold at most " + std::to_string(limits_.maxBytes) + " bytes");
    }
    payloadLeft_ = std::uint64_t(value) + 2;  // and its \r\n
    state_ = State::Payload;
    return true;
}

bool RespGuard::feed(const char* data, std::size_t size) {
    if (!error_.empty()) {
        return false;
    }
    std::size_t i = 0;
    while (i < size) {
        switch (state_) {
            case State::Payload: {
                const std::size_t take =
                    std::size_t(std::min<std::uint64_t>(payloadLeft_, size - i));
                i += take;
                payloadLeft_ -= take;
                replyBytes_ += take;
                if (payloadLeft_ == 0) {
                    valueDone();
                }
                break;
            }
            case State::Type:
                type_ = data[i++];
                ++replyBytes_;
                header_.clear();
                lastWasCr_ = false;
                if (type_ == '*' || type_ == '$') {
                    state_ = State::Header;
                } else if (type_ == '+' || type_ == '-' || type_ == ':') {
                    state_ = State::Line;
                } else {
                    return fail("a reply starts with byte " +
                                std::to_string(static_cast<unsigned char>(type_)) +
                                ", which is not RESP");
                }
                break;
            case State::Header: {
                const char c = data[i++];
                ++replyBytes_;
                if (c == '\n' && lastWasCr_) {
                    header_.pop_back();  // its \r
                    if (!headerDone()) {
                        return false;
                    }
                    break;
                }
                lastWasCr_ = c == '\r';
                header_.push_back(c);
                if (header_.size() > 64) {
                    return fail("a header line \"" + printable(header_) + "\" that never ends");
                }
                break;
            }
            case State::Line: {
                // Up to the next "\r\n" (hiredis ends a line there, not at a bare \n).
                const char* start = data + i;
                const void* found = std::memchr(start, '\n', size - i);
                const std::size_t span =
                    found != nullptr ? std::size_t(static_cast<const char*>(found) - start) + 1
                                     : size - i;
                const bool crBefore = span >= 2 ? start[span - 2] == '\r' : lastWasCr_;
                const bool ends = found != nullptr && crBefore;
                i += span;
                replyBytes_ += span;
                lastWasCr_ = start[span - 1] == '\r';
                if (replyBytes_ > limits_.maxBytes) {
                    return fail("a reply of more than " + std::to_string(limits_.maxBytes) +
                                " bytes, still in a line; a reply may hold at most " +
                                std::to_string(limits_.maxBytes) + " bytes");
                }
                if (ends) {
                    valueDone();
                }
                break;
            }
        }
    }
    return true;
}

}  // namespace ratelab
