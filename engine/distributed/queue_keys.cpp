#include "distributed/queue_keys.h"

#include "input_error.h"
#include "json_input.h"
#include "redis/cluster_slot.h"

namespace ratelab {

QueueKeys::QueueKeys(const QString& name, const QString& where) : name_(name) {
    const auto allowed = [](QChar c) {
        return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
               (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
               (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') ||
               c == QLatin1Char('_') || c == QLatin1Char('-');
    };
    bool ok = !name.isEmpty() && name.size() <= kMaxNameLength;
    for (QChar c : name) {
        ok = ok && allowed(c);
    }
    if (!ok) {
        throw InputError(where, QStringLiteral("%1 is not a queue name: 1 to %2 letters, digits, "
                                               "'.', '_' or '-' (no spaces, glob characters or "
                                               "braces)")
                                    .arg(json_input::quoted(json_input::printable(name)))
                                    .arg(kMaxNameLength));
    }
}

std::string QueueKeys::prefix() const {
    return "ratelab:{q:" + name_.toStdString() + "}:";
}

std::string QueueKeys::jobs() const {
    return prefix() + "jobs";
}

std::string QueueKeys::job(const QString& id) const {
    return prefix() + "job:" + id.toStdString();
}

std::string QueueKeys::results(const QString& id) const {
    return prefix() + "results:" + id.toStdString();
}

int QueueKeys::slot() const {
    return keyHashSlot(jobs());
}

}  // namespace ratelab
