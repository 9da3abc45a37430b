// Reading a scenario's traffic groups ("traffic.groups"): each a name, its clients and a shape
// of its own; their traces are read after the rest of the scenario (finishGroups).

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>
#include <limits>

#include "json_input.h"
#include "scenario/scenario_budget.h"
#include "scenario/scenario_json.h"
#include "traffic/request_factory.h"
#include "traffic/traffic_schedule.h"

namespace ratelab::scenario_json {

using namespace json_input;

namespace {

using scenario_limits::kMaxClients;
using scenario_limits::kMaxGroupNameLength;
using scenario_limits::kMaxGroups;

QString readGroupName(const QJsonValue& value, const QString& where) {
    static const QRegularExpression kName(QStringLiteral("^[A-Za-z0-9_-]+$"));
    const QString name = readString(value, where);
    if (name.isEmpty() || name.size() > kMaxGroupNameLength || !kName.match(name).hasMatch()) {
        throw InputError(where, QStringLiteral("must be 1 to %1 letters, digits, '_' or '-' (it "
                                               "names the group's clients, \"<name>-0\" ..., and "
                                               "its figures, group.<name>.accepted), got %2")
                                    .arg(kMaxGroupNameLength)
                                    .arg(describe(value)));
    }
    return name;
}

ClientGroup readGroup(const QJsonValue& value, const QString& path) {
    const QLatin1String name("name"), clients("clients"), shape("shape");
    const QJsonObject object = readObject(value, path);
    refuseUnknownFields(object, path, {name, clients, shape});
    ClientGroup group;
    group.name = readGroupName(required(object, path, name), memberPath(path, name));
    const QString shapePath = memberPath(path, shape);
    group.shape = readShape(readObject(required(object, path, shape), shapePath), shapePath,
                            &group.tracePath);
    if (group.shape.type == ShapeSpec::Type::Replay) {
        if (object.contains(clients)) {
            throw InputError(memberPath(path, clients),
                             QStringLiteral("not allowed with a replay shape: the trace gives "
                                            "each request's client"));
        }
    } else if (object.contains(clients)) {
        group.clients = static_cast<int>(readInteger(object, path, clients, 1, kMaxClients));
    }
    return group;
}

// The longest natural length (s) of the groups: a step shape's stages, a replay's trace span
// + 1 ms; 0 when a group has none (its length comes from duration_s).
double naturalLengthS(const QVector<ClientGroup>& groups) {
    double longest = 0;
    for (const ClientGroup& group : groups) {
        double length = 0;
        if (group.shape.type == ShapeSpec::Type::Step) {
            for (const ShapeSpec::Stage& stage : group.shape.stages) {
                length += stage.durationS;
            }
        } else if (group.shape.type == ShapeSpec::Type::Replay) {
            length = double(group.shape.replayOffsetsMs.value(
                                group.shape.replayOffsetsMs.size() - 1, 0) +
                            1) /
                     1000;
        } else {
            return 0;
        }
        longest = std::max(longest, length);
    }
    return longest;
}

// No client may belong to two groups: a trace's client named as another group's client.
void checkDistinctClients(const TrafficSpec& traffic, const QString& where) {
    const RequestFactory requests(traffic);
    const QStringList& names = requests.clientNames();
    const QVector<int>& ofClient = requests.groups().ofClient;
    QHash<QString, int> groupOf;
    for (int c = 0; c < names.size(); ++c) {
        const auto it = groupOf.constFind(names[c]);
        if (it != groupOf.cend() && it.value() != ofClient[c]) {
            throw InputError(elementPath(where, ofClient[c]),
                             QStringLiteral("its client %1 is also a client of group %2 (%3); a "
                                            "client belongs to one group")
                                 .arg(quoted(names[c]), quoted(traffic.groups[it.value()].name),
                                      elementPath(where, it.value())));
        }
        groupOf.insert(names[c], ofClient[c]);
    }
    if (names.size() > kMaxClients) {
        throw InputError(where, QStringLiteral("the groups have %1 clients; at most %2 are allowed")
                                    .arg(names.size())
                                    .arg(kMaxClients));
    }
}

// Replay groups cut from one log keep their times relative to each other: every replay group's
// offsets count from the earliest first row of them all (readReplayTrace counts each from its
// own first row), so a trace whose rows begin 5 s after another's starts 5 s into the run.
void keepReplayTimesApart(QVector<ClientGroup>& groups) {
    qint64 earliest = std::numeric_limits<qint64>::max();
    for (const ClientGroup& group : groups) {
        if (group.shape.type == ShapeSpec::Type::Replay && group.trace.size() > 0) {
            earliest = std::min(earliest, group.trace.tMsAt(0));
        }
    }
    for (ClientGroup& group : groups) {
        if (group.shape.type != ShapeSpec::Type::Replay || group.trace.size() == 0) {
            continue;
        }
        const qint64 shift = group.trace.tMsAt(0) - earliest;
        for (qint64& offset : group.shape.replayOffsetsMs) {
            offset += shift;
        }
    }
}

}  // namespace

QVector<ClientGroup> readGroups(const QJsonValue& value, const QString& where) {
    if (!value.isArray()) {
        throw InputError(where, QStringLiteral("must be an array of {\"name\", \"clients\", "
                                               "\"shape\"} objects, got ") +
                                    describe(value));
    }
    const QJsonArray array = value.toArray();
    if (array.isEmpty() || array.size() > kMaxGroups) {
        throw InputError(
            where,
            QStringLiteral("has %1 groups; expected 1 to %2").arg(array.size()).arg(kMaxGroups));
    }
    QVector<ClientGroup> groups;
    qint64 clients = 0;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = elementPath(where, i);
        ClientGroup group = readGroup(array.at(i), path);
        for (qsizetype j = 0; j < groups.size(); ++j) {
            if (groups[j].name == group.name) {
                throw InputError(memberPath(path, QStringLiteral("name")),
                                 QStringLiteral("duplicate name %1 (also %2)")
                                     .arg(quoted(group.name), elementPath(where, j)));
            }
        }
        if (group.shape.type != ShapeSpec::Type::Replay) {
            clients += group.clients;
        }
        if (clients > kMaxClients) {
            throw InputError(memberPath(path, QStringLiteral("clients")),
                             QStringLiteral("the groups have %1 clients up to here; at most %2 "
                                            "are allowed")
                                 .arg(clients)
                                 .arg(kMaxClients));
        }
        groups.append(std::move(group));
    }
    return groups;
}

