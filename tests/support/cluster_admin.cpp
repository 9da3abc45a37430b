#include "support/cluster_admin.h"

#include <QStringList>
#include <QtTest>
#include <algorithm>

#include "support/test_redis.h"

namespace ratelab::test {
namespace {

void expectOk(RedisConnection& c, const RedisArgs& args) {
    RedisReply reply = c.command(args);
    if (reply->type == REDIS_REPLY_ERROR) {
        qFatal("%s %s: %s", args[0].c_str(), args.size() > 1 ? args[1].c_str() : "", reply->str);
    }
}

}  // namespace

std::unique_ptr<RedisConnection> connectNode(const Master& m) {
    return std::make_unique<RedisConnection>(fixtureUrl().nodeUrl(m.host, m.port));
}

// The masters as CLUSTER NODES lists them ("<id> <ip:port@bus> <flags> ..."), by port.
std::vector<Master> masters() {
    auto seed = connectNode(Master{QString(), fixtureUrl().host, fixtureUrl().port});
    RedisReply reply = seed->command({"CLUSTER", "NODES"});
    const QString text = QString::fromStdString(replyString(reply.get(), "CLUSTER NODES"));
    std::vector<Master> out;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.split(QLatin1Char(' '));
        if (f.size() < 3 || !f[2].contains(QLatin1String("master"))) {
            continue;
        }
        const QString address = f[1].section(QLatin1Char('@'), 0, 0);
        out.push_back(Master{f[0], address.section(QLatin1Char(':'), 0, -2),
                             address.section(QLatin1Char(':'), -1).toInt()});
    }
    std::sort(out.begin(), out.end(),
              [](const Master& a, const Master& b) { return a.port < b.port; });
    return out;
}

// The master serving `slot` now, asked of the cluster itself (CLUSTER SLOTS).
Master ownerOf(int slot) {
    auto seed = connectNode(masters().front());
    RedisReply reply = seed->command({"CLUSTER", "SLOTS"});
    for (size_t i = 0; i < reply->elements; ++i) {
        const redisReply* r = reply->element[i];
        if (slot >= r->element[0]->integer && slot <= r->element[1]->integer) {
            const int port = int(r->element[2]->element[1]->integer);
            for (const Master& m : masters()) {
                if (m.port == port) {
                    return m;
                }
            }
        }
    }
    qFatal("slot %d has no owner", slot);
}

Master otherThan(const Master& m) {
    for (const Master& other : masters()) {
        if (other.id != m.id) {
            return other;
        }
    }
    qFatal("the cluster has one master");
}

// The steps of redis-cli --cluster reshard for one slot, split so a test can stop half-way:
// 1. both sides learn of the move, 2. the keys move (MIGRATE), 3. every master learns the
// new owner.
void beginMove(int slot, const Master& from, const Master& to) {
    const std::string s = std::to_string(slot);
    expectOk(*connectNode(to), {"CLUSTER", "SETSLOT", s, "IMPORTING", from.id.toStdString()});
    expectOk(*connectNode(from), {"CLUSTER", "SETSLOT", s, "MIGRATING", to.id.toStdString()});
}

int moveKeys(int slot, const Master& from, const Master& to) {
    auto source = connectNode(from);
    int moved = 0;
    for (;;) {
        RedisReply keys =
            source->command({"CLUSTER", "GETKEYSINSLOT", std::to_string(slot), "1000"});
        if (keys->type != REDIS_REPLY_ARRAY || keys->elements == 0) {
            return moved;
        }
        // All keys in one MIGRATE: a limiter's keys arrive together.
        RedisArgs migrate{
            "MIGRATE", to.host.toStdString(), std::to_string(to.port), "", "0", "5000", "KEYS"};
        for (size_t i = 0; i < keys->elements; ++i) {
            migrate.push_back(replyString(keys->element[i], "key"));
        }
        expectOk(*source, migrate);
        moved += int(keys->elements);
    }
}

void finishMove(int slot, const Master& to) {
    for (const Master& m : masters()) {
        expectOk(*connectNode(m),
                 {"CLUSTER", "SETSLOT", std::to_string(slot), "NODE", to.id.toStdString()});
    }
}

void moveSlot(int slot, const Master& from, const Master& to) {
    beginMove(slot, from, to);
    moveKeys(slot, from, to);
    finishMove(slot, to);
}

SlotHome::SlotHome(int slot) : slot_(slot), home_(ownerOf(slot)) {}

SlotHome::~SlotHome() {
    const Master now = ownerOf(slot_);
    if (now.id != home_.id) {
        moveSlot(slot_, now, home_);
    }
}

}  // namespace ratelab::test
