#include "report/html_markup.h"

#include <cmath>

namespace ratelab::html {

QString esc(const QString& text) {
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        switch (c.unicode()) {
            case '&':
                out += QLatin1String("&amp;");
                break;
            case '<':
                out += QLatin1String("&lt;");
                break;
            case '>':
                out += QLatin1String("&gt;");
                break;
            case '"':
                out += QLatin1String("&quot;");
                break;
            case '\'':
                out += QLatin1String("&#39;");
                break;
            default:
                if ((c.unicode() < 0x20 && c != QLatin1Char('\t') && c != QLatin1Char('\n')) ||
                    c.unicode() == 0xfffe || c.unicode() == 0xffff) {
                    out += QChar(0xfffd);
                } else {
                    out += c;
                }
        }
    }
    return out;
}

QString number(double v) {
    if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15) {
        return QString::number(static_cast<qint64>(v));
    }
    QString text = QString::number(v, 'f', 3);
    while (text.endsWith(QLatin1Char('0'))) {
        text.chop(1);
    }
    if (text.endsWith(QLatin1Char('.'))) {
        text.chop(1);
    }
    return text;
}

QString number(qint64 v) {
    return QString::number(v);
}

QString row(const QStringList& cells, bool header, int textColumns) {
    QString out = QStringLiteral("<tr>");
    const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
    for (int i = 0; i < cells.size(); ++i) {
        out +=
            QStringLiteral("<%1%2>%3</%1>")
                .arg(tag, i < textColumns ? QStringLiteral(" class=\"t\"") : QString(), cells[i]);
    }
    return out + QStringLiteral("</tr>\n");
}

QString heading(int level, const QString& title) {
    return QStringLiteral("<h%1>%2</h%1>\n").arg(level).arg(esc(title));
}

}  // namespace ratelab::html
