#include "editors/field_help.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHash>
#include <QLineEdit>
#include <QWidget>

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("FieldHelp", text);
}

const QHash<QString, QString>& table() {
    static const QHash<QString, QString> help{
        // Traffic: shape
        {QStringLiteral("shape"), tr("How requests arrive over time (the scenario's "
                                     "traffic.shape.type)")},
        {QStringLiteral("duration"), tr("How long the run sends requests, in seconds")},
        {QStringLiteral("rate"), tr("Requests per second")},
        {QStringLiteral("burst"), tr("Requests sent at once at each burst")},
        {QStringLiteral("every"), tr("Seconds between two bursts")},
        {QStringLiteral("from"), tr("Requests per second at the start of the ramp")},
        {QStringLiteral("to"), tr("Requests per second at the end of the ramp")},
        {QStringLiteral("mean"), tr("Average requests per second of the sine wave")},
        {QStringLiteral("amplitude"), tr("How far the sine wave swings above and below the mean "
                                         "(requests per second)")},
        {QStringLiteral("period"), tr("Seconds of one full sine wave")},
        {QStringLiteral("stages"), tr("Steps of constant rate: requests per second for so many "
                                      "seconds, one after another")},
        {QStringLiteral("addStage"), tr("Adds a stage after the last one")},
        {QStringLiteral("removeStage"), tr("Removes the selected stages (none: the last one)")},
        {QStringLiteral("trace"), tr("A CSV of t_ms,client,permits replayed request by request")},
        {QStringLiteral("browseTrace"), tr("Chooses the trace file")},
        // Traffic: clients
        {QStringLiteral("clients"), tr("How many clients send the requests (named c0 … c<N-1>)")},
        {QStringLiteral("weights"), tr("How often each client sends, relative to the others; "
                                       "empty: all alike")},
        {QStringLiteral("permitsMin"), tr("Permits each request asks for")},
        {QStringLiteral("permitsRange"), tr("Each request asks for a uniformly random number of "
                                            "permits")},
        {QStringLiteral("permitsMax"), tr("The most permits one request asks for")},
        {QStringLiteral("threads"), tr("Worker threads sending requests, each with its own Redis "
                                       "connection")},
        {QStringLiteral("pipeline"), tr("Requests each thread keeps in flight at once")},
        {QStringLiteral("groups"), tr("Named client groups, each with its own clients and shape "
                                      "(the scenario's traffic.groups); they replace the shape "
                                      "and the client count above")},
        {QStringLiteral("groupName"), tr("The group's name: its clients are <name>-0, <name>-1 "
                                         "…, its figures group.<name>.accepted …")},
        {QStringLiteral("groupClients"), tr("How many clients share the group's requests (a "
                                            "replay group's come from its trace)")},
        {QStringLiteral("groupShape"), tr("How the group's requests arrive over time (its "
                                          "shape's type)")},
        {QStringLiteral("groupRate"), tr("The whole group's requests per second, each request's "
                                         "client drawn among the group's")},
        {QStringLiteral("groupShapeJson"), tr("The shape's other fields; click to edit them as "
                                              "JSON")},
        {QStringLiteral("addGroup"), tr("Adds a group of one client sending 10 requests/s")},
        {QStringLiteral("removeGroup"), tr("Removes the selected group (none: the last one); "
                                           "without groups the shape and clients above apply")},
        {QStringLiteral("clockSkew"), tr("How far clients' clocks are off, in ms (+ ahead, - "
                                         "behind): one number for every client, or client: ms "
                                         "pairs")},
        // Traffic: acquire, release, gateways, clock, run
        {QStringLiteral("mode"), tr("try: a rejected request is refused at once; wait: it waits "
                                    "retry_after_ms and tries again until the timeout")},
        {QStringLiteral("timeout"), tr("How long a waiting request may wait in total, in ms")},
        {QStringLiteral("holdType"), tr("How long a granted request holds its concurrency slots "
                                        "before it releases them: none, a constant time, or "
                                        "drawn from an exponential distribution of a mean "
                                        "(the scenario's traffic.hold); other limiters ignore "
                                        "it")},
        {QStringLiteral("holdMs"), tr("The hold time in ms: the constant itself, or the mean of "
                                      "the exponential draw (at least 1)")},
        {QStringLiteral("leakPct"), tr("The share of granted requests that never release, as "
                                       "crashed workers (chosen by the seed): their slots come "
                                       "back only when their lease runs out")},
        {QStringLiteral("gatewayCount"), tr("Gateway instances between the clients and Redis, "
                                            "each with its own clock and local state; each "
                                            "limiter's Gateway use says what they keep")},
        {QStringLiteral("balance"), tr("Round robin: the i-th request goes to gateway i mod N; "
                                       "sticky: a client always goes to the same gateway")},
        {QStringLiteral("gatewaySkews"), tr("How far each gateway's clock is off, in ms (+ ahead, "
                                            "- behind), comma-separated, one per gateway; empty: "
                                            "none")},
        {QStringLiteral("clock"), tr("Real: the wall clock; virtual: the scenario's own clock, "
                                     "starting at Start and running at Speed")},
        {QStringLiteral("start"), tr("ISO 8601 date and time with an offset or Z")},
        {QStringLiteral("speed"), tr("How fast the virtual clock runs compared to real time")},
        {QStringLiteral("asFastAsPossible"), tr("The virtual clock jumps from request to "
                                                "request without waiting")},
        {QStringLiteral("seed"), tr("Seeds the random choices (arrivals, clients, permits): the "
                                    "same seed gives the same schedule")},
        {QStringLiteral("bucketMs"), tr("Width of one timeline bar, in ms")},
        // Limiters: gateway use
        {QStringLiteral("gatewayMode"), tr("How the traffic's gateways use this limiter: shared, "
                                           "every decision in Redis; local, each gateway its "
                                           "own limiter (name@g0, name@g1, …); batched (the fixed "
                                           "window), grants counted at the gateway and added to "
                                           "Redis once per sync interval")},
        {QStringLiteral("cacheRefusals"), tr("Shared only: a gateway refuses a request locally, "
                                             "without asking Redis, until the retry_after_ms of "
                                             "the last refusal Redis gave it has passed")},
        {QStringLiteral("syncMs"), tr("Batched only: every this many ms a gateway adds its "
                                      "pending grants to Redis and reads the count back")},
        // Limiters
        {QStringLiteral("limiterList"), tr("The scenario's limiters; every request goes to all "
                                           "of them")},
        {QStringLiteral("addLimiter"), tr("Adds a limiter of the chosen type")},
        {QStringLiteral("removeLimiter"), tr("Removes the selected limiter")},
    };
    return help;
}

bool isField(const QWidget* w) {
    return qobject_cast<const QLineEdit*>(w) || qobject_cast<const QComboBox*>(w) ||
           qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QAbstractSlider*>(w) ||
           qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QAbstractItemView*>(w);
}

}  // namespace

QString fieldHelp(const QString& objectName) {
    return table().value(objectName);
}

void applyFieldHelp(QWidget* root) {
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (isField(w) && w->toolTip().isEmpty())
            w->setToolTip(fieldHelp(w->objectName()));
    }
}

}  // namespace ratelab
