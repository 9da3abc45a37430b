#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab explain SCENARIO.json --limiter NAME (--request N | --at T_MS [--client C]) [--json]
// [--redis URL]: one decision explained (engine/explain).
int explainCommand(const QStringList& args);

}  // namespace ratelab::cli
