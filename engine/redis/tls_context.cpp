#include "redis/tls_context.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <mutex>

#include "input_error.h"

namespace ratelab {
namespace {

// OpenSSL's reason for the last failure ("no start line", "key values mismatch"), and an empty
// error queue afterwards.
QString lastSslError() {
    unsigned long code = 0;
    unsigned long last = 0;
    while ((code = ERR_get_error()) != 0) {
        last = code;
    }
    const char* reason = last != 0 ? ERR_reason_error_string(last) : nullptr;
    return reason != nullptr ? QString::fromLatin1(reason) : QStringLiteral("unknown error");
}

// A PEM file that can be read: a folder or a device (/dev/zero, which OpenSSL would read
// forever) is named as such, not as QFile's "Unknown error".
void requireReadable(const QString& path, const QString& role) {
    const QFileInfo info(path);
    QString why;
    QFile file(path);
    if (!info.exists()) {
        why = QStringLiteral("no such file");
    } else if (info.isDir()) {
        why = QStringLiteral("it is a folder; give the PEM file itself");
    } else if (!info.isFile()) {
        why = QStringLiteral(
            "it is not a regular file (a device, pipe or socket); give a PEM "
            "file");
    } else if (!file.open(QIODevice::ReadOnly)) {
        why = file.errorString();
    }
    if (!why.isEmpty()) {
        throw InputError(path, QStringLiteral("cannot read the %1: %2").arg(role, why));
    }
}

// An encrypted key would make OpenSSL prompt on the terminal: refuse it instead.
int noPassphrase(char*, int, int, void*) {
    return 0;
}

struct ContextDeleter {
    void operator()(SSL_CTX* context) const { SSL_CTX_free(context); }
};

std::shared_ptr<SSL_CTX> buildContext(const RedisUrl::TlsFiles& files) {
    ERR_clear_error();
    if (files.cert.isEmpty() != files.key.isEmpty()) {
        throw InputError(files.cert.isEmpty() ? files.key : files.cert,
                         QStringLiteral("a client certificate needs its key and a key its "
                                        "certificate (give both --tls-cert and --tls-key)"));
    }
    std::unique_ptr<SSL_CTX, ContextDeleter> context(SSL_CTX_new(TLS_client_method()));
    if (!context) {
        throw InputError(QStringLiteral("TLS"),
                         QStringLiteral("cannot create a TLS context: %1").arg(lastSslError()));
    }
    SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION);
    SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
    // Writes may be partial and the buffer may move between retries: RedisConnection keeps the
    // unsent bytes in a std::string.
    SSL_CTX_set_mode(context.get(),
                     SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_default_passwd_cb(context.get(), noPassphrase);
    if (!files.caCert.isEmpty()) {
        requireReadable(files.caCert, QStringLiteral("TLS CA certificate"));
        if (SSL_CTX_load_verify_locations(
                context.get(), QFile::encodeName(files.caCert).constData(), nullptr) != 1) {
            throw InputError(
                files.caCert,
                QStringLiteral("is not a PEM CA certificate (%1)").arg(lastSslError()));
        }
    } else if (SSL_CTX_set_default_verify_paths(context.get()) != 1) {
        throw InputError(QStringLiteral("TLS"),
                         QStringLiteral("cannot load the system's trusted CAs (%1); give "
                                        "--tls-ca-cert")
                             .arg(lastSslError()));
    }
    if (!files.cert.isEmpty()) {
        requireReadable(files.cert, QStringLiteral("TLS client certificate"));
        requireReadable(files.key, QStringLiteral("TLS client key"));
        if (SSL_CTX_use_certificate_chain_file(context.get(),
                                               QFile::encodeName(files.cert).constData()) != 1) {
            throw InputError(files.cert,
                             QStringLiteral("is not a PEM certificate (%1)").arg(lastSslError()));
        }
        if (SSL_CTX_use_PrivateKey_file(context.get(), QFile::encodeName(files.key).constData(),
                                        SSL_FILETYPE_PEM) != 1) {
            const QString reason = lastSslError();
            // OpenSSL checks the pair while loading the key.
            throw InputError(
                files.key,
                reason.contains(QLatin1String("mismatch"))
                    ? QStringLiteral("does not match the certificate %1 (%2)")
                          .arg(files.cert, reason)
                    : QStringLiteral("is not an unencrypted PEM private key (%1)").arg(reason));
        }
        if (SSL_CTX_check_private_key(context.get()) != 1) {
            throw InputError(files.key, QStringLiteral("does not match the certificate %1 (%2)")
                                            .arg(files.cert, lastSslError()));
        }
    }
    return std::shared_ptr<SSL_CTX>(context.release(), ContextDeleter());
}

}  // namespace

std::shared_ptr<ssl_ctx_st> tlsContextFor(const RedisUrl::TlsFiles& files) {
    static std::mutex mutex;
    static QMap<QString, std::shared_ptr<SSL_CTX>> cache;
    // A file replaced since (new certificates under the same names) makes a new context.
    QString key;
    for (const QString& path : {files.caCert, files.cert, files.key}) {
        const QFileInfo info(path);
        key += path + QLatin1Char('\n') +
               QString::number(path.isEmpty() ? 0 : info.lastModified().toMSecsSinceEpoch()) +
               QLatin1Char('/') + QString::number(path.isEmpty() ? 0 : info.size()) +
               QLatin1Char('\n');
    }
    std::lock_guard<std::mutex> lock(mutex);
    auto found = cache.find(key);
    if (found != cache.end()) {
        return *found;
    }
    std::shared_ptr<SSL_CTX> context = buildContext(files);
    cache.insert(key, context);
    return context;
}

void checkTlsFiles(const RedisUrl::TlsFiles& files) {
    buildContext(files);
}

}  // namespace ratelab
