#include "tune/sweep_folder.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QPainter>
#include <QPalette>

#include "output/sweep_files.h"
#include "output/sweep_report.h"
#include "tune/sweep_chart.h"
#include "tune/sweep_grid.h"

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::SweepFolder", text);
}

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

const char* const kStyle =
    "body{font-family:sans-serif;color:#000;background:#fff;margin:1.5em;max-width:80em}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #777;padding:.2em .5em;text-align:right}"
    "th{background:#e8e8e8}td.t,th.t{text-align:left}"
    ".failed{font-weight:bold;color:#a00000}.best{font-weight:bold}"
    "img{max-width:100%;border:1px solid #777}pre{background:#f4f4f4;padding:.5em}"
    "@media print{body{margin:0}table{page-break-inside:avoid}}";

QString cells(const QStringList& texts, const QString& tag, int textColumns = 0) {
    QString out = QStringLiteral("<tr>");
    for (int i = 0; i < texts.size(); ++i) {
        out +=
            QStringLiteral("<%1%2>%3</%1>")
                .arg(tag, i < textColumns ? QStringLiteral(" class=\"t\"") : QString(), texts[i]);
    }
    return out + QStringLiteral("</tr>\n");
}

QString rankingTable(const SweepTable& table) {
    QStringList header{tr("Rank")};
    for (const QString& key : table.keys) {
        header << esc(key);
    }
    header << esc(table.objective);
    for (const QString& c : table.constraints) {
        header << esc(c);
    }
    header << tr("Feasible");
    QString out = QStringLiteral("<table>\n") + cells(header, QStringLiteral("th"));
    const int best = table.best();
    int rank = 0;
    for (int i : table.ranking()) {
        const SweepCombination& c = table.combinations[i];
        QStringList row{i == best ? QStringLiteral("<span class=\"best\">%1</span>").arg(tr("best"))
                                  : QString::number(rank + 1)};
        ++rank;
        for (qint64 v : c.values) {
            row << QString::number(v);
        }
        row << sweepFigureText(c.objective);
        for (int k = 0; k < table.constraints.size(); ++k) {
            const bool held = c.holds(k);
            const QString figure = sweepFigureText(c.constraintFigure(k));
            row << (held ? figure
                         : QStringLiteral("<span class=\"failed\">%1 %2</span>")
                               .arg(figure, tr("FAILED")));
        }
        row << (c.feasible() ? tr("yes") : tr("no"));
        out += cells(row, QStringLiteral("td"));
    }
    return out + QStringLiteral("</table>\n");
}

QString paretoSection(const SweepTable& table) {
    QString out;
    for (int k = 0; k < table.constraints.size(); ++k) {
        out += QStringLiteral("<h3>%1</h3>\n<table>\n")
                   .arg(esc(tr("%1 against %2").arg(table.objective, table.constraints[k])));
        QStringList header;
        for (const QString& key : table.keys) {
            header << esc(key);
        }
        header << esc(table.constraints[k]) << esc(table.objective);
        out += cells(header, QStringLiteral("th"));
        for (int i : table.paretoFront(k)) {
            const SweepCombination& c = table.combinations[i];
            QStringList row;
            for (qint64 v : c.values) {
                row << QString::number(v);
            }
            row << sweepFigureText(c.constraintFigure(k)) << sweepFigureText(c.objective);
            out += cells(row, QStringLiteral("td"));
        }
        out += QStringLiteral("</table>\n");
    }
    return out.isEmpty() ? out
                         : QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n")
                                   .arg(tr("Pareto fronts"),
                                        tr("The combinations no other beats on both the objective "
                                           "and that constraint's figure.")) +
                               out;
}

}  // namespace

QImage renderSweepChart(const SweepTable& table, int width, int height) {
    QImage image(width, height, QImage::Format_RGB32);
    QPalette palette;
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::Text, Qt::black);
    palette.setColor(QPalette::Mid, QColor(160, 160, 160));
    palette.setColor(QPalette::Highlight, QColor(0, 90, 200));
    QFont font = QGuiApplication::font();
    font.setPointSizeF(10);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    const SweepGrid grid(table);
    SweepChart(table, grid, QRectF(0, 0, width, height), font).paint(painter, palette);
    return image;
}

QByteArray sweepHtml(const SweepTable& table, const QByteArray& png) {
    const QString title = esc(tr("ratelab sweep: %1").arg(table.scenario));
    QString html = QStringLiteral(
                       "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                       "<title>%1</title>\n<style>%2</style>\n</head>\n<body>\n<h1>%1</h1>\n")
                       .arg(title, QLatin1String(kStyle));
    html += QStringLiteral("<table>\n");
    const auto fact = [&](const QString& label, const QString& value) {
        html += QStringLiteral("<tr><th class=\"t\">%1</th><td class=\"t\">%2</td></tr>\n")
                    .arg(label, value);
    };
    fact(tr("Combinations"), tr("%1 of %2%3")
                                 .arg(table.combinations.size())
                                 .arg(table.total)
                                 .arg(table.complete ? QString() : tr(" (incomplete)")));
    fact(table.maximize ? tr("Maximize") : tr("Minimize"), esc(table.objective));
    fact(tr("Constraints"), table.constraints.isEmpty()
                                ? tr("none")
                                : esc(table.constraints.join(QStringLiteral("; "))));
    if (!table.note.isEmpty()) {
        fact(tr("Note"), esc(table.note));
    }
    for (const QString& warning : table.warnings) {
        fact(tr("Warning"), esc(warning));
    }
    html += QStringLiteral("</table>\n<p>%1</p>\n").arg(esc(sweepVerdictText(table).trimmed()));
    if (!png.isEmpty()) {
        html += QStringLiteral("<p><img alt=\"%1\" src=\"data:image/png;base64,%2\"/></p>\n")
                    .arg(esc(tr("the objective over the varied values")),
                         QString::fromLatin1(png.toBase64()));
    }
    html += QStringLiteral("<h2>%1</h2>\n").arg(tr("Combinations, best first")) +
            rankingTable(table) + paretoSection(table);
    if (!table.bestScenario.isEmpty()) {
        html += QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n<pre>%3</pre>\n")
                    .arg(tr("The best combination as a scenario"),
                         tr("Save it as a file and run it with ratelab run."),
                         esc(QString::fromUtf8(
                             QJsonDocument(table.bestScenario).toJson(QJsonDocument::Indented))));
    }
    html += QStringLiteral("</body>\n</html>\n");
    return html.toUtf8();
}

FolderWrite writeSweepFolder(const SweepTable& table, const QString& dir) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    const bool rendered = renderSweepChart(table).save(&buffer, "PNG");
    const RenderedFile pngFile =
        rendered ? RenderedFile(sweep_format::kPngFile, png)
                 : RenderedFile::notRendered(sweep_format::kPngFile,
                                             tr("the chart could not be rendered"));
    return writeSweepFiles(
        dir, table,
        {pngFile, {sweep_format::kHtmlFile, sweepHtml(table, rendered ? png : QByteArray())}});
}

}  // namespace ratelab
