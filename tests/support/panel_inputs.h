#pragma once

// Synthetic inputs for the live panels' tests (tst_state_panel, tst_run_tables,
// tst_latency_chart), no Redis needed.

#include <QString>
#include <QStringList>
#include <initializer_list>

#include "stats/run_snapshot.h"

namespace ratelab::test {

// QT_NO_CAST_FROM_ASCII: the data tables' string lists, from UTF-8 literals.
QStringList texts(std::initializer_list<const char*> items);

LimiterSnapshot limiterSnapshot(const QString& name, qint64 fired, qint64 accepted, qint64 rejected,
                                qint64 errors);

}  // namespace ratelab::test
