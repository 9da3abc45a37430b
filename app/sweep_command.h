#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab sweep SCENARIO.json [--out DIR] [--junit FILE] [--redis URL] [--max-memory SIZE]
int sweepCommand(const QStringList& args);

}  // namespace ratelab::cli
