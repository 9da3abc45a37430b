// The script type's fields (docs/scenarios.md, "Script limiters"): read with messages naming
// the JSON path, and written back in the same form.
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <cmath>

#include "input_error.h"
#include "json_input.h"
#include "limiters/script_spec_io.h"

namespace ratelab {
namespace {

using namespace json_input;

const QLatin1String kScript("script"), kInline("inline"), kKeys("keys"), kArgs("args");
const QLatin1String kReply("reply"), kAllowed("allowed"), kIndex("index");
const QLatin1String kRetry("retry_after_ms"), kRemaining("remaining"), kReference("reference");
const QLatin1String kState("state"), kKey("key"), kRead("read"), kWindowMs("window_ms");
const QLatin1String kField("field"), kReset("reset"), kClock("clock");

constexpr ReplyMapping::Allowed kAllowedValues[] = {
    ReplyMapping::Allowed::Nil, ReplyMapping::Allowed::NotNil, ReplyMapping::Allowed::Zero,
    ReplyMapping::Allowed::One, ReplyMapping::Allowed::Ok};
constexpr ScriptStateRead::Read kReads[] = {
    ScriptStateRead::Read::ZcountWindow, ScriptStateRead::Read::Integer,
    ScriptStateRead::Read::HashField, ScriptStateRead::Read::Zcard};
constexpr ScriptClock kClocks[] = {ScriptClock::Args, ScriptClock::Redis};

// A whole number from min to max at `where`.
qint64 readWhole(const QJsonValue& value, const QString& where, qint64 min, qint64 max) {
    const double number = value.isDouble() ? value.toDouble() : std::nan("");
    if (!std::isfinite(number) || number != std::trunc(number) || number < double(min) ||
        number > double(max)) {
        throw InputError(where, QStringLiteral("must be an integer from %1 to %2, got %3")
                                    .arg(min)
                                    .arg(max)
                                    .arg(describe(value)));
    }
    return qint64(number);
}

void readSource(const QJsonValue& value, const QString& where, const QString& baseDir,
                ScriptSpec& s) {
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        refuseUnknownFields(object, where, {kInline});
        s.source =
            readString(required(object, where, kInline), memberPath(where, kInline)).toStdString();
        if (s.source.empty()) {
            throw InputError(memberPath(where, kInline), QStringLiteral("must not be empty"));
        }
        if (qint64(s.source.size()) > script_limits::kMaxScriptBytes) {
            throw InputError(memberPath(where, kInline),
                             QStringLiteral("holds %1 bytes; a limiter's script has at most %2")
                                 .arg(s.source.size())
                                 .arg(script_limits::kMaxScriptBytes));
        }
        return;
    }
    if (!value.isString()) {
        throw InputError(where, QStringLiteral("must be a .lua file's path (relative to the file "
                                               "holding the spec) or {\"inline\": \"<source>\"}, "
                                               "got ") +
                                    describe(value));
    }
    s.file = value.toString();
    if (s.file.isEmpty()) {
        throw InputError(where, QStringLiteral("must not be empty"));
    }
    const QDir base(baseDir.isEmpty() ? QDir::currentPath() : baseDir);
    s.resolved = QFileInfo(base.filePath(s.file)).absoluteFilePath();
    try {
        s.source = readSmallFile(s.resolved, script_limits::kMaxScriptBytes,
                                 QStringLiteral("a limiter's script is a few pages of Lua"))
                       .toStdString();
    } catch (const InputError& e) {
        throw InputError(where, e.message());
    }
}

std::vector<ScriptTemplate> readTemplates(const QJsonObject& object, const QString& path,
                                          QLatin1String key, int min, int max, bool keyNames) {
    const QString where = memberPath(path, key);
    const QJsonValue value = object.value(key);
    if (value.isUndefined() && min == 0) {
        return {};
    }
    if (!value.isArray()) {
        throw InputError(
            where, QStringLiteral("must be an array of template strings, got ") + describe(value));
    }
    const QJsonArray array = value.toArray();
    if (array.size() < min || array.size() > max) {
        throw InputError(where, QStringLiteral("must hold %1 to %2 templates, got %3")
                                    .arg(min)
                                    .arg(max)
                                    .arg(array.size()));
    }
    std::vector<ScriptTemplate> out;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = elementPath(where, i);
        if (!array.at(i).isString()) {
            throw InputError(at, QStringLiteral("must be a template string (a number is written "
                                                "as text: \"10\"), got ") +
                                     describe(array.at(i)));
        }
        const QString text = array.at(i).toString();
        if (keyNames && text.isEmpty()) {
            throw InputError(at, QStringLiteral("must not be empty"));
        }
        out.push_back(ScriptTemplate::parse(text, at));
    }
    return out;
}

