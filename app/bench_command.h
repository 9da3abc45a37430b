#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab bench --limiter SPEC.json [--connections N] [--pipeline P] [--requests N] [--redis URL]
int benchCommand(const QStringList& args);

}  // namespace ratelab::cli
