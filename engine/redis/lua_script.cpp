#include "redis/lua_script.h"

#include <QCryptographicHash>

namespace ratelab {

LuaScript::LuaScript(std::string source) : source_(std::move(source)) {
    sha1_ = QCryptographicHash::hash(QByteArray::fromStdString(source_), QCryptographicHash::Sha1)
                .toHex()
                .toStdString();
}

bool LuaScript::isNoScript(const redisReply* reply) {
    return reply != nullptr && reply->type == REDIS_REPLY_ERROR && reply->len >= 8 &&
           std::string(reply->str, 8) == "NOSCRIPT";
}

static RedisArgs scriptCommand(const char* verb, const std::string& body, const RedisArgs& keys,
                               const RedisArgs& args) {
    RedisArgs command;
    command.reserve(3 + keys.size() + args.size());
    command.emplace_back(verb);
    command.push_back(body);
    command.push_back(std::to_string(keys.size()));
    command.insert(command.end(), keys.begin(), keys.end());
    command.insert(command.end(), args.begin(), args.end());
    return command;
}

RedisArgs LuaScript::evalshaCommand(const RedisArgs& keys, const RedisArgs& args) const {
    return scriptCommand("EVALSHA", sha1_, keys, args);
}

RedisArgs LuaScript::evalCommand(const RedisArgs& keys, const RedisArgs& args) const {
    return scriptCommand("EVAL", source_, keys, args);
}

void LuaScript::appendEvalsha(RedisConnection& connection, const RedisArgs& keys,
                              const RedisArgs& args) const {
    thread_local RespWriter writer;
    writer.clear();
    formatEvalsha(writer, keys, args);
    connection.appendFormatted(writer.bytes());
}

void LuaScript::formatEvalsha(RespWriter& writer, const RedisArgs& keys,
                              const RedisArgs& args) const {
    writer.begin(3 + keys.size() + args.size());
    writer.arg("EVALSHA");
    writer.arg(sha1_);
    writer.arg(std::to_string(keys.size()));
    for (const std::string& k : keys) {
        writer.arg(k);
    }
    for (const std::string& a : args) {
        writer.arg(a);
    }
}

RedisReply LuaScript::run(RedisConnection& connection, const RedisArgs& keys,
                          const RedisArgs& args) const {
    appendEvalsha(connection, keys, args);
    RedisReply reply = connection.readReply();
    if (isNoScript(reply.get())) {
        // EVAL both runs the script and caches it, so later EVALSHAs hit again.
        reply = connection.command(evalCommand(keys, args));
    }
    return reply;
}

}  // namespace ratelab
