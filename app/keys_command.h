#pragma once

#include <QStringList>

namespace ratelab::cli {

// `ratelab keys NAME [--delete] [--redis URL]`: lists (or deletes) the keys a limiter named
// NAME owns: every key of its hash tag ("{NAME}:*", found with SCAN on the node of its slot) and
// the hash NAME itself when it holds a token bucket's (Redisson's) config. Configuration keys
// ("{NAME}:config", the token bucket's hash) carry no TTL: they hold what the limiter was set
// to, and a deleted one would make the next decision start from a fresh config. This is how
// they go. Prints one key a line, then the count; exit 0.
int keysCommand(const QStringList& args);

}  // namespace ratelab::cli
