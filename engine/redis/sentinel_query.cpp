#include "redis/sentinel_query.h"

#include "redis/redis_error.h"
#include "url/sentinel_url.h"

namespace ratelab {

SentinelAnswer askSentinel(RedisConnection& connection, const QString& masterName) {
    SentinelAnswer answer;
    const RedisUrl& node = connection.url();
    answer.sentinel =
        (node.host.contains(u':') ? QLatin1Char('[') + node.host + QLatin1Char(']') : node.host) +
        QLatin1Char(':') + QString::number(node.port);
    const std::string name = masterName.toStdString();
    const std::string sentinel = "sentinel " + answer.sentinel.toStdString();
    RedisReply reply = connection.command({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", name});
    answer.reached = true;
    if (reply->type == REDIS_REPLY_NIL) {
        answer.problem = sentinel + " knows no primary named \"" + name + "\"";
        return answer;
    }
    if (reply->type == REDIS_REPLY_ERROR) {
        // Not a sentinel (ERR unknown command), or an ACL user without +sentinel.
        answer.problem = sentinel + ": " + std::string(reply->str, reply->len);
        return answer;
    }
    const bool shaped = reply->type == REDIS_REPLY_ARRAY && reply->elements == 2 &&
                        reply->element[0]->type == REDIS_REPLY_STRING &&
                        reply->element[1]->type == REDIS_REPLY_STRING;
    bool portOk = false;
    const int port =
        shaped
            ? QString::fromUtf8(reply->element[1]->str, int(reply->element[1]->len)).toInt(&portOk)
            : 0;
    if (!shaped || !portOk || port < 1 || port > 65535 || reply->element[0]->len == 0) {
        answer.problem = sentinel + ": unexpected answer to SENTINEL GET-MASTER-ADDR-BY-NAME";
        return answer;
    }
    answer.known = true;
    answer.host = QString::fromUtf8(reply->element[0]->str, int(reply->element[0]->len));
    answer.port = port;
    return answer;
}

SentinelAnswer askSentinel(const RedisUrl& url, int index, const ConnectOptions& options) {
    const RedisUrl node = sentinelNodeUrl(url, index);
    try {
        RedisConnection connection(node, options);
        return askSentinel(connection, url.masterName);
    } catch (const RedisError& e) {
        SentinelAnswer answer;
        answer.sentinel =
            (node.host.contains(u':') ? QLatin1Char('[') + node.host + QLatin1Char(']')
                                      : node.host) +
            QLatin1Char(':') + QString::number(node.port);
        answer.problem = "sentinel " + answer.sentinel.toStdString() + ": " + e.what();
        return answer;
    }
}

std::string roleOf(RedisConnection& connection) {
    RedisReply reply = connection.command({"ROLE"});
    if (reply->type == REDIS_REPLY_ARRAY && reply->elements >= 1 &&
        reply->element[0]->type == REDIS_REPLY_STRING) {
        const std::string role(reply->element[0]->str, reply->element[0]->len);
        return role == "slave" ? "replica" : role;
    }
    if (reply->type == REDIS_REPLY_ERROR) {
        return {};
    }
    throw RedisError(RedisError::Kind::Reply, "ROLE: unexpected reply");
}

}  // namespace ratelab
