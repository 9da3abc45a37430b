#include "algorithms/script_page.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>

#include "algorithms/script_reference_box.h"
#include "algorithms/template_lines.h"

namespace ratelab {
namespace {

const QLatin1String kScript("script"), kInline("inline"), kKeys("keys"), kArgs("args");
const QLatin1String kReply("reply"), kAllowed("allowed"), kIndex("index");
const QLatin1String kRetry("retry_after_ms"), kRemaining("remaining"), kReference("reference");
const QLatin1String kState("state"), kKey("key"), kRead("read"), kWindowMs("window_ms");
const QLatin1String kField("field"), kReset("reset"), kClock("clock");
const QString kFile = QStringLiteral("file");

// A field that may be left out: into the JSON only when it has text, as a number when it reads
// as one.
void insertIfGiven(QJsonObject& json, QLatin1String key, const QLineEdit* edit) {
    const QString text = edit->text().trimmed();
    if (!text.isEmpty())
        json.insert(key, numberOrText(text));
}

void selectData(QComboBox* box, const QString& data) {
    box->setCurrentIndex(std::max(0, box->findData(data)));
}

}  // namespace

ScriptPage::ScriptPage(QWidget* parent) : LimiterPage(parent) {
    addSourceRows();
    const QString placeholders =
        tr("Placeholders: {name} {client} {now_ms} {now_us} {now_s} {permits} {request_id} "
           "{uuid}; {{ and }} are literal braces.");
    keys_ =
        new TemplateLines(QStringLiteral("keys"),
                          tr("KEYS, one template per line (1 to 16). ") + placeholders, 2, this);
    form_->addRow(tr("&Keys"), keys_);
    errors_.add(form_, this, QStringLiteral("$.keys"), keys_, QStringLiteral("keys"));
    args_ = new TemplateLines(QStringLiteral("args"),
                              tr("ARGV, one template per line (0 to 64); an argument that is a "
                                 "plain integer can be swept as args[i]. ") +
                                  placeholders,
                              4, this);
    form_->addRow(tr("&Arguments"), args_);
    errors_.add(form_, this, QStringLiteral("$.args"), args_, QStringLiteral("args"));
    for (TemplateLines* lines : {keys_, args_}) {
        connect(lines, &TemplateLines::edited, this, &LimiterPage::edited);
        connect(lines, &TemplateLines::committed, this, &LimiterPage::committed);
    }
    addReplyRows();

    reference_ = new ScriptReferenceBox(this);
    form_->addRow(tr("Re&ference"), reference_);
    errors_.add(form_, this, QStringLiteral("$.reference"), reference_->fields(),
                QStringLiteral("reference"));
    connect(reference_, &ScriptReferenceBox::edited, this, &LimiterPage::edited);
    connect(reference_, &ScriptReferenceBox::committed, this, &LimiterPage::committed);

    addStateRows();
    reset_ = new TemplateLines(
        QStringLiteral("reset"),
        tr("Key patterns deleted before a run, one per line ({name} and {client}: any client); "
           "none: each key template with {client} as *. Only keys matching them are deleted."),
        2, this);
    reset_->setPlaceholderText(tr("each key template, {client} as *"));
    connect(reset_, &TemplateLines::edited, this, &LimiterPage::edited);
    connect(reset_, &TemplateLines::committed, this, &LimiterPage::committed);
    form_->addRow(tr("Rese&t"), reset_);
    errors_.add(form_, this, QStringLiteral("$.reset"), reset_, QStringLiteral("reset"));

    clock_ = addChoice(
        QStringLiteral("clock"),
        tr("Whose clock the script's decisions run on: the times it is given ({now_ms}: the "
           "run's clock, virtual or real), or Redis's own (TTL expiry, TIME), which no virtual "
           "clock moves: such a script runs on a real clock only"),
        {{tr("The times it is given ({now_ms})"), QStringLiteral("args")},
         {tr("Redis's own (TTLs, TIME): real clock only"), QStringLiteral("redis")}});
    form_->addRow(tr("C&lock"), clock_);
    errors_.add(form_, this, QStringLiteral("$.clock"), clock_, QStringLiteral("clock"));
    showSource();
    showState();
}

QComboBox* ScriptPage::addChoice(const QString& objectName, const QString& toolTip,
                                 const QList<QPair<QString, QString>>& items) {
    auto* box = new QComboBox(this);
    box->setObjectName(objectName);
    box->setToolTip(toolTip);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(16);
    for (const auto& [label, data] : items)
        box->addItem(label, data);
    connect(box, &QComboBox::currentIndexChanged, this, &LimiterPage::edited);
    connect(box, &QComboBox::currentIndexChanged, this, &LimiterPage::committed);  // a choice
    return box;
}

void ScriptPage::addSourceRows() {
    from_ = addChoice(QStringLiteral("scriptFrom"),
                      tr("Where the Lua is: a .lua file (a relative path is read from the file "
                         "holding the spec), or its source here, saved inline in the scenario"),
                      {{tr("A .lua file"), kFile}, {tr("Inline Lua"), QString(kInline)}});
    connect(from_, &QComboBox::currentIndexChanged, this, &ScriptPage::showSource);
    form_->addRow(tr("&Script"), from_);

    fileRow_ = new QWidget(this);
    auto* row = new QHBoxLayout(fileRow_);
    row->setContentsMargins(0, 0, 0, 0);
    file_ = addLineEdit(QStringLiteral("scriptFile"),
                        tr("The .lua file: SCRIPT LOAD once, EVALSHA per decision, EVAL after "
                           "NOSCRIPT, as your code calls it"));
    file_->setParent(fileRow_);
    choose_ = new QPushButton(tr("Choose…"), fileRow_);
    choose_->setObjectName(QStringLiteral("chooseScript"));
    choose_->setToolTip(tr("Choose a .lua file"));
    connect(choose_, &QPushButton::clicked, this, &ScriptPage::chooseFile);
    row->addWidget(file_, 1);
    row->addWidget(choose_);
    form_->addRow(tr("&File"), fileRow_);
    errors_.add(form_, this, QStringLiteral("$.script"), file_, QStringLiteral("scriptFile"));

    source_ = new TemplateLines(QStringLiteral("scriptSource"),
                                tr("The script's Lua, saved in the scenario as {\"inline\": …}"), 8,
                                this);
    connect(source_, &TemplateLines::edited, this, &LimiterPage::edited);
    connect(source_, &TemplateLines::committed, this, &LimiterPage::committed);
    form_->addRow(tr("S&ource"), source_);
    errors_.add(form_, this, QStringLiteral("$.script.inline"), source_,
                QStringLiteral("scriptSource"));
}

void ScriptPage::addReplyRows() {
    allowed_ = addChoice(
        QStringLiteral("replyAllowed"),
        tr("The value that grants; any other value of a fitting type refuses, an error reply or "
           "a reply that fits nothing is an error"),
        {{tr("the reply is 1"), QStringLiteral("1")},
         {tr("the reply is 0"), QStringLiteral("0")},
         {tr("the reply is nil (Redisson, return false)"), QStringLiteral("nil")},
         {tr("the reply is anything but nil"), QStringLiteral("not_nil")},
         {tr("the reply is the status OK"), QStringLiteral("ok")}});
    form_->addRow(tr("&Granted when"), allowed_);
    errors_.add(form_, this, QStringLiteral("$.reply.allowed"), allowed_,
                QStringLiteral("replyAllowed"));
    const struct {
        QLineEdit** edit;
        QString name;
        QString label;
        QString path;
        QString tip;
    } fields[] = {
        {&index_, QStringLiteral("replyIndex"), tr("Reply &element"),
         QStringLiteral("$.reply.index"),
         tr("The 0-based element of an array reply that grants or refuses; empty: the reply "
            "itself")},
        {&retry_, QStringLiteral("replyRetry"), tr("&Wait (ms) at"),
         QStringLiteral("$.reply.retry_after_ms"),
         tr("The element holding a refusal's wait in ms, or \"reply\" (a refusal's integer reply "
            "is the wait, Redisson style); empty: unknown (−1)")},
        {&remaining_, QStringLiteral("replyRemaining"), tr("&Left at"),
         QStringLiteral("$.reply.remaining"),
         tr("The element holding what is left, or \"reply\"; empty: unknown (−1)")},
    };
    for (const auto& f : fields) {
        *f.edit = addLineEdit(f.name, f.tip);
        form_->addRow(f.label, *f.edit);
        errors_.add(form_, this, f.path, *f.edit, f.name);
    }
    index_->setPlaceholderText(tr("the reply itself"));
    retry_->setPlaceholderText(tr("unknown"));
    remaining_->setPlaceholderText(tr("unknown"));
}

void ScriptPage::addStateRows() {
    stateRead_ = addChoice(
        QStringLiteral("stateRead"),
        tr("What the timeline draws of the script's state, read from Redis at the chart's now"),
        {{tr("Nothing"), QString()},
         {tr("Members in the last window (ZCOUNT)"), QStringLiteral("zcount_window")},
         {tr("An integer (GET)"), QStringLiteral("integer")},
         {tr("A hash field (HGET)"), QStringLiteral("hash_field")},
         {tr("Members (ZCARD)"), QStringLiteral("zcard")}});
    connect(stateRead_, &QComboBox::currentIndexChanged, this, &ScriptPage::showState);
    form_->addRow(tr("State dra&wn"), stateRead_);
    errors_.add(form_, this, QStringLiteral("$.state.read"), stateRead_,
                QStringLiteral("stateRead"));
    stateKey_ = addLineEdit(QStringLiteral("stateKey"),
                            tr("The key to read: a template of {name} and {client} only"));
    form_->addRow(tr("State &key"), stateKey_);
    errors_.add(form_, this, QStringLiteral("$.state.key"), stateKey_, QStringLiteral("stateKey"));
    stateWindow_ = addLineEdit(QStringLiteral("stateWindowMs"),
                               tr("Members with a score in (now − window_ms, now] are counted"));
    form_->addRow(tr("State window (ms)"), stateWindow_);
    errors_.add(form_, this, QStringLiteral("$.state.window_ms"), stateWindow_,
                QStringLiteral("stateWindowMs"));
    stateField_ = addLineEdit(QStringLiteral("stateField"), tr("The hash field to read"));
    form_->addRow(tr("State field"), stateField_);
    errors_.add(form_, this, QStringLiteral("$.state.field"), stateField_,
                QStringLiteral("stateField"));
}

bool ScriptPage::inline_() const {
    return from_->currentData().toString() == kInline;
}

// The file row or the source, as chosen. Going inline from a readable file starts from its Lua.
void ScriptPage::showSource() {
    const bool inlined = inline_();
    if (inlined && source_->toPlainText().isEmpty()) {
        QFile file(file_->text().trimmed());
        if (!file_->text().trimmed().isEmpty() && file.open(QIODevice::ReadOnly)) {
            const QSignalBlocker blocker(source_);  // the choice is the edit
            source_->setPlainText(QString::fromUtf8(file.read(1 << 20)));
        }
    }
    form_->setRowVisible(fileRow_, !inlined);
    form_->setRowVisible(source_, inlined);
}

void ScriptPage::showState() {
    const QString read = stateRead_->currentData().toString();
    form_->setRowVisible(stateKey_, !read.isEmpty());
    form_->setRowVisible(stateWindow_, read == QLatin1String("zcount_window"));
    form_->setRowVisible(stateField_, read == QLatin1String("hash_field"));
}

void ScriptPage::chooseFile() {
    const QString current = file_->text().trimmed();
    const QString path = QFileDialog::getOpenFileName(
        window(), tr("Choose a Lua script"),
        current.isEmpty() ? QDir::currentPath() : QFileInfo(current).absolutePath(),
        tr("Lua scripts (*.lua);;All files (*)"));
    if (path.isEmpty())
        return;
    file_->setText(path);  // validated as typed
    emit committed();
}

void ScriptPage::writeJson(QJsonObject& json) const {
    if (inline_())
        json.insert(kScript, QJsonObject{{kInline, source_->toPlainText()}});
    else
        json.insert(kScript, file_->text().trimmed());
    json.insert(kKeys, keys_->templates());
    const QJsonArray args = args_->templates();
    if (!args.isEmpty())
        json.insert(kArgs, args);
    QJsonObject reply{{kAllowed, allowed_->currentData().toString()}};
    insertIfGiven(reply, kIndex, index_);
    insertIfGiven(reply, kRetry, retry_);
    insertIfGiven(reply, kRemaining, remaining_);
    json.insert(kReply, reply);
    reference_->writeJson(json);
    const QString read = stateRead_->currentData().toString();
    if (!read.isEmpty()) {
        QJsonObject state{{kKey, stateKey_->text()}, {kRead, read}};
        if (read == QLatin1String("zcount_window"))
            state.insert(kWindowMs, numberOrText(stateWindow_->text().trimmed()));
        if (read == QLatin1String("hash_field"))
            state.insert(kField, stateField_->text());
        json.insert(kState, state);
    }
    const QJsonArray reset = reset_->templates();
    if (!reset.isEmpty())
        json.insert(kReset, reset);
    if (clock_->currentData().toString() != QLatin1String("args"))
        json.insert(kClock, clock_->currentData().toString());
}

void ScriptPage::fill(const QJsonObject& values) {
    const QList<QObject*> fields{from_,     file_,        source_,     keys_,      args_,
                                 allowed_,  index_,       retry_,      remaining_, stateRead_,
                                 stateKey_, stateWindow_, stateField_, reset_,     clock_};
    std::vector<std::unique_ptr<QSignalBlocker>> blockers;
    for (QObject* field : fields)
        blockers.push_back(std::make_unique<QSignalBlocker>(field));

    const QJsonValue script = values.value(kScript);
    const bool inlined = script.isObject();
    selectData(from_, inlined ? QString(kInline) : kFile);
    file_->setText(script.isString() ? script.toString() : QString());
    source_->setPlainText(inlined ? script.toObject().value(kInline).toString() : QString());
    keys_->setTemplates(values.value(kKeys).toArray());
    args_->setTemplates(values.value(kArgs).toArray());

    const QJsonObject reply = values.value(kReply).toObject();
    selectData(allowed_, reply.value(kAllowed).toString(QStringLiteral("1")));
    index_->setText(textOf(reply.value(kIndex)));
    retry_->setText(textOf(reply.value(kRetry)));
    remaining_->setText(textOf(reply.value(kRemaining)));
    reference_->fill(values.value(kReference));

    const QJsonObject state = values.value(kState).toObject();
    selectData(stateRead_, state.value(kRead).toString());
    stateKey_->setText(state.value(kKey).toString());
    stateWindow_->setText(textOf(state.value(kWindowMs)));
    stateField_->setText(state.value(kField).toString());
    reset_->setTemplates(values.value(kReset).toArray());
    selectData(clock_, values.value(kClock).toString(QStringLiteral("args")));
    blockers.clear();
    showSource();
    showState();
}

// A list's element at the list with its line; the reference's own fields at the reference with
// their path inside it; a reference that is no JSON object with where its JSON broke.
bool ScriptPage::showProblem(const QString& where, const QString& message) {
    static const QRegularExpression listElement(
        QStringLiteral(R"(^\$\.(keys|args|reset)\[(\d+)\]$)"));
    const QString referencePrefix = QStringLiteral("$.reference.");
    QString path = where;
    QString text = message;
    const QRegularExpressionMatch element = listElement.match(where);
    if (element.hasMatch()) {
        // "$.keys[1] (line 2): …": the message names its path, the field shows lines.
        path = QStringLiteral("$.") + element.captured(1);
        const QString line = tr(" (line %1)").arg(element.captured(2).toInt() + 1);
        text =
            message.startsWith(where) ? where + line + message.mid(where.size()) : message + line;
    } else if (where.startsWith(referencePrefix)) {
        path = QStringLiteral("$.reference");  // the message names the reference's own field
    } else if (where == QLatin1String("$.reference")) {
        const QString problem = reference_->parseProblem();
        if (!problem.isEmpty())
            text = problem;
    } else if (where == QLatin1String("$.reply")) {
        path = QStringLiteral("$.reply.allowed");
    } else if (where == QLatin1String("$.state")) {
        path = QStringLiteral("$.state.read");
    } else if (where == QLatin1String("$.script") && inline_()) {
        path = QStringLiteral("$.script.inline");
    }
    return errors_.show(message.isEmpty() ? QString() : path, text);
}

}  // namespace ratelab
