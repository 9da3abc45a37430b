#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab run SCENARIO.json [--redis URL] [--out DIR]
int runCommand(const QStringList& args);

}  // namespace ratelab::cli