void finishGroups(const QString& where, const QString& baseDir, bool hasDuration,
                  TrafficSpec* traffic, const TraceBudget& traceBudget) {
    for (qsizetype g = 0; g < traffic->groups.size(); ++g) {
        ClientGroup& group = traffic->groups[g];
        if (group.shape.type == ShapeSpec::Type::Replay) {
            group.trace = readReplayTrace(baseDir, group.tracePath, &group.shape, traceBudget);
        }
    }
    keepReplayTimesApart(traffic->groups);
    if (!hasDuration) {
        traffic->durationS = naturalLengthS(traffic->groups);
        if (traffic->durationS * 1000 > double(kMaxDurationMs)) {
            throw InputError(where, QStringLiteral("the groups last %1 s, longer than a run may "
                                                   "last (%2 s); give a shorter duration_s")
                                        .arg(formatNumber(traffic->durationS))
                                        .arg(formatNumber(scenario_limits::kMaxDurationS)));
        }
    }
    checkDistinctClients(*traffic, where);
    traffic->clients = int(RequestFactory(*traffic).clientNames().size());
    for (qsizetype g = 0; g < traffic->groups.size(); ++g) {
        const ClientGroup& group = traffic->groups[g];
        TrafficSpec alone;
        alone.shape = group.shape;
        alone.trace = group.trace;
        checkShapeRate(alone, memberPath(elementPath(where, g), QStringLiteral("shape")));
    }
    const double peak = schedulePeakRate(*traffic);
    if (peak > scenario_limits::kMaxRate) {
        throw InputError(where, QStringLiteral("the groups together peak at up to %1 requests/s, "
                                               "above the ceiling of %2 requests/s")
                                    .arg(formatNumber(peak))
                                    .arg(formatNumber(scenario_limits::kMaxRate)));
    }
}

namespace {

// The first group whose shape has no length of its own (not step, not replay), or null.
const ClientGroup* groupWithoutLength(const QVector<ClientGroup>& groups) {
    for (const ClientGroup& group : groups) {
        if (group.shape.type != ShapeSpec::Type::Step &&
            group.shape.type != ShapeSpec::Type::Replay) {
            return &group;
        }
    }
    return nullptr;
}

}  // namespace

QString missingGroupDuration(const QVector<ClientGroup>& groups) {
    const ClientGroup* group = groupWithoutLength(groups);
    if (group == nullptr) {
        return QStringLiteral("missing");
    }
    return QStringLiteral(
               "missing: group \"%1\" has a %2 shape, which lasts as long as the run "
               "(only step and replay groups have a length of their own)")
        .arg(group->name, shapeTypeName(group->shape.type));
}

bool groupsHaveNaturalLength(const QVector<ClientGroup>& groups) {
    return groupWithoutLength(groups) == nullptr;
}

}  // namespace ratelab::scenario_json
