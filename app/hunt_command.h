#pragma once

#include <QStringList>

namespace ratelab::cli {

// `ratelab hunt SPEC.json [--reference REF.json] [--property agree|retry|remaining]... [--seed N]
// [--traces N | --budget-s S] [--max-rows R] [--out DIR] [--redis URL]`: the shortest trace
// that breaks a limiter (docs/command-line.md, "hunt"). Exit 0 no counterexample, 1 one (its
// files in DIR), 2 bad input (before any Redis command), 3 Redis, 130/143/129 a signal.
int huntCommand(const QStringList& args);

}  // namespace ratelab::cli
