#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QLatin1String>
#include <QString>
#include <QStringList>
#include <QVector>

#include "output/output_folder.h"
#include "output/sweep_table.h"

namespace ratelab {

// The files of a sweep's output folder (`ratelab sweep --out DIR`, the Tune tab's "Save…"):
// sweep.csv, sweep.json and the rendered sweep.png and sweep.html (docs/command-line.md,
// "sweep").
namespace sweep_format {
constexpr int kFormat = 1;  // sweep.json's "format"
inline constexpr QLatin1String kCsvFile("sweep.csv");
inline constexpr QLatin1String kJsonFile("sweep.json");
inline constexpr QLatin1String kPngFile("sweep.png");
inline constexpr QLatin1String kHtmlFile("sweep.html");
}  // namespace sweep_format

// The files of a sweep's output folder: sweep.csv, sweep.json, sweep.png, sweep.html.
QStringList sweepFolderFiles();

// sweep.csv: one row per combination x limiter x group, in the combinations' order: a column
// per varied key, then limiter, group ("*": every client), fired, accepted, rejected, errors,
// rejected_pct, max_accepted_in_any_<N>ms for every window any row has (empty where a row's
// limiter has none), feasible (1 when every constraint holds), best (1 on the best feasible
// combination's rows).
QByteArray sweepCsv(const SweepTable& table);
// sweep.json: the sweep (keys, objective, constraints, whether it is complete), every
// combination (its values, objective, checks, feasibility and rows as sweep.csv has them), the
// ranking, the Pareto fronts and the best combination with its ready-to-run scenario.
QJsonObject sweepJson(const SweepTable& table);
// JUnit XML for CI: one test case "a feasible combination exists", then every constraint on
// the best feasible combination (none feasible: on the one that holds the most). Of an
// incomplete sweep (output/sweep_verdict.h; `stoppedBy` says why it stopped, when known) every
// test case is an <error> with the reason, none a pass.
QByteArray sweepJUnit(const SweepTable& table, double seconds,
                      const QString& stoppedBy = QString());

// "12", "0.333": integers whole, others to 3 decimals; "n/a" for NaN.
QString sweepFigureText(double value);

// Writes sweep.csv and sweep.json, then the rendered files, through writeFolderFiles (each
// whole or not at all, each one not written named).
FolderWrite writeSweepFiles(const QString& dir, const SweepTable& table,
                            const QVector<RenderedFile>& rendered = {});

}  // namespace ratelab
