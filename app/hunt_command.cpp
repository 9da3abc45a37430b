#include "hunt_command.h"

#include <unistd.h>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QThread>
#include <cstdio>

#include "command_line.h"
#include "distributed/distributed_hunt.h"
#include "hunt/counterexample_files.h"
#include "hunt/hunt.h"
#include "hunt/hunt_reference.h"
#include "hunt/hunt_report.h"
#include "hunt/violation_text.h"
#include "input_error.h"
#include "interrupt.h"
#include "output/output_paths.h"
#include "redis/redis_error.h"
#include "run_outputs.h"
#include "worker_command.h"

namespace ratelab::cli {
namespace {

constexpr qint64 kDefaultTraces = 1000;
constexpr qint64 kMaxTraces = 1'000'000'000;
constexpr int kDefaultMaxRows = 12;
constexpr int kMaxRows = 1000;
constexpr double kMaxBudgetS = 7 * 24 * 3600;

double budgetOption(const QCommandLineParser& parser) {
    const QString name = QStringLiteral("budget-s");
    if (!parser.isSet(name)) {
        return 0;
    }
    bool ok = false;
    const double value = parser.value(name).toDouble(&ok);
    if (!ok || !(value > 0) || value > kMaxBudgetS) {
        throw InputError(QStringLiteral("--budget-s"),
                         QStringLiteral("must be a number of seconds above 0 and at most %1, got "
                                        "\"%2\"")
                             .arg(kMaxBudgetS)
                             .arg(parser.value(name)));
    }
    return value;
}

std::vector<HuntProperty> propertiesOption(const QCommandLineParser& parser, bool reference) {
    std::vector<HuntProperty> properties;
    for (const QString& name : parser.values(QStringLiteral("property"))) {
        const std::optional<HuntProperty> property = huntPropertyNamed(name);
        if (!property) {
            throw InputError(QStringLiteral("--property"),
                             QStringLiteral("unknown property \"%1\"; expected %2")
                                 .arg(name, huntPropertyNames().join(QStringLiteral(", "))));
        }
        if (std::find(properties.begin(), properties.end(), *property) == properties.end()) {
            properties.push_back(*property);
        }
    }
    if (properties.empty()) {
        // agree when there is something to agree with, else what every limiter promises
        properties = reference
                         ? std::vector<HuntProperty>{HuntProperty::Agree}
                         : std::vector<HuntProperty>{HuntProperty::Retry, HuntProperty::Remaining};
    }
    const bool agree =
        std::find(properties.begin(), properties.end(), HuntProperty::Agree) != properties.end();
    if (agree && !reference) {
        throw InputError(QStringLiteral("--property agree"),
                         QStringLiteral("needs a reference to agree with: --reference REF.json "
                                        "(a built-in spec without name and scope), or a script "
                                        "limiter's own \"reference\""));
    }
    return properties;
}

// Everything the command line says, checked before anything reaches Redis.
HuntConfig configOf(const QCommandLineParser& parser, const QString& specFile) {
    HuntConfig config;
    config.limiter = loadLimiterSpecFile(specFile);
    refuseRedisTime(config.limiter, specFile);
    if (parser.isSet(QStringLiteral("reference"))) {
        config.reference =
            loadHuntReference(parser.value(QStringLiteral("reference")), config.limiter);
    } else {
        config.reference = takeScriptReference(config.limiter);
    }
    config.properties = propertiesOption(parser, config.reference.has_value());
    config.seed = quint64(integerOption(parser, QStringLiteral("seed"), 1, 0, qint64(1) << 53));
    config.budgetS = budgetOption(parser);
    config.traces = integerOption(parser, QStringLiteral("traces"),
                                  config.budgetS > 0 ? 0 : kDefaultTraces, 1, kMaxTraces);
    config.maxRows =
        int(integerOption(parser, QStringLiteral("max-rows"), kDefaultMaxRows, 1, kMaxRows));
    return config;
}

// Progress on stderr: rewritten in place on a terminal, a line a second otherwise.
class ProgressLine {
public:
    ProgressLine() : tty_(::isatty(STDERR_FILENO) != 0) { clock_.start(); }
    void show(const HuntProgress& progress) {
        const qint64 now = clock_.elapsed();
        if (now - shownAt_ < (tty_ ? 200 : 1000)) {
            return;
        }
        shownAt_ = now;
        const QString line = huntProgressText(progress, double(now) / 1000);
        std::fprintf(stderr, tty_ ? "\r%s\x1b[K" : "%s\n", qPrintable(line));
        shown_ = true;
    }
    void end() {
        if (tty_ && shown_) {
            std::fputs("\r\x1b[K", stderr);
        }
    }

private:
    bool tty_;
    bool shown_ = false;
    QElapsedTimer clock_;
    qint64 shownAt_ = 0;
};

// Checks the options of --distributed before anything reaches Redis.
void checkDistributedOptions(const QCommandLineParser& parser) {
    const bool distributed = parser.isSet(QStringLiteral("distributed"));
    for (const char* option : {"queue", "claim-ms", "batch"}) {
        if (!distributed && parser.isSet(QLatin1String(option))) {
            throw InputError(QStringLiteral("--%1").arg(QLatin1String(option)),
                             QStringLiteral("only with --distributed"));
        }
    }
    if (!distributed) {
        return;
    }
    if (parser.isSet(QStringLiteral("budget-s"))) {
        throw InputError(QStringLiteral("--budget-s"),
                         QStringLiteral("not with --distributed: a distributed hunt tries a fixed "
                                        "number of traces (--traces N)"));
    }
    QueueKeys(parser.isSet(QStringLiteral("queue")) ? parser.value(QStringLiteral("queue"))
                                                    : QueueKeys::kDefaultName,
              QStringLiteral("--queue"));
    requireSharedRedis(parser, QStringLiteral("--distributed"));
}

// `hunt --distributed`: the traces in batches on the queue, decided here and by the workers,
// the counterexample shrunk here. Its result is a local hunt's; a Redis failure throws.
HuntResult huntDistributed(const QCommandLineParser& parser, const HuntConfig& config,
                           const QString& specFile, const RedisTarget& target) {
    try {
        checkDistributable(QJsonDocument::fromJson(huntJobJson(config)).object());
    } catch (const InputError& e) {
        throw e.within(specFile);
    }
    DistributedHuntOptions options{
        workerIdentity(parser, target, QStringLiteral("coordinator")),
        integerOption(parser, QStringLiteral("batch"), 0, 1, kMaxHuntBatch),
        std::chrono::milliseconds(30000)};
    DistributedHunt hunt(config, options, [](const QString& line) {
        std::fprintf(stderr, "hunt: %s\n", qPrintable(line));
        std::fflush(stderr);
    });
    hunt.start();
    ProgressLine progress;
    while (!hunt.finished()) {
        QThread::msleep(50);
        if (interrupted()) {
            hunt.requestStop();
        }
        progress.show(hunt.progress());
    }
    hunt.wait();
    progress.end();
    if (!hunt.error().isEmpty()) {
        throw RedisError(RedisError::Kind::Connect, hunt.error().toStdString());
    }
    return hunt.result();
}

}  // namespace

int huntCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("spec"), QStringLiteral("Limiter spec (JSON)."));
    parser.addOptions({
        {QStringLiteral("reference"),
         QStringLiteral("What `agree` compares with: a built-in spec without name and scope "
                        "(default: a script limiter's own \"reference\")."),
         QStringLiteral("REF")},
        {QStringLiteral("property"),
         QStringLiteral("agree, retry or remaining; repeat for more (default: agree with a "
                        "reference, else retry and remaining)."),
         QStringLiteral("NAME")},
        {QStringLiteral("seed"), QStringLiteral("Seed of the traces (default 1)."),
         QStringLiteral("N")},
        {QStringLiteral("traces"),
         QStringLiteral("How many traces to try (default 1000; with --budget-s: until it ends)."),
         QStringLiteral("N")},
        {QStringLiteral("budget-s"), QStringLiteral("Stop after this many seconds."),
         QStringLiteral("S")},
        {QStringLiteral("max-rows"), QStringLiteral("Rows of a trace at most (default 12)."),
         QStringLiteral("R")},
        {QStringLiteral("out"),
         QStringLiteral("Folder for the counterexample (default ./ratelab-hunt)."),
         QStringLiteral("DIR")},
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
    });
    parser.addOptions(distributedOptions(
        QStringLiteral("shrink here (batches of traces)."),
        QStringLiteral("Traces per batch of a distributed hunt (default: an eighth of them, at "
                       "most 1000).")));
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const QString specFile = parser.positionalArguments().first();
        checkDistributedOptions(parser);
        const HuntConfig config = configOf(parser, specFile);
        const OutputTargets outputs{QStringLiteral("hunt"),
                                    parser.isSet(QStringLiteral("out"))
                                        ? parser.value(QStringLiteral("out"))
                                        : QStringLiteral("ratelab-hunt"),
                                    QString(), hunt_files::all(), specFile};
        // An earlier hunt's counterexample is removed: what the folder holds afterwards is
        // this hunt's.
        prepareOutputTargets(outputs);
        installInterruptHandlers();
        const RedisTarget target = resolveRedisTarget(parser);
        HuntResult result;
        if (parser.isSet(QStringLiteral("distributed"))) {
            result = huntDistributed(parser, config, specFile, target);
        } else {
            Hunt hunt(config, target.url());
            ProgressLine progress;
            result =
                hunt.run(&interruptFlag(), [&](const HuntProgress& seen) { progress.show(seen); });
            progress.end();
        }

        std::fputs(qPrintable(huntResultText(config, result)), stdout);
        QStringList failures;
        if (result.counterexample) {
            const Counterexample& found = *result.counterexample;
            const QString explanation = violationText(config.limiter, config.reference, found.trace,
                                                      *found.checked.violation);
            try {
                for (const QString& path :
                     writeCounterexampleFiles(outputs.dir, config, found, explanation)) {
                    std::printf("wrote %s\n", qPrintable(path));
                }
            } catch (const InputError& e) {
                failures << e.message();
            }
            if (found.regression && !found.regression->unwritable.isEmpty()) {
                std::printf("no regression.json: %s\n", qPrintable(found.regression->unwritable));
            } else if (found.regression) {
                std::printf("regression.json expects %s accepted == %lld (now %lld)\n",
                            qPrintable(config.limiter.name),
                            static_cast<long long>(found.regression->expectedAccepted),
                            static_cast<long long>(found.regression->acceptedNow));
            }
        }
        std::printf("%s\n", qPrintable(huntSpeedText(result)));
        if (result.interrupted) {
            std::printf("interrupted by %s after %lld traces (%lld rows)\n",
                        qPrintable(interruptName()), static_cast<long long>(result.traces),
                        static_cast<long long>(result.rows));
            return outputExitCode(interruptExitCode(), failures);
        }
        return outputExitCode(result.counterexample ? kFailed : kDone, failures);
    });
}

}  // namespace ratelab::cli
