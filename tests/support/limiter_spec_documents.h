#pragma once

// Limiter specs for the spec tests (tst_limiter_spec, tst_limiter_spec_errors,
// tst_limiter_spec_files) and the editor tests (tst_limiter_editor, tst_limiter_list_editor):
// specs built field by field, and the JSON text of short specs for table rows.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>
#include <initializer_list>

#include "limiters/limiter_spec.h"

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace ratelab {
// Lets QCOMPARE print a spec when it differs.
char* toString(const LimiterSpec& spec);
}  // namespace ratelab

namespace ratelab::test {

// UTF-8 texts as a QStringList (a script's key and argument templates).
QStringList strings(std::initializer_list<const char*> texts);

LimiterSpec tokenBucket(const QString& name, Scope scope, qint64 rate, qint64 intervalMs);
LimiterSpec fixedWindow(const QString& name, Scope scope, qint64 rate, qint64 interval,
                        CalendarUnit unit, const QByteArray& timezone = QByteArray());
LimiterSpec slidingWindow(const QString& name, Scope scope, const QVector<SlidingRule>& rules);
LimiterSpec gcra(const QString& name, Scope scope, qint64 rate, qint64 periodMs, qint64 burst);
LimiterSpec slidingCounter(const QString& name, Scope scope, qint64 limit, qint64 windowMs);
LimiterSpec leakyBucket(const QString& name, Scope scope, qint64 rate, qint64 periodMs,
                        qint64 burst, bool nodelay);
LimiterSpec withPolicy(LimiterSpec spec, FailurePolicy policy);

// `{"type": "token_bucket", "name": "api", <extra>}` and friends, for short table rows.
QByteArray tb(const char* extra = R"("rate": 10, "interval_ms": 1000)");
QByteArray fw(const char* extra = R"("rate": 5, "interval": 2, "unit": "minutes")");
QByteArray sw(const char* extra = R"("rules": [{"limit": 5, "window_ms": 1000}])");

// `depth` nested arrays, at the top level or as the value of a spec's field.
QByteArray nestedArrays(int depth);
// A sliding window "many" of `count` rules: limit i + 1 per 1000 * (i + 1) ms.
QByteArray manyRules(int count);
// The rules manyRules(count) parses to.
QVector<SlidingRule> manyRuleValues(int count);
// A token bucket named `name` (any text, escaped as JSON needs), 1 per 1 ms.
QByteArray withName(const QString& name);

}  // namespace ratelab::test
