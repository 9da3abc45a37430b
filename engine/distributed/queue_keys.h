#pragma once

#include <QString>
#include <string>

namespace ratelab {

// The keys of a job queue (docs/distributed.md): every one carries the hash tag {q:NAME}, so a
// queue lives on one cluster node and its commands never cross slots.
//   ratelab:{q:NAME}:jobs             the stream of batches, consumer group "workers"
//   ratelab:{q:NAME}:job:<id>         a job's mark while its coordinator lives (TTL)
//   ratelab:{q:NAME}:results:<id>     the stream of a job's results
class QueueKeys {
public:
    // Throws InputError at `where` ("--queue") for a name that is empty, longer than
    // kMaxNameLength or holds anything but letters, digits, '.', '_' and '-' (a space, a glob
    // character or a brace would make its keys ambiguous to SCAN patterns and hash tags).
    QueueKeys(const QString& name, const QString& where);

    static constexpr int kMaxNameLength = 64;
    static constexpr const char* kGroup = "workers";
    static inline const QString kDefaultName = QStringLiteral("default");

    const QString& name() const { return name_; }
    std::string jobs() const;
    std::string job(const QString& id) const;
    std::string results(const QString& id) const;
    int slot() const;  // the slot of every key of the queue

private:
    std::string prefix() const;
    QString name_;
};

}  // namespace ratelab
