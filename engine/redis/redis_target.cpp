#include "redis/redis_target.h"

#include "input_error.h"

namespace ratelab {

RedisTarget RedisTarget::resolve(const QString& explicitUrl) {
    RedisTarget target;
    QString text = explicitUrl;
    QString source = QStringLiteral("--redis");
    if (text.isEmpty()) {
        text = qEnvironmentVariable("REDIS_URL");
        source = QStringLiteral("REDIS_URL");
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
