#include "argv_secrets.h"

#include <cstring>

namespace ratelab::cli {
namespace {

bool isOption(const char* arg, const char* name) {
    return std::strcmp(arg, name) == 0;
}

// Replaces the user info's password (or, without ':', all of it) in `url` by "***", in place:
// the rest of the string moves left and the freed bytes become NULs.
void maskUrl(char* url) {
    char* scheme = std::strstr(url, "://");
    if (scheme == nullptr) {
        return;
    }
    char* authority = scheme + 3;
    const size_t end = std::strcspn(authority, "/?#");
    char* at = nullptr;  // the last '@' of the authority ends the user info
    for (char* p = authority; p < authority + end; ++p) {
        if (*p == '@') {
            at = p;
        }
    }
    if (at == nullptr) {
        return;
    }
    char* colon = static_cast<char*>(std::memchr(authority, ':', size_t(at - authority)));
    char* secret = colon != nullptr ? colon + 1 : authority;
    if (secret == at) {
        return;  // an empty password: nothing to hide
    }
    const size_t length = std::strlen(url);
    const size_t secretLength = size_t(at - secret);
    const char mask[] = "***";
    const size_t maskLength = secretLength < 3 ? secretLength : 3;
    std::memcpy(secret, mask, maskLength);
    std::memmove(secret + maskLength, at, std::strlen(at) + 1);
    std::memset(url + length - (secretLength - maskLength), 0, secretLength - maskLength);
}

}  // namespace

void hidePasswordsInArgv(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        char* arg = argv[i];
        if ((isOption(arg, "--redis") || isOption(arg, "-redis")) && i + 1 < argc) {
            maskUrl(argv[++i]);
        } else if (std::strncmp(arg, "--redis=", 8) == 0 || std::strncmp(arg, "-redis=", 7) == 0) {
            maskUrl(std::strchr(arg, '=') + 1);
        }
    }
}

}  // namespace ratelab::cli
