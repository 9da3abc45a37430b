#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab trace import --format combined|common|jsonl [--client FIELD] [--time-field PATH]
// [--skip-bad] ACCESS.log: a web server's access log as a trace CSV on stdout, and what it
// holds (rows, clients, span, busiest second) on stderr (docs/command-line.md, "trace import").
int traceCommand(const QStringList& args);

}  // namespace ratelab::cli
