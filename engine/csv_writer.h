#pragma once

#include <QByteArray>
#include <QString>

namespace ratelab {

// The one CSV writer of ratelab (buckets.csv, the window's export, the replay command's output):
// RFC 4180 fields. A field holding a comma, a double quote, CR or LF is enclosed in double
// quotes with its quotes doubled; any other field is written as it is (UTF-8). Records end
// with LF, as ratelab's CSV always has.
QByteArray csvField(const QString& text);
// Appends csvField(text) to `line`, without building a temporary for plain fields.
void appendCsvField(QByteArray& line, const QString& text);

}  // namespace ratelab
