#pragma once

#include <memory>

#include "url/redis_url.h"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX, kept out of this header

namespace ratelab {

// The OpenSSL client context for a set of TLS files: peer verification always on, the CA file
// (or the system's trust store when none is given) and the client certificate and key for
// mutual TLS. Contexts are shared by every connection with the same files (loading a CA
// bundle is not free) and built on first use. Thread-safe.
//
// Throws InputError naming the file and what is wrong with it: unreadable, not PEM, a key that
// is encrypted or does not match the certificate, a certificate without its key.
std::shared_ptr<ssl_ctx_st> tlsContextFor(const RedisUrl::TlsFiles& files);

// The same checks without keeping anything: for input validation before any connection.
void checkTlsFiles(const RedisUrl::TlsFiles& files);

}  // namespace ratelab
