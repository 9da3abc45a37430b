#include "limiters/script_reply.h"

#include <charconv>

namespace ratelab {
namespace {

using Type = ReplyView::Type;

void describeInto(ReplyView reply, std::size_t maxChars, std::string& out) {
    if (out.size() > maxChars) {
        return;
    }
    switch (reply.type()) {
        case Type::Missing:
            out += "(no reply)";
            return;
        case Type::Nil:
            out += "nil";
            return;
        case Type::Integer:
            out += std::to_string(reply.integer());
            return;
        case Type::String:
            out += '"';
            out += reply.text();
            out += '"';
            return;
        case Type::Status:
            out += '+';
            out += reply.text();
            return;
        case Type::Error:
            out += '-';
            out += reply.text();
            return;
        case Type::Array:
            out += '[';
            for (std::size_t i = 0; i < reply.size(); ++i) {
                if (i > 0) {
                    out += ", ";
                }
                if (out.size() > maxChars) {
                    out += "…";
                    break;
                }
                describeInto(reply.element(i), maxChars, out);
            }
            out += ']';
            return;
        case Type::Other:
            out += reply.typeName();
            return;
    }
}

// "the reply" or "element 1 of a 2-element array".
std::string placeOf(ReplyView whole, int index) {
    if (index < 0) {
        return "the reply";
    }
    return "element " + std::to_string(index) + " of a " + std::to_string(whole.size()) +
           "-element array";
}

// "is a string \"x\"", "is nil", "is an array of 3 elements".
std::string whatIs(ReplyView value) {
    switch (value.type()) {
        case Type::Nil:
            return "is nil";
        case Type::Integer:
            return "is the integer " + std::to_string(value.integer());
        case Type::Array:
            return "is an array of " + std::to_string(value.size()) + " elements";
        case Type::Status:
            return "is the status " + std::string(value.text());
        case Type::Missing:
            return "is missing";
        default:
            return std::string("is a ") + value.typeName() + " " + describeReply(value, 40);
    }
}

// An integer reply, or a string that is exactly a decimal integer (Lua scripts often pass an
// argument back, or return tostring(n)).
std::optional<long long> integerOf(ReplyView value) {
    if (value.is(Type::Integer)) {
        return value.integer();
    }
    if (value.is(Type::String)) {
        const std::string_view text = value.text();
        long long out = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (error == std::errc() && end == text.data() + text.size() && !text.empty()) {
            return out;
        }
    }
    return std::nullopt;
}

}  // namespace

std::string describeReply(ReplyView reply, std::size_t maxChars) {
    std::string out;
    describeInto(reply, maxChars, out);
    return out;
}

std::optional<Decision> decodeScriptReply(ReplyView reply, const ReplyMapping& m,
                                          std::string* problem) {
    const auto fail = [&](const std::string& what) {
        *problem = what + "; the reply: " + describeReply(reply);
        return std::nullopt;
    };
    // The element at `index` of the array reply (-1: the reply itself).
    const auto at = [&](int index) -> std::optional<ReplyView> {
        if (index < 0) {
            return reply;
        }
        if (!reply.is(Type::Array)) {
            return std::nullopt;
        }
        if (std::size_t(index) >= reply.size()) {
            return std::nullopt;
        }
        return reply.element(std::size_t(index));
    };
    if (m.index >= 0 && !reply.is(Type::Array)) {
        return fail("the reply " + whatIs(reply) + ", where reply.index " +
                    std::to_string(m.index) + " expects an array");
    }
    const std::optional<ReplyView> judged = at(m.index);
    if (!judged) {
        return fail("the reply is a " + std::to_string(reply.size()) +
                    "-element array, which has no element " + std::to_string(m.index) +
                    " (reply.index)");
    }
    Decision d;
    const ReplyView value = *judged;
    const std::string place = placeOf(reply, m.index);
    switch (m.allowed) {
        case ReplyMapping::Allowed::Nil:
            d.allowed = value.is(Type::Nil);
            break;
        case ReplyMapping::Allowed::NotNil:
            d.allowed = !value.is(Type::Nil);
            break;
        case ReplyMapping::Allowed::Zero:
        case ReplyMapping::Allowed::One: {
            const std::optional<long long> n = integerOf(value);
            if (!n && !value.is(Type::Nil)) {
                return fail(place + " " + whatIs(value) +
                            ", where reply.allowed expects an integer (or nil: refused)");
            }
            d.allowed = n && *n == (m.allowed == ReplyMapping::Allowed::One ? 1 : 0);
            break;
        }
        case ReplyMapping::Allowed::Ok:
            if (!value.is(Type::Status) && !value.is(Type::Nil) && !value.is(Type::Integer)) {
                return fail(place + " " + whatIs(value) +
                            ", where reply.allowed expects the status OK (or nil or an integer: "
                            "refused)");
            }
            d.allowed = value.is(Type::Status) && value.text() == "OK";
            break;
    }
    // A field's integer: from its element, or the reply itself; `unknown` when absent.
    const auto field = [&](const ReplyMapping::Field& f, const char* name, bool needed,
                           long long unknown, long long* out) -> bool {
        if (f.from == ReplyMapping::Field::From::Absent || !needed) {
            *out = unknown;
            return true;
        }
        const int index = f.from == ReplyMapping::Field::From::Index ? f.index : -1;
        const std::optional<ReplyView> element = at(index);
        if (!element) {
            *problem = "the reply is a " + std::to_string(reply.size()) +
                       "-element array, which has no element " + std::to_string(index) +
                       " (reply." + name + "); the reply: " + describeReply(reply);
            return false;
        }
        const std::optional<long long> n = integerOf(*element);
        if (!n) {
            if (index < 0 && f.from == ReplyMapping::Field::From::Reply) {
                *out = unknown;  // "reply": a grant's nil (Redisson) carries no number
                return true;
            }
            *problem = placeOf(reply, index) + " " + whatIs(*element) + ", where reply." + name +
                       " expects an integer; the reply: " + describeReply(reply);
            return false;
        }
        *out = *n;
        return true;
    };
    long long retry = 0;
    long long remaining = -1;
    if (!field(m.retryAfterMs, "retry_after_ms", !d.allowed, -1, &retry) ||
        !field(m.remaining, "remaining", true, -1, &remaining)) {
        return std::nullopt;
    }
    d.retryAfterMs = d.allowed ? 0 : (retry < 0 ? -1 : retry);
    d.remaining = remaining;
    return d;
}

}  // namespace ratelab
