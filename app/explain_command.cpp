#include "explain_command.h"

#include <QJsonDocument>
#include <cstdio>

#include "command_line.h"
#include "explain/explanation_output.h"
#include "input_error.h"
#include "redis/redis_router.h"
#include "redis/redis_target.h"
#include "run/scenario_explainer.h"
#include "scenario/scenario.h"

namespace ratelab::cli {

int explainCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOptions({
        {QStringLiteral("limiter"), QStringLiteral("The scenario's limiter to explain."),
         QStringLiteral("NAME")},
        {QStringLiteral("request"), QStringLiteral("The request's place in the schedule, 0-based."),
         QStringLiteral("N")},
        {QStringLiteral("at"),
         QStringLiteral("The request nearest this time: epoch ms, or ms since the run's start."),
         QStringLiteral("T_MS")},
        {QStringLiteral("client"), QStringLiteral("With --at: only this client's requests."),
         QStringLiteral("C")},
        {QStringLiteral("json"), QStringLiteral("One JSON object instead of text.")},
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
    });
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {QStringLiteral("limiter")}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        // All input is checked before Redis is touched.
        const bool byIndex = parser.isSet(QStringLiteral("request"));
        const bool byTime = parser.isSet(QStringLiteral("at"));
        if (byIndex == byTime) {
            throw InputError(QStringLiteral("--request"),
                             QStringLiteral("give either --request N or --at T_MS"));
        }
        if (parser.isSet(QStringLiteral("client")) && !byTime) {
            throw InputError(QStringLiteral("--client"), QStringLiteral("goes with --at"));
        }
        ExplainTarget target;
        if (byIndex) {
            target.index = integerOption(parser, QStringLiteral("request"), 0, 0,
                                         std::numeric_limits<qint64>::max() / 2);
        } else {
            target.atMs = integerOption(parser, QStringLiteral("at"), 0, 0,
                                        std::numeric_limits<qint64>::max() / 4);
            target.client = parser.value(QStringLiteral("client"));
        }
        const Scenario scenario = loadScenarioFile(parser.positionalArguments().at(0));
        const QString limiter = parser.value(QStringLiteral("limiter"));
        explainedLimiter(scenario, limiter);  // an unknown name is bad input, and so is a
        const qint64 index = explainedRequest(scenario, target);  // request the schedule lacks
        const RedisTarget redis = resolveRedisTarget(parser);
        RedisRouter router(redis.url());
        const Explanation explanation = explainRequest(scenario, limiter, index, router);
        const QByteArray out =
            parser.isSet(QStringLiteral("json"))
                ? QJsonDocument(explanationJson(explanation)).toJson(QJsonDocument::Indented)
                : explanationText(explanation).toUtf8();
        std::fwrite(out.constData(), 1, out.size(), stdout);
        std::fflush(stdout);
        return int(kDone);
    });
}

}  // namespace ratelab::cli
