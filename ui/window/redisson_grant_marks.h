#pragma once

#include <QHash>
#include <QList>
#include <QString>

#include "redisson/redisson_snapshot.h"

namespace ratelab {

// The Redisson tab's grant marks: every grant record a reading listed (records leave the zset
// once released; their marks stay until they scroll out), each at its scope's available permits
// in the first reading that listed it, where the line first shows it taken (Redisson writes the
// value and the record in one script). Not the first reading timed at or after the grant: a
// reading is timed when its poll begins, before it reads, so one timed in the grant's own
// millisecond may have read before the grant was written.
class RedissonGrantMarks {
public:
    struct Mark {
        double x = 0;  // seconds from the origin
        double y = 0;  // available permits
        qint64 permits = 0;
    };

    // Adds the grants `snapshot` lists (x = (time - originMs) / 1000) and forgets the marks left
    // of `from`.
    void add(const RedissonSnapshot& snapshot, qint64 originMs, double from);
    // The newest `most` marks, in time order.
    QList<Mark> marks(int most) const;
    void clear() { seen_.clear(); }

private:
    QHash<QString, Mark> seen_;  // record id + time -> mark
};

}  // namespace ratelab
