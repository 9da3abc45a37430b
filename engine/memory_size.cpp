// Memory sizes read from the command line and written in messages (memory_size.h).

#include "memory_size.h"

#include <QList>
#include <QLocale>
#include <QPair>
#include <QRegularExpression>
#include <cmath>

#include "input_error.h"
#include "json_input.h"

namespace ratelab {
namespace {

constexpr qint64 kKiB = 1024;
constexpr qint64 kMiB = kKiB * 1024;
constexpr qint64 kGiB = kMiB * 1024;
constexpr qint64 kTiB = kGiB * 1024;
constexpr qint64 kPiB = kTiB * 1024;

}  // namespace

qint64 parseMemorySize(const QString& text, const QString& where) {
    static const QRegularExpression kSize(
        QStringLiteral(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*$)"));
    const QRegularExpressionMatch match = kSize.match(text);
    const QString unit = match.captured(2).toLower();
    static const QList<QPair<QString, double>> kUnits = {
        {QString(), 1},
        {QStringLiteral("b"), 1},
        {QStringLiteral("k"), double(kKiB)},
        {QStringLiteral("kib"), double(kKiB)},
        {QStringLiteral("m"), double(kMiB)},
        {QStringLiteral("mib"), double(kMiB)},
        {QStringLiteral("g"), double(kGiB)},
        {QStringLiteral("gib"), double(kGiB)},
        {QStringLiteral("t"), double(kTiB)},
        {QStringLiteral("tib"), double(kTiB)},
        {QStringLiteral("kb"), 1e3},
        {QStringLiteral("mb"), 1e6},
        {QStringLiteral("gb"), 1e9},
        {QStringLiteral("tb"), 1e12},
    };
    double scale = 0;
    for (const auto& u : kUnits) {
        if (u.first == unit) {
            scale = u.second;
        }
    }
    const QString expected = QStringLiteral(
        "expected a size from 1 MiB to 1 PiB such as 4GiB, "
        "512MiB or 1073741824 (bytes)");
    if (!match.hasMatch() || scale == 0) {
        throw InputError(
            where,
            QStringLiteral("%1 is not a memory size; %2").arg(json_input::quoted(text), expected));
    }
    const double bytes = match.captured(1).toDouble() * scale;
    if (!(bytes >= double(kMiB) && bytes <= double(kPiB))) {
        throw InputError(where, QStringLiteral("%1 is %2; %3")
                                    .arg(json_input::quoted(text),
                                         bytes < double(kMiB) ? QStringLiteral("below 1 MiB")
                                                              : QStringLiteral("above 1 PiB"),
                                         expected));
    }
    return std::llround(bytes);
}

QString formatBytes(qint64 bytes) {
    const auto scaled = [&](qint64 unit, const char* name) {
        const double value = double(bytes) / double(unit);
        // Three significant digits at most: "9.54 GiB" reads as "9.5 GiB", "610 MiB" stays.
        const QString number = value >= 100 ? QString::number(std::llround(value))
                                            : QString::number(value, 'f', value >= 10 ? 0 : 1);
        QString trimmed = number;
        if (trimmed.endsWith(QLatin1String(".0"))) {
            trimmed.chop(2);
        }
        return trimmed + QLatin1Char(' ') + QLatin1String(name);
    };
    if (bytes >= kTiB) {
        return scaled(kTiB, "TiB");
    }
    if (bytes >= kGiB) {
        return scaled(kGiB, "GiB");
    }
    if (bytes >= kMiB) {
        return scaled(kMiB, "MiB");
    }
    if (bytes >= kKiB) {
        return scaled(kKiB, "KiB");
    }
    return QLocale(QLocale::English).toString(bytes) +
           (bytes == 1 ? QStringLiteral(" byte") : QStringLiteral(" bytes"));
}

}  // namespace ratelab
