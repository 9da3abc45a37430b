#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab compare BASE_DIR NEW_DIR [--tolerance PCT]: two runs' summary.json, limiter by
// limiter and metric by metric (docs/command-line.md, "Comparing two runs").
int compareCommand(const QStringList& args);

}  // namespace ratelab::cli
