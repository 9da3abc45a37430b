#include "hunt/counterexample_files.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

#include "csv_writer.h"
#include "input_error.h"
#include "limiters/script_spec.h"
#include "output/output_folder.h"

namespace ratelab {
namespace {

QJsonObject decisionJson(const Decision& d) {
    return QJsonObject{{QLatin1String("allowed"), d.allowed},
                       {QLatin1String("retry_after_ms"), d.retryAfterMs},
                       {QLatin1String("remaining"), d.remaining}};
}

QJsonObject probeJson(const Violation& v) {
    QJsonObject probe = decisionJson(*v.probe);
    probe.insert(QLatin1String("t_ms"), v.probeAtMs);
    probe.insert(QLatin1String("should_grant"), v.probeShouldGrant);
    probe.insert(QLatin1String("sent"), v.probes);
    probe.insert(QLatin1String("granted"), v.probesGranted);
    return probe;
}

QByteArray json(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

}  // namespace

QStringList hunt_files::all() {
    return {kCsv, kJson, kRegression, kRegressionCsv};
}

QByteArray traceCsv(const Trace& trace) {
    QByteArray csv = "t_ms,client,permits\n";
    for (const TraceRow& row : trace) {
        csv += QByteArray::number(row.tMs);
        csv += ',';
        appendCsvField(csv, row.client);
        csv += ',';
        csv += QByteArray::number(row.permits);
        csv += '\n';
    }
    return csv;
}

QJsonObject counterexampleJson(const HuntConfig& config, const Counterexample& found,
                               const QString& explanation) {
    const Violation& v = *found.checked.violation;
    QJsonObject object{{QLatin1String("property"), huntPropertyName(v.property)},
                       {QLatin1String("limiter"), limiterSpecToJson(config.limiter)}};
    const bool agree = v.property == HuntProperty::Agree;
    if (agree) {
        object.insert(QLatin1String("reference"), limiterSpecToJson(*config.reference));
    }
    object.insert(QLatin1String("seed"), qint64(config.seed));
    object.insert(QLatin1String("trace_index"), found.traceIndex);
    object.insert(QLatin1String("minimal"), found.minimal);
    object.insert(QLatin1String("failing_row"), qint64(v.row));
    object.insert(QLatin1String("explanation"), explanation);
    QJsonArray rows;
    for (qsizetype i = 0; i < found.trace.size(); ++i) {
        const TraceRow row = found.trace[i];
        QJsonObject r{{QLatin1String("t_ms"), row.tMs},
                      {QLatin1String("client"), row.client},
                      {QLatin1String("permits"), row.permits},
                      {QLatin1String("limiter"), decisionJson(found.checked.limiter[size_t(i)])}};
        if (agree) {
            r.insert(QLatin1String("reference"), decisionJson(found.checked.reference[size_t(i)]));
        }
        rows.append(r);
    }
    object.insert(QLatin1String("rows"), rows);
    if (!agree) {
        object.insert(QLatin1String("probe"), probeJson(v));
    }
    return object;
}

QJsonObject regressionJson(const RegressionCase& regression, const QString& traceFile,
                           const QString& dir) {
    Scenario scenario = regression.scenario;
    scenario.traffic.tracePath = traceFile;
    // A script limiter's file as seen from the folder the scenario is written to (it was
    // relative to the spec's): the regression runs the user's script as it is then.
    for (LimiterSpec& spec : scenario.limiters) {
        if (spec.script && !spec.script->resolved.isEmpty()) {
            auto script = std::make_shared<ScriptSpec>(*spec.script);
            script->file = QDir(dir).relativeFilePath(script->resolved);
            spec.script = std::move(script);
        }
    }
    QJsonObject object = scenarioToJson(scenario);
    // A replay lasts as long as its trace: no duration to keep in step with the file.
    QJsonObject traffic = object.value(QLatin1String("traffic")).toObject();
    traffic.remove(QLatin1String("duration_s"));
    object.insert(QLatin1String("traffic"), traffic);
    return object;
}

QStringList writeCounterexampleFiles(const QString& dir, const HuntConfig& config,
                                     const Counterexample& found, const QString& explanation) {
    if (!QDir().mkpath(dir)) {
        throw InputError(dir, QStringLiteral("cannot make the folder"));
    }
    const QDir folder(dir);
    QStringList written;
    const auto write = [&](const QString& name, const QByteArray& content) {
        writeFileAtomically(folder.filePath(name), content);
        written << folder.filePath(name);
    };
    write(hunt_files::kCsv, traceCsv(found.trace));
    write(hunt_files::kJson, json(counterexampleJson(config, found, explanation)));
    if (found.regression && found.regression->unwritable.isEmpty()) {
        const RegressionCase& regression = *found.regression;
        const QString traceFile =
            regression.counterexampleTrace ? hunt_files::kCsv : hunt_files::kRegressionCsv;
        if (!regression.counterexampleTrace) {
            write(hunt_files::kRegressionCsv, traceCsv(regression.trace));
        }
        write(hunt_files::kRegression, json(regressionJson(regression, traceFile, dir)));
    }
    return written;
}

}  // namespace ratelab
