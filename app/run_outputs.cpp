#include "run_outputs.h"

#include <QDir>
#include <QFileInfo>
#include <cstdio>
#include <limits>

#include "command_line.h"
#include "input_error.h"
#include "output/output_folder.h"
#include "output/regression_report.h"
#include "report/output_folder.h"

namespace ratelab::cli {

void printWritten(const QString& dir, const QStringList& names) {
    if (names.isEmpty()) {
        return;
    }
    const QString folder = QFileInfo(dir).absoluteFilePath();
    std::printf("wrote %s\n",
                qPrintable(names.size() == 1 ? QDir(folder).filePath(names.first())
                                             : QStringLiteral("%1/{%2}").arg(
                                                   folder, names.join(QLatin1Char(',')))));
}

QStringList writeRunOutputs(const RunSnapshot& run, const RunSummary& summary,
                            const OutputTargets& targets) {
    const FolderWrite folder = writeOutputFolder(run, targets.dir);
    printWritten(targets.dir, folder.written);
    QStringList failures = folder.failures;
    if (!targets.junit.isEmpty()) {
        try {
            writeFileAtomically(targets.junit, expectationsJUnit(summary));
            std::printf("wrote %s\n", qPrintable(QFileInfo(targets.junit).absoluteFilePath()));
        } catch (const InputError& e) {
            failures << e.message();
        }
    }
    return failures;
}

void writeUnmeasuredJUnit(const OutputTargets& targets, const Scenario& scenario,
                          const QString& reason) {
    if (targets.junit.isEmpty()) {
        return;
    }
    RunSummary summary;
    summary.scenario = scenario.name;
    for (const Expectation& e : scenario.expectations) {
        for (const LimiterSpec& spec : scenario.limiters) {
            if (e.limiter == QLatin1String("*") || e.limiter == spec.name) {
                ExpectationResult r;
                r.limiter = spec.name;
                r.expectation = e;
                r.measured = std::numeric_limits<double>::quiet_NaN();
                summary.expectations.append(r);
            }
        }
    }
    summary.verdict = output_format::verdict::kIncomplete;
    summary.verdictReason = reason;
    try {
        writeFileAtomically(targets.junit, expectationsJUnit(summary));
    } catch (const InputError& e) {
        printError(e.message());
    }
}

int outputExitCode(int verdictCode, const QStringList& failures) {
    for (const QString& failure : failures) {
        printError(failure);
    }
    if (failures.isEmpty()) {
        return verdictCode;
    }
    return verdictCode != kDone ? verdictCode : int(kOutputFailed);
}

}  // namespace ratelab::cli
