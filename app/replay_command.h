#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab replay --limiter SPEC.json --trace TRACE.csv [--redis URL]
int replayCommand(const QStringList& args);

}  // namespace ratelab::cli
