#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "redis/redis_connection.h"

namespace ratelab::test {

// Administration of the cluster fixture (REDIS_URL is its redis-cluster:// URL) for tests that
// move slots by hand. Failures to administer the cluster end the test (qFatal): the cluster
// would be left in a state later tests cannot trust.

struct Master {
    QString id;
    QString host;
    int port = 0;
    QString address() const { return host + QLatin1Char(':') + QString::number(port); }
};

std::unique_ptr<RedisConnection> connectNode(const Master& m);
// The masters as CLUSTER NODES lists them, by port.
std::vector<Master> masters();
// The master serving `slot` now, asked of the cluster itself (CLUSTER SLOTS).
Master ownerOf(int slot);
// Another master than `m`.
Master otherThan(const Master& m);

// The steps of redis-cli --cluster reshard for one slot, split so a test can stop half-way:
// 1. both sides learn of the move (IMPORTING / MIGRATING), 2. the keys move (MIGRATE, all of a
// batch in one call; returns how many), 3. every master learns the new owner (SETSLOT NODE).
void beginMove(int slot, const Master& from, const Master& to);
int moveKeys(int slot, const Master& from, const Master& to);
void finishMove(int slot, const Master& to);
void moveSlot(int slot, const Master& from, const Master& to);

// Hands a slot back to where it was when the guard was made, whatever happened in between.
class SlotHome {
public:
    explicit SlotHome(int slot);
    ~SlotHome();
    SlotHome(const SlotHome&) = delete;
    SlotHome& operator=(const SlotHome&) = delete;
    const Master& home() const { return home_; }

private:
    int slot_;
    Master home_;
};

}  // namespace ratelab::test
