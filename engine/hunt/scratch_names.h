#pragma once

#include <QString>
#include <string>

namespace ratelab {

class RedisRouter;

// The limiter names a hunt decides on, so that it never reads or writes a key of the limiter
// it hunts (or of anything else): "<base>-<n>", n counting from 0, base "hunt-<16 hex>" drawn
// at random once per hunt. A name's keys are its limiter's ("{<base>-<n>}:…", the token
// bucket's config hash "<base>-<n>", a local gateway's "{<base>-<n>@g0}:…", a renamed script
// limiter's "<base>-<n>:…"); deleteKeys() deletes those of the names handed out so far and no
// other key.
class ScratchNames {
public:
    // `random` draws the base (0: from the system's random source).
    explicit ScratchNames(quint64 random = 0);

    QString next();
    qint64 handedOut() const { return next_; }
    const QString& base() const { return base_; }

    // Deletes, on every master, every key that belongs to a name handed out so far (SCAN MATCH
    // on the base, each key checked). Returns how many were deleted. Throws RedisError.
    long long deleteKeys(RedisRouter& router) const;
    // Whether `key` belongs to one of the names handed out so far.
    bool owns(const std::string& key) const;

private:
    QString base_;
    std::string baseBytes_;
    qint64 next_ = 0;
};

}  // namespace ratelab
