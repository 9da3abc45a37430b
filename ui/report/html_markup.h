#pragma once

#include <QString>
#include <QStringList>

// The pieces report.html is written with (XHTML: well-formed XML, every text escaped).

namespace ratelab::html {

// Text as XHTML character data or a double-quoted attribute value. Characters XML 1.0 does not
// allow (controls other than tab and newline) become U+FFFD.
QString esc(const QString& text);

// A figure as the page shows it: integers whole, others to 3 decimals (trailing zeros dropped),
// so the page shows the figures summary.json holds.
QString number(double v);
QString number(qint64 v);

// A table row; `cells` are already escaped/formatted; the first `textColumns` align left.
QString row(const QStringList& cells, bool header = false, int textColumns = 1);

// "<h2>title</h2>" with the title escaped.
QString heading(int level, const QString& title);

}  // namespace ratelab::html
