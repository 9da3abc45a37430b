#include "redis/redis_target.h"

#include <QStringList>
#include <iterator>

#include "input_error.h"
#include "redis/tls_context.h"

namespace ratelab {

namespace {

struct TlsFileSource {
    QString RedisUrl::TlsFiles::*field;
    QString option;
    const char* variable;
};

const TlsFileSource kTlsSources[] = {
    {&RedisUrl::TlsFiles::caCert, QStringLiteral("--tls-ca-cert"), "REDIS_TLS_CA_CERT"},
    {&RedisUrl::TlsFiles::cert, QStringLiteral("--tls-cert"), "REDIS_TLS_CERT"},
    {&RedisUrl::TlsFiles::key, QStringLiteral("--tls-key"), "REDIS_TLS_KEY"},
};

// The TLS files of a rediss:// URL: each from its option, else its environment variable. A
// file that cannot be used is named with the option or variable it came from.
RedisUrl::TlsFiles resolveTlsFiles(const RedisUrl::TlsFiles& explicitTls) {
    RedisUrl::TlsFiles files;
    QStringList origins;  // per source: the option or variable the file came from
    for (const TlsFileSource& source : kTlsSources) {
        const QString given = explicitTls.*source.field;
        files.*source.field = given.isEmpty() ? qEnvironmentVariable(source.variable) : given;
        origins.push_back(given.isEmpty() ? QString::fromLatin1(source.variable) : source.option);
    }
    try {
        checkTlsFiles(files);
    } catch (const InputError& e) {
        for (std::size_t i = 0; i < std::size(kTlsSources); ++i) {
            if (!e.where().isEmpty() && files.*kTlsSources[i].field == e.where()) {
                throw e.within(origins[int(i)]);
            }
        }
        throw;
    }
    return files;
}

}  // namespace

RedisTarget RedisTarget::resolve(const QString& explicitUrl,
                                 const RedisUrl::TlsFiles& explicitTls) {
    RedisTarget target;
    const bool tlsGiven =
        !explicitTls.caCert.isEmpty() || !explicitTls.cert.isEmpty() || !explicitTls.key.isEmpty();
    QString text = explicitUrl;
    QString source = QStringLiteral("--redis");
    if (text.isEmpty()) {
        text = qEnvironmentVariable("REDIS_URL");
        source = QStringLiteral("REDIS_URL");
    }
    if (text.isEmpty() && tlsGiven) {
        throw InputError(QStringLiteral("--tls-ca-cert, --tls-cert, --tls-key"),
                         QStringLiteral("need a rediss:// or rediss-cluster:// URL (--redis or "
                                        "REDIS_URL); the managed local server has no TLS"));
    }
    if (text.isEmpty()) {
        target.local_ = std::make_shared<LocalRedisServer>();
        target.local_->start();
        target.url_ = target.local_->url();
        return target;
    }
    try {
        target.url_ = RedisUrl::parse(text);
    } catch (const InputError& e) {
        throw e.within(source);
    }
    if (target.url_.tls) {
        target.url_.tlsFiles = resolveTlsFiles(explicitTls);
    } else if (tlsGiven) {
        throw InputError(
            QStringLiteral("--tls-ca-cert, --tls-cert, --tls-key"),
            QStringLiteral("need a rediss:// or rediss-cluster:// URL, not %1 "
                           "(%2)")
                .arg(target.url_.toDisplayString().section(QLatin1Char(':'), 0, 0), source));
    }
    if (target.url_.password.isEmpty()) {
        target.url_.password = qEnvironmentVariable("REDISCLI_AUTH");
    }
    return target;
}

QString RedisTarget::description() const {
    if (local_) {
        return QStringLiteral("managed local redis-server (pid %1, %2)")
            .arg(local_->pid())
            .arg(local_->socketPath());
    }
    return url_.toDisplayString();
}

}  // namespace ratelab