ReplyMapping::Field readReplyField(const QJsonObject& reply, const QString& path, QLatin1String key,
                                   int index) {
    ReplyMapping::Field field;
    const QString where = memberPath(path, key);
    const QJsonValue value = reply.value(key);
    if (value.isUndefined()) {
        return field;
    }
    if (value.isString() && value.toString() == QLatin1String("reply")) {
        if (index >= 0) {
            throw InputError(where, QStringLiteral("\"reply\" reads the reply itself, which is an "
                                                   "array when reply.index is given; name its "
                                                   "element"));
        }
        field.from = ReplyMapping::Field::From::Reply;
        return field;
    }
    if (!value.isDouble()) {
        throw InputError(
            where, QStringLiteral("must be an element index or \"reply\", got ") + describe(value));
    }
    if (index < 0) {
        throw InputError(where, QStringLiteral("an element index needs reply.index (the element "
                                               "that grants): the reply is then an array"));
    }
    field.from = ReplyMapping::Field::From::Index;
    field.index = int(readWhole(value, where, 0, script_limits::kMaxReplyIndex));
    return field;
}

ReplyMapping readReply(const QJsonObject& object, const QString& path) {
    const QString where = memberPath(path, kReply);
    const QJsonValue value = required(object, path, kReply);
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an object {\"allowed\", \"index\", "
                                               "\"retry_after_ms\", \"remaining\"}, got ") +
                                    describe(value));
    }
    const QJsonObject reply = value.toObject();
    refuseUnknownFields(reply, where, {kAllowed, kIndex, kRetry, kRemaining});
    ReplyMapping m;
    m.allowed = readChoice(required(reply, where, kAllowed), memberPath(where, kAllowed),
                           QStringLiteral("value"), kAllowedValues, replyAllowedName);
    if (reply.contains(kIndex)) {
        m.index = int(readWhole(reply.value(kIndex), memberPath(where, kIndex), 0,
                                script_limits::kMaxReplyIndex));
    }
    m.retryAfterMs = readReplyField(reply, where, kRetry, m.index);
    m.remaining = readReplyField(reply, where, kRemaining, m.index);
    return m;
}

// A built-in spec without name and scope: the script limiter's scope and a name of its own.
LimiterSpec readReference(const QJsonValue& value, const QString& where, const LimiterSpec& spec) {
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be a built-in limiter spec without name, "
                                               "got ") +
                                    describe(value));
    }
    QJsonObject object = value.toObject();
    for (const QLatin1String key : {QLatin1String("name"), QLatin1String("scope")}) {
        if (object.contains(key)) {
            throw InputError(
                memberPath(where, key),
                QStringLiteral("the reference takes the script limiter's %1").arg(key));
        }
    }
    for (const QLatin1String key : {QLatin1String("gateway"), QLatin1String("on_error")}) {
        if (object.contains(key)) {
            throw InputError(memberPath(where, key),
                             QStringLiteral("a reference decides in Redis beside the script; "
                                            "\"%1\" is the script limiter's")
                                 .arg(key));
        }
    }
    if (object.value(QLatin1String("type")) == QJsonValue(QStringLiteral("script"))) {
        throw InputError(memberPath(where, QLatin1String("type")),
                         QStringLiteral("a reference is a built-in limiter, not a script"));
    }
    // A name for the parser only: the reference decides under referenceName() of the limiter's.
    object.insert(QLatin1String("name"), QStringLiteral("reference"));
    object.insert(QLatin1String("scope"), scopeName(spec.scope));
    LimiterSpec reference = parseLimiterSpec(object, where);
    reference.name.clear();
    return reference;
}

ScriptStateRead readState(const QJsonValue& value, const QString& where) {
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an object {\"key\", \"read\", ...}, got ") +
                                    describe(value));
    }
    const QJsonObject object = value.toObject();
    refuseUnknownFields(object, where, {kKey, kRead, kWindowMs, kField});
    ScriptStateRead state;
    state.read = readChoice(required(object, where, kRead), memberPath(where, kRead),
                            QStringLiteral("state read"), kReads, stateReadName);
    const QString keyPath = memberPath(where, kKey);
    state.key = ScriptTemplate::parse(readString(required(object, where, kKey), keyPath), keyPath);
    if (state.key.variesPerRequest()) {
        throw InputError(
            keyPath,
            QStringLiteral("%1: a state key names only {name} and {client}").arg(state.key.text()));
    }
    const bool window = state.read == ScriptStateRead::Read::ZcountWindow;
    const bool hash = state.read == ScriptStateRead::Read::HashField;
    if (window) {
        state.windowMs = readWhole(required(object, where, kWindowMs), memberPath(where, kWindowMs),
                                   1, spec_limits::kMaxIntervalMs);
    } else if (object.contains(kWindowMs)) {
        throw InputError(memberPath(where, kWindowMs),
                         QStringLiteral("only \"read\": \"zcount_window\" takes a window"));
    }
    if (hash) {
        state.field = readString(required(object, where, kField), memberPath(where, kField));
    } else if (object.contains(kField)) {
        throw InputError(memberPath(where, kField),
                         QStringLiteral("only \"read\": \"hash_field\" takes a field"));
    }
    return state;
}

QJsonArray templatesJson(const std::vector<ScriptTemplate>& templates) {
    QJsonArray array;
    for (const ScriptTemplate& t : templates) {
        array.append(t.text());
    }
    return array;
}

