#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

#include "output/output_folder.h"
#include "output/sweep_table.h"

namespace ratelab {

// The sweep's chart (SweepChart) rendered offscreen on white, as sweep.png shows it. Needs a
// QGuiApplication (QT_QPA_PLATFORM=offscreen works headless).
QImage renderSweepChart(const SweepTable& table, int width = 1000, int height = 640);

// sweep.html: one self-contained page (the chart inline, no network): the sweep's facts, the
// verdict, every combination ranked with its constraints, the Pareto fronts and the best
// combination's scenario.
QByteArray sweepHtml(const SweepTable& table, const QByteArray& png);

// Writes a sweep's output folder: sweep.png and sweep.html rendered here, then sweep.csv,
// sweep.json and both through writeSweepFiles (output/sweep_files.h), each whole or not at all.
// Says which files were written and names each one that was not.
FolderWrite writeSweepFolder(const SweepTable& table, const QString& dir);

}  // namespace ratelab
