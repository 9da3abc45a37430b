#include "csv_writer.h"

namespace ratelab {
namespace {

bool needsQuotes(const QString& text) {
    for (const QChar c : text) {
        if (c == u',' || c == u'"' || c == u'\r' || c == u'\n') {
            return true;
        }
    }
    return false;
}

}  // namespace

void appendCsvField(QByteArray& line, const QString& text) {
    if (!needsQuotes(text)) {
        line += text.toUtf8();
        return;
    }
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    line += '"';
    line += quoted.toUtf8();
    line += '"';
}

QByteArray csvField(const QString& text) {
    QByteArray out;
    appendCsvField(out, text);
    return out;
}

}  // namespace ratelab
