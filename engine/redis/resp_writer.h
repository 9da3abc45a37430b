#pragma once

#include <string>
#include <string_view>

namespace ratelab {

// Formats one command in RESP ("*N\r\n$len\r\narg\r\n...") into a reusable buffer. hiredis's
// own argv formatting goes through sdscatfmt and showed up as the client's largest cost per
// decision; this writes the same bytes with plain appends.
class RespWriter {
public:
    void clear() { buffer_.clear(); }
    // Starts a command after whatever the buffer holds (several commands make one pipeline).
    void begin(std::size_t argc) { header('*', argc); }
    void arg(std::string_view value) {
        header('$', value.size());
        buffer_.append(value.data(), value.size());
        buffer_.append("\r\n", 2);
    }
    const std::string& bytes() const { return buffer_; }

private:
    // "<kind><n>\r\n" in one append.
    void header(char kind, std::size_t n) {
        char text[24];
        char* end = text + sizeof(text);
        char* p = end;
        *--p = '\n';
        *--p = '\r';
        do {
            *--p = static_cast<char>('0' + n % 10);
            n /= 10;
        } while (n != 0);
        *--p = kind;
        buffer_.append(p, static_cast<std::size_t>(end - p));
    }

    std::string buffer_;
};

}  // namespace ratelab
