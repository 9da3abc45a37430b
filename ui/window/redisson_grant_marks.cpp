#include "window/redisson_grant_marks.h"

#include <algorithm>

namespace ratelab {

void RedissonGrantMarks::add(const RedissonSnapshot& snapshot, qint64 originMs, double from) {
    for (const RedissonScope& scope : snapshot.scopes) {
        for (const RedissonGrant& g : scope.grants) {
            const double x = double(g.timeMs - originMs) / 1000.0;
            if (x < from)
                continue;
            const QString key = g.idHex + QLatin1Char('@') + QString::number(g.timeMs);
            if (!seen_.contains(key))  // the first reading that listed it
                seen_.insert(key, Mark{x, double(scope.available), g.permits});
        }
    }
    for (auto it = seen_.begin(); it != seen_.end();)
        it = it->x < from ? seen_.erase(it) : std::next(it);
}

QList<RedissonGrantMarks::Mark> RedissonGrantMarks::marks(int most) const {
    QList<Mark> out = seen_.values();
    std::sort(out.begin(), out.end(), [](const Mark& a, const Mark& b) { return a.x < b.x; });
    if (out.size() > most)
        out.remove(0, out.size() - most);
    return out;
}

}  // namespace ratelab