QJsonValue replyFieldJson(const ReplyMapping::Field& field) {
    return field.from == ReplyMapping::Field::From::Reply ? QJsonValue(QStringLiteral("reply"))
                                                          : QJsonValue(field.index);
}

}  // namespace

const std::vector<QLatin1String>& scriptFieldKeys() {
    static const std::vector<QLatin1String> keys = {kScript,    kKeys,  kArgs,  kReply,
                                                    kReference, kState, kReset, kClock};
    return keys;
}

void readScriptFields(const QJsonObject& object, const QString& path, const QString& baseDir,
                      LimiterSpec& spec) {
    if (spec.time == TimeSource::Redis) {
        throw InputError(memberPath(path, QLatin1String("time")),
                         QStringLiteral("a script reads the time it is given ({now_ms}); one "
                                        "that reads Redis's own clock declares \"clock\": "
                                        "\"redis\""));
    }
    auto s = std::make_shared<ScriptSpec>();
    s->declaredName = spec.name;
    readSource(required(object, path, kScript), memberPath(path, kScript), baseDir, *s);
    s->keys = readTemplates(object, path, kKeys, 1, script_limits::kMaxKeys, true);
    s->args = readTemplates(object, path, kArgs, 0, script_limits::kMaxArgs, false);
    s->reply = readReply(object, path);
    if (object.contains(kReference)) {
        s->reference = readReference(object.value(kReference), memberPath(path, kReference), spec);
    }
    if (object.contains(kState)) {
        s->state = readState(object.value(kState), memberPath(path, kState));
    }
    if (object.contains(kReset)) {
        s->reset = readTemplates(object, path, kReset, 1, script_limits::kMaxResetPatterns, true);
        for (std::size_t i = 0; i < s->reset.size(); ++i) {
            if (s->reset[i].variesPerRequest()) {
                throw InputError(elementPath(memberPath(path, kReset), qsizetype(i)),
                                 QStringLiteral("%1: a reset pattern names only {name} and "
                                                "{client} (any client)")
                                     .arg(s->reset[i].text()));
            }
        }
    } else {
        for (std::size_t i = 0; i < s->keys.size(); ++i) {
            if (s->keys[i].variesPerRequest()) {
                throw InputError(
                    elementPath(memberPath(path, kKeys), qsizetype(i)),
                    QStringLiteral("%1 changes with every request, so no pattern made of it can "
                                   "find its keys to delete them before a run: give \"reset\", "
                                   "the key patterns to delete")
                        .arg(s->keys[i].text()));
            }
        }
    }
    if (object.contains(kClock)) {
        s->clock = readChoice(object.value(kClock), memberPath(path, kClock),
                              QStringLiteral("clock"), kClocks, scriptClockName);
    }
    spec.script = std::move(s);
}

void writeScriptFields(const LimiterSpec& spec, QJsonObject& object, SpecFiles files) {
    if (!spec.script) {
        return;
    }
    const ScriptSpec& s = *spec.script;
    if (s.file.isEmpty() || files == SpecFiles::Inline) {
        object.insert(kScript, QJsonObject{{kInline, QString::fromStdString(s.source)}});
    } else {
        object.insert(kScript, files == SpecFiles::Resolved ? s.resolved : s.file);
    }
    object.insert(kKeys, templatesJson(s.keys));
    if (!s.args.empty()) {
        object.insert(kArgs, templatesJson(s.args));
    }
    QJsonObject reply{{kAllowed, replyAllowedName(s.reply.allowed)}};
    if (s.reply.index >= 0) {
        reply.insert(kIndex, s.reply.index);
    }
    if (s.reply.retryAfterMs.from != ReplyMapping::Field::From::Absent) {
        reply.insert(kRetry, replyFieldJson(s.reply.retryAfterMs));
    }
    if (s.reply.remaining.from != ReplyMapping::Field::From::Absent) {
        reply.insert(kRemaining, replyFieldJson(s.reply.remaining));
    }
    object.insert(kReply, reply);
    if (s.reference) {
        LimiterSpec named = *s.reference;
        named.name = QStringLiteral("reference");  // removed below: the reference has none
        QJsonObject reference = limiterSpecToJson(named, files);
        reference.remove(QLatin1String("name"));
        reference.remove(QLatin1String("scope"));
        object.insert(kReference, reference);
    }
    if (s.state.read != ScriptStateRead::Read::None) {
        QJsonObject state{{kKey, s.state.key.text()}, {kRead, stateReadName(s.state.read)}};
        if (s.state.read == ScriptStateRead::Read::ZcountWindow) {
            state.insert(kWindowMs, s.state.windowMs);
        }
        if (s.state.read == ScriptStateRead::Read::HashField) {
            state.insert(kField, s.state.field);
        }
        object.insert(kState, state);
    }
    if (!s.reset.empty()) {
        object.insert(kReset, templatesJson(s.reset));
    }
    if (s.clock != ScriptClock::Args) {
        object.insert(kClock, scriptClockName(s.clock));
    }
}

}  // namespace ratelab
