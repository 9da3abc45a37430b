#pragma once

#include <QByteArray>
#include <QString>

namespace ratelab::test {

// Writes `content` to `path` (making its folder), then, when `size` is larger, extends the file
// to `size` bytes: a sparse file, so a 100 MB input costs no disk and no time. Records a test
// failure when it cannot.
void writeTestFile(const QString& path, const QByteArray& content, qint64 size = 0);
// writeTestFile of `name` in the folder `dir`; the file's path.
QString writeTestFileIn(const QString& dir, const QString& name, const QByteArray& content);

// The bytes of the file at `path`; empty when there is none (or it cannot be read).
QByteArray readTestFile(const QString& path);

// The path of an example scenario, resources/scenarios/<name>, in the source tree
// ($RATELAB_SOURCE_DIR, set by CTest; else found beside the test's source).
QString exampleScenarioPath(const QString& name);
// The path of an example user script, resources/scripts/<name>, likewise.
QString exampleScriptPath(const QString& name);

}  // namespace ratelab::test
