#include "editors/limiter_editor.h"

#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStyle>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "input_error.h"

namespace ratelab {
namespace {

// The spec's keys, as the parser spells them.
const QLatin1String kTypeKey("type");
const QLatin1String kNameKey("name");
const QLatin1String kScopeKey("scope");
const QLatin1String kOnErrorKey("on_error");
const QLatin1String kRateKey("rate");
const QLatin1String kIntervalMsKey("interval_ms");
const QLatin1String kIntervalKey("interval");
const QLatin1String kUnitKey("unit");
const QLatin1String kTimezoneKey("timezone");
const QLatin1String kRulesKey("rules");
const QLatin1String kLimitKey("limit");
const QLatin1String kWindowMsKey("window_ms");

// In the order of the type selector and of its pages.
constexpr LimiterType kTypes[] = {LimiterType::TokenBucket, LimiterType::FixedWindow,
                                  LimiterType::SlidingWindow};
constexpr CalendarUnit kUnits[] = {CalendarUnit::Milliseconds, CalendarUnit::Seconds,
                                   CalendarUnit::Minutes,      CalendarUnit::Hours,
                                   CalendarUnit::Days,         CalendarUnit::Months};
// In the order of the on_error selector; the first is the default.
constexpr FailurePolicy kPolicies[] = {FailurePolicy::Error, FailurePolicy::Open,
                                       FailurePolicy::Closed};

// The places an error can be shown. Every field has an error label right under it; kForm is the
// label at the bottom for anything else (the type, the object itself).
enum Field {
    kName,
    kScope,
    kOnError,
    kRate,
    kIntervalMs,
    kInterval,
    kUnit,
    kTimezone,
    kRules,
    kForm
};
constexpr int kFieldCount = kForm + 1;

struct FieldInfo {
    const char* path;        // the JSON path the parser names
    const char* objectName;  // of the field; its error label is "<objectName>Error"
};
constexpr FieldInfo kFields[kFieldCount] = {{"$.name", "name"},
                                            {"$.scope", "scope"},
                                            {"$.on_error", "onError"},
                                            {"$.rate", "rate"},
                                            {"$.interval_ms", "intervalMs"},
                                            {"$.interval", "interval"},
                                            {"$.unit", "unit"},
                                            {"$.timezone", "timezone"},
                                            {"$.rules", "rules"},
                                            {"$", "form"}};

enum RuleColumn { kLimitColumn, kWindowColumn };

QString typeTitle(LimiterType type) {
    switch (type) {
        case LimiterType::TokenBucket:
            return QObject::tr("token bucket");
        case LimiterType::FixedWindow:
            return QObject::tr("fixed window");
        case LimiterType::SlidingWindow:
            return QObject::tr("sliding window");
    }
    return QString();
}

LimiterType typeOf(const QJsonObject& json) {
    const QString name = json.value(kTypeKey).toString();
    for (const LimiterType type : kTypes) {
        if (limiterTypeName(type) == name) {
            return type;
        }
    }
    return LimiterType::TokenBucket;
}

// What a new limiter of each type starts with.
LimiterSpec defaultSpec(LimiterType type, const QString& name) {
    LimiterSpec spec;
    spec.type = type;
    spec.name = name;
    switch (type) {
        case LimiterType::TokenBucket:
            spec.rate = 10;
            spec.intervalMs = 1000;
            break;
        case LimiterType::FixedWindow:
            spec.rate = 10;
            spec.interval = 1;
            spec.unit = CalendarUnit::Seconds;
            spec.timezone = QByteArrayLiteral("UTC");
            break;
        case LimiterType::SlidingWindow:
            spec.rules = {{5, 1000}, {20, 60000}};
            break;
    }
    return spec;
}

// A number field goes into the JSON as a number when its text reads as one, else as the text
// itself, so that the parser, not the form, says what is wrong with it.
QJsonValue numberOrText(const QString& text) {
    bool ok = false;
    const double number = text.toDouble(&ok);
    return ok ? QJsonValue(number) : QJsonValue(text);
}

QString textOf(const QJsonValue& value) {
    if (!value.isDouble()) {
        return value.toString();
    }
    const double number = value.toDouble();
    if (number == std::trunc(number) && std::fabs(number) < 9007199254740992.0) {
        return QString::number(static_cast<qint64>(number));
    }
    return QString::number(number, 'g', QLocale::FloatingPointShortest);
}

// A red readable on the palette's base colour, light or dark.
QColor errorColor(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b)
                                                           : QColor(0xc6, 0x28, 0x28);
}

// Error labels and invalid fields are found by dynamic properties; everything else keeps the
// style and palette of the system.
QString errorStyleSheet(const QColor& red) {
    return QStringLiteral(
               "QLabel[errorLabel=\"true\"] { color: %1; }\n"
               "*[invalid=\"true\"] { border: 1px solid %1; }")
        .arg(red.name());
}

QLabel* makeErrorLabel(QWidget* parent, const QString& objectName) {
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setProperty("errorLabel", true);
    label->setTextFormat(Qt::PlainText);  // names may hold '<'
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);  // no gap above when its row is tall
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
}

// A dynamic property only restyles its widget after a re-polish.
void setInvalid(QWidget* widget, bool invalid) {
    if (widget->property("invalid").toBool() == invalid) {
        return;
    }
    widget->setProperty("invalid", invalid);
    widget->style()->unpolish(widget);
    widget->style()->polish(widget);
    widget->update();
}

// The fields of the form layouts line up although they live on different stack pages.
void alignLabels(const QList<QFormLayout*>& forms) {
    QList<QWidget*> labels;
    int width = 0;
    for (QFormLayout* form : forms) {
        for (int row = 0; row < form->rowCount(); ++row) {
            if (QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole)) {
                if (QWidget* label = item->widget()) {
                    labels << label;
                    width = std::max(width, label->sizeHint().width());
                }
            }
        }
    }
    for (QWidget* label : labels) {
        label->setMinimumWidth(width);
    }
}

// Any field's path maps to its field; the rules table also names the cell (row, column; column
// -1 when the path names the whole rule).
Field fieldFor(const QString& where, int* row, int* column) {
    static const QRegularExpression rulePath(
        QStringLiteral(R"(^\$\.rules\[(\d+)\](?:\.(limit|window_ms))?$)"));
    const QRegularExpressionMatch match = rulePath.match(where);
    if (match.hasMatch()) {
        *row = match.captured(1).toInt();
        const QString member = match.captured(2);
        *column = member.isEmpty() ? -1 : member == kLimitKey ? kLimitColumn : kWindowColumn;
        return kRules;
    }
    for (int field = 0; field < kForm; ++field) {
        if (where == QLatin1String(kFields[field].path)) {
            return static_cast<Field>(field);
        }
    }
    return kForm;
}

}  // namespace

// The header declares no members, so LimiterEditor keeps its widgets and state in this child.
class LimiterEditorImpl : public QObject {
    Q_OBJECT

public:
    explicit LimiterEditorImpl(LimiterEditor* editor);

    // The JSON the form stands for, bad text and all.
    QJsonObject formJson() const;
    // Shows `json` (the format formJson writes) without announcing an edit; fields the JSON
    // lacks get the defaults of their type, so switching type later starts from sensible values.
    void fill(const QJsonObject& json);

    const std::optional<LimiterSpec>& spec() const { return spec_; }
    const QString& error() const { return error_; }

private:
    QLineEdit* addLineEdit(QWidget* parent, const char* objectName, const QString& toolTip);
    void addErrorRow(QFormLayout* form, QWidget* parent, Field field);
    QWidget* buildTokenBucketPage();
    QWidget* buildFixedWindowPage();
    QWidget* buildSlidingWindowPage();

    LimiterType currentType() const;
    void showType();
    void appendRule(const QString& limit, const QString& windowMs);
    void addRule();
    void removeRules();
    void edited();
    void validate(bool announce);
    void showProblem(const QString& where, const QString& message);

    LimiterEditor* q_;
    QComboBox* type_ = nullptr;
    QLineEdit* name_ = nullptr;
    QComboBox* scope_ = nullptr;
    QComboBox* onError_ = nullptr;
    QLineEdit* rate_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLineEdit* intervalMs_ = nullptr;
    QLineEdit* interval_ = nullptr;
    QComboBox* unit_ = nullptr;
    QComboBox* timezone_ = nullptr;
    QTableWidget* rules_ = nullptr;
    QPushButton* removeRule_ = nullptr;
    QFormLayout* common_ = nullptr;

    QWidget* fields_[kFieldCount] = {};
    QLabel* errorLabels_[kFieldCount] = {};
    QFormLayout* errorForms_[kFieldCount] = {};  // the form holding each label's row, if any
    QColor red_;

    std::optional<LimiterSpec> spec_;
    QString error_;
    bool filling_ = true;  // while building or filling: edits are not validated one by one
};

namespace {

LimiterEditorImpl* implOf(const LimiterEditor* editor) {
    return editor->findChild<LimiterEditorImpl*>(QString(), Qt::FindDirectChildrenOnly);
}

}  // namespace

LimiterEditorImpl::LimiterEditorImpl(LimiterEditor* editor)
    : QObject(editor), q_(editor), red_(errorColor(editor->palette())) {
    editor->setStyleSheet(errorStyleSheet(red_));
    auto* layout = new QVBoxLayout(editor);
    layout->setContentsMargins(0, 0, 0, 0);

    common_ = new QFormLayout;
    common_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(common_);

    type_ = new QComboBox(editor);
    type_->setObjectName(QStringLiteral("type"));
    type_->addItem(tr("Token bucket (Redisson RRateLimiter)"),
                   limiterTypeName(LimiterType::TokenBucket));
    type_->addItem(tr("Fixed window (natural calendar)"),
                   limiterTypeName(LimiterType::FixedWindow));
    type_->addItem(tr("Sliding window log (multi-rule)"),
                   limiterTypeName(LimiterType::SlidingWindow));
    common_->addRow(tr("&Type"), type_);
    connect(type_, &QComboBox::currentIndexChanged, this, [this] {
        showType();
        edited();
    });

    name_ = addLineEdit(editor, "name", tr("Also the Redis key prefix; no '{' or '}'"));
    common_->addRow(tr("&Name"), name_);
    addErrorRow(common_, editor, kName);

    scope_ = new QComboBox(editor);
    scope_->setObjectName(QStringLiteral("scope"));
    scope_->addItem(tr("Global (one limit for all clients)"), scopeName(Scope::Global));
    scope_->addItem(tr("Per client"), scopeName(Scope::PerClient));
    connect(scope_, &QComboBox::currentIndexChanged, this, &LimiterEditorImpl::edited);
    common_->addRow(tr("&Scope"), scope_);
    addErrorRow(common_, editor, kScope);
    fields_[kScope] = scope_;

    onError_ = new QComboBox(editor);
    onError_->setObjectName(QStringLiteral("onError"));
    onError_->setToolTip(
        tr("What a decision that fails (Redis down, a timeout, a bad reply) counts as. Always an "
           "error; \"open\" also counts it as let through, \"closed\" as refused, apart from "
           "accepted and rejected"));
    for (const FailurePolicy policy : kPolicies) {
        QString title;
        switch (policy) {
            case FailurePolicy::Error:
                title = tr("Error (count it as an error only)");
                break;
            case FailurePolicy::Open:
                title = tr("Fail open (let it through)");
                break;
            case FailurePolicy::Closed:
                title = tr("Fail closed (refuse it)");
                break;
        }
        onError_->addItem(title, failurePolicyName(policy));
    }
    connect(onError_, &QComboBox::currentIndexChanged, this, &LimiterEditorImpl::edited);
    common_->addRow(tr("On &error"), onError_);
    addErrorRow(common_, editor, kOnError);
    fields_[kOnError] = onError_;

    rate_ = addLineEdit(editor, "rate", tr("Permits per interval (token bucket) or per window"));
    common_->addRow(tr("&Rate"), rate_);
    addErrorRow(common_, editor, kRate);

    pages_ = new QStackedWidget(editor);
    pages_->setObjectName(QStringLiteral("pages"));
    pages_->addWidget(buildTokenBucketPage());
    pages_->addWidget(buildFixedWindowPage());
    pages_->addWidget(buildSlidingWindowPage());
    layout->addWidget(pages_);

    errorLabels_[kForm] = makeErrorLabel(editor, QStringLiteral("formError"));
    layout->addWidget(errorLabels_[kForm]);
    layout->addStretch(1);

    QList<QFormLayout*> forms{common_};
    for (int i = 0; i < pages_->count(); ++i) {
        forms << qobject_cast<QFormLayout*>(pages_->widget(i)->layout());
    }
    alignLabels(forms);

    fill(limiterSpecToJson(defaultSpec(LimiterType::TokenBucket, QStringLiteral("limiter-1"))));
}

QLineEdit* LimiterEditorImpl::addLineEdit(QWidget* parent, const char* objectName,
                                          const QString& toolTip) {
    // A line edit rather than a spin box: bad text must stay as typed and be reported.
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(QLatin1String(objectName));
    edit->setToolTip(toolTip);
    connect(edit, &QLineEdit::textChanged, this, &LimiterEditorImpl::edited);
    for (int field = 0; field < kFieldCount; ++field) {
        if (qstrcmp(kFields[field].objectName, objectName) == 0) {
            fields_[field] = edit;
        }
    }
    return edit;
}

void LimiterEditorImpl::addErrorRow(QFormLayout* form, QWidget* parent, Field field) {
    QLabel* label =
        makeErrorLabel(parent, QLatin1String(kFields[field].objectName) + QStringLiteral("Error"));
    // An (empty) label widget: without one QFormLayout wraps the text for a wrong width.
    form->addRow(new QLabel(parent), label);
    form->setRowVisible(label, false);  // a hidden row takes no space, a hidden widget would
    errorLabels_[field] = label;
    errorForms_[field] = form;
}

QWidget* LimiterEditorImpl::buildTokenBucketPage() {
    auto* page = new QWidget(pages_);
    auto* form = new QFormLayout(page);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    intervalMs_ = addLineEdit(page, "intervalMs",
                              tr("Each grant returns to the bucket once it is this many ms old"));
    form->addRow(tr("&Interval (ms)"), intervalMs_);
    addErrorRow(form, page, kIntervalMs);
    return page;
}

QWidget* LimiterEditorImpl::buildFixedWindowPage() {
    auto* page = new QWidget(pages_);
    auto* form = new QFormLayout(page);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    interval_ = addLineEdit(page, "interval",
                            tr("Units per window, at most the units in the enclosing unit "
                               "(1000 ms, 60 s, 60 min, 24 h, 31 days, 12 months)"));
    unit_ = new QComboBox(page);
    unit_->setObjectName(QStringLiteral("unit"));
    for (const CalendarUnit unit : kUnits) {
        unit_->addItem(calendarUnitName(unit), calendarUnitName(unit));
    }
    connect(unit_, &QComboBox::currentIndexChanged, this, &LimiterEditorImpl::edited);
    fields_[kUnit] = unit_;
    auto* window = new QHBoxLayout;
    window->addWidget(interval_, 1);
    window->addWidget(unit_, 1);
    auto* windowLabel = new QLabel(tr("&Window"), page);
    windowLabel->setBuddy(interval_);
    form->addRow(windowLabel, window);
    addErrorRow(form, page, kInterval);
    addErrorRow(form, page, kUnit);

    timezone_ = new QComboBox(page);
    timezone_->setObjectName(QStringLiteral("timezone"));
    timezone_->setToolTip(tr("IANA time zone of the calendar; empty = the system zone"));
    timezone_->setEditable(true);
    timezone_->setInsertPolicy(QComboBox::NoInsert);
    QStringList zones;
    for (const QByteArray& id : QTimeZone::availableTimeZoneIds()) {
        zones << QString::fromUtf8(id);
    }
    timezone_->addItems(zones);
    timezone_->lineEdit()->setPlaceholderText(
        tr("system zone (%1)").arg(QString::fromUtf8(QTimeZone::systemTimeZoneId())));
    // "berlin" finds Europe/Berlin among some 600 ids.
    auto* completer = new QCompleter(timezone_->model(), timezone_);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    timezone_->setCompleter(completer);
    connect(timezone_, &QComboBox::editTextChanged, this, &LimiterEditorImpl::edited);
    fields_[kTimezone] = timezone_;
    form->addRow(tr("Time &zone"), timezone_);
    addErrorRow(form, page, kTimezone);
    return page;
}

QWidget* LimiterEditorImpl::buildSlidingWindowPage() {
    auto* page = new QWidget(pages_);
    auto* form = new QFormLayout(page);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    rules_ = new QTableWidget(0, 2, page);
    rules_->setObjectName(QStringLiteral("rules"));
    rules_->setToolTip(
        tr("A request passes only if, for every rule, the permits granted in the "
           "last window_ms stay within limit"));
    rules_->setHorizontalHeaderLabels({tr("Limit (permits)"), tr("Window (ms)")});
    rules_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    connect(rules_, &QTableWidget::itemChanged, this, &LimiterEditorImpl::edited);
    fields_[kRules] = rules_;
    form->addRow(tr("Ru&les"), rules_);
    addErrorRow(form, page, kRules);

    auto* addRule = new QPushButton(tr("Add rule"), page);
    addRule->setObjectName(QStringLiteral("addRule"));
    connect(addRule, &QPushButton::clicked, this, &LimiterEditorImpl::addRule);
    removeRule_ = new QPushButton(tr("Remove rule"), page);
    removeRule_->setObjectName(QStringLiteral("removeRule"));
    connect(removeRule_, &QPushButton::clicked, this, &LimiterEditorImpl::removeRules);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addRule);
    buttons->addWidget(removeRule_);
    buttons->addStretch(1);
    form->addRow(QString(), buttons);
    return page;
}

LimiterType LimiterEditorImpl::currentType() const {
    return kTypes[std::max(0, type_->currentIndex())];
}

void LimiterEditorImpl::showType() {
    const int index = std::max(0, type_->currentIndex());
    pages_->setCurrentIndex(index);
    // The stack would otherwise be as tall as its tallest page.
    for (int i = 0; i < pages_->count(); ++i) {
        const QSizePolicy::Policy policy =
            i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        pages_->widget(i)->setSizePolicy(policy, policy);
    }
    common_->setRowVisible(rate_, currentType() != LimiterType::SlidingWindow);
}

QJsonObject LimiterEditorImpl::formJson() const {
    QJsonObject json;
    const LimiterType type = currentType();
    json.insert(kTypeKey, limiterTypeName(type));
    json.insert(kNameKey, name_->text());
    json.insert(kScopeKey, scope_->currentData().toString());
    const QString onError = onError_->currentData().toString();
    if (onError != failurePolicyName(FailurePolicy::Error)) {  // as limiterSpecToJson writes it
        json.insert(kOnErrorKey, onError);
    }
    switch (type) {
        case LimiterType::TokenBucket:
            json.insert(kRateKey, numberOrText(rate_->text()));
            json.insert(kIntervalMsKey, numberOrText(intervalMs_->text()));
            break;
        case LimiterType::FixedWindow:
            json.insert(kRateKey, numberOrText(rate_->text()));
            json.insert(kIntervalKey, numberOrText(interval_->text()));
            json.insert(kUnitKey, unit_->currentData().toString());
            if (!timezone_->currentText().isEmpty()) {  // empty = the system zone
                json.insert(kTimezoneKey, timezone_->currentText());
            }
            break;
        case LimiterType::SlidingWindow: {
            QJsonArray rules;
            for (int row = 0; row < rules_->rowCount(); ++row) {
                const QTableWidgetItem* limit = rules_->item(row, kLimitColumn);
                const QTableWidgetItem* window = rules_->item(row, kWindowColumn);
                rules.append(
                    QJsonObject{{kLimitKey, numberOrText(limit ? limit->text() : QString())},
                                {kWindowMsKey, numberOrText(window ? window->text() : QString())}});
            }
            json.insert(kRulesKey, rules);
            break;
        }
    }
    return json;
}

void LimiterEditorImpl::fill(const QJsonObject& json) {
    filling_ = true;
    QJsonObject values;
    for (const LimiterType type : kTypes) {
        const QJsonObject defaults = limiterSpecToJson(defaultSpec(type, QString()));
        for (auto it = defaults.begin(); it != defaults.end(); ++it) {
            values.insert(it.key(), it.value());
        }
    }
    if (typeOf(json) == LimiterType::FixedWindow) {
        values.remove(kTimezoneKey);  // absent means the system zone
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
        values.insert(it.key(), it.value());
    }

    type_->setCurrentIndex(std::max(0, type_->findData(values.value(kTypeKey).toString())));
    name_->setText(values.value(kNameKey).toString());
    scope_->setCurrentIndex(std::max(0, scope_->findData(values.value(kScopeKey).toString())));
    // Absent (or not one of the choices) is the default, "error".
    onError_->setCurrentIndex(
        std::max(0, onError_->findData(values.value(kOnErrorKey).toString())));
    rate_->setText(textOf(values.value(kRateKey)));
    intervalMs_->setText(textOf(values.value(kIntervalMsKey)));
    interval_->setText(textOf(values.value(kIntervalKey)));
    unit_->setCurrentIndex(std::max(0, unit_->findData(values.value(kUnitKey).toString())));
    timezone_->setEditText(values.value(kTimezoneKey).toString());
    rules_->setRowCount(0);
    for (const QJsonValue& rule : values.value(kRulesKey).toArray()) {
        appendRule(textOf(rule[kLimitKey]), textOf(rule[kWindowMsKey]));
    }
    filling_ = false;
    showType();
    validate(false);
}

void LimiterEditorImpl::appendRule(const QString& limit, const QString& windowMs) {
    const QSignalBlocker blocker(rules_);  // the caller validates once
    const int row = rules_->rowCount();
    rules_->insertRow(row);
    int column = kLimitColumn;
    for (const QString& text : {limit, windowMs}) {
        auto* item = new QTableWidgetItem(text);  // owned by the table
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        rules_->setItem(row, column++, item);
    }
}

void LimiterEditorImpl::addRule() {
    // A copy of the last rule, ready to be changed; it is valid if the last one is.
    const int last = rules_->rowCount() - 1;
    const auto text = [this, last](int column) {
        const QTableWidgetItem* item = last >= 0 ? rules_->item(last, column) : nullptr;
        return item ? item->text() : QString();
    };
    appendRule(last >= 0 ? text(kLimitColumn) : QStringLiteral("10"),
               last >= 0 ? text(kWindowColumn) : QStringLiteral("1000"));
    rules_->setCurrentCell(last + 1, kLimitColumn);
    edited();
}

void LimiterEditorImpl::removeRules() {
    // The selected rules, else the last one.
    QList<int> rows;
    for (const QModelIndex& index : rules_->selectionModel()->selectedIndexes()) {
        rows << index.row();
    }
    if (rows.isEmpty() && rules_->rowCount() > 0) {
        rows << rules_->rowCount() - 1;
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    {
        const QSignalBlocker blocker(rules_);
        for (auto it = rows.crbegin(); it != rows.crend(); ++it) {
            rules_->removeRow(*it);
        }
    }
    edited();
}

void LimiterEditorImpl::edited() {
    if (!filling_) {
        validate(true);
    }
}

void LimiterEditorImpl::validate(bool announce) {
    removeRule_->setEnabled(rules_->rowCount() > 0);
    std::optional<LimiterSpec> parsed;
    QString where;
    QString message;
    try {
        parsed = parseLimiterSpec(formJson());
    } catch (const InputError& e) {
        where = e.where();
        message = e.message();
    }
    showProblem(where, message);
    const bool flipped = parsed.has_value() != spec_.has_value();
    spec_ = parsed;
    error_ = message;
    if (flipped) {
        emit q_->validityChanged(spec_.has_value());
    }
    if (announce) {
        emit q_->specChanged();
    }
}

void LimiterEditorImpl::showProblem(const QString& where, const QString& message) {
    int row = -1;
    int column = -1;
    const int shown = message.isEmpty() ? -1 : fieldFor(where, &row, &column);
    for (int field = 0; field < kFieldCount; ++field) {
        const bool active = field == shown;
        QLabel* label = errorLabels_[field];
        // The one label showing an error is "error", so tests and screenshots find it.
        label->setObjectName(active ? QStringLiteral("error")
                                    : QLatin1String(kFields[field].objectName) +
                                          QStringLiteral("Error"));
        label->setText(active ? message : QString());
        if (errorForms_[field]) {
            errorForms_[field]->setRowVisible(label, active);
        } else {
            label->setVisible(active);
        }
        if (fields_[field]) {
            setInvalid(fields_[field], active);
        }
    }

    QColor tint = red_;
    tint.setAlpha(70);
    const QSignalBlocker blocker(rules_);  // a background is no edit
    for (int r = 0; r < rules_->rowCount(); ++r) {
        for (int c = 0; c < rules_->columnCount(); ++c) {
            QTableWidgetItem* item = rules_->item(r, c);
            const bool marked = r == row && (column < 0 || column == c);
            if (item && item->data(Qt::BackgroundRole).isValid() != marked) {
                item->setData(Qt::BackgroundRole, marked ? QVariant(tint) : QVariant());
            }
        }
    }
}

LimiterEditor::LimiterEditor(QWidget* parent) : QWidget(parent) {
    new LimiterEditorImpl(this);  // owned by this
}

void LimiterEditor::setSpec(const LimiterSpec& spec) {
    implOf(this)->fill(limiterSpecToJson(spec));
}

std::optional<LimiterSpec> LimiterEditor::spec() const {
    return implOf(this)->spec();
}

bool LimiterEditor::isValid() const {
    return implOf(this)->spec().has_value();
}

QString LimiterEditor::errorText() const {
    return implOf(this)->error();
}

// LimiterListEditor keeps its widgets and state in this child (the header declares no members).
class LimiterListEditorImpl : public QObject {
    Q_OBJECT

public:
    explicit LimiterListEditorImpl(LimiterListEditor* editor);

    void setSpecs(const QVector<LimiterSpec>& specs);
    QVector<LimiterSpec> specs() const;
    const QString& error() const { return error_; }

private:
    void add(LimiterType type);
    void removeCurrent();
    void select(int row);
    void edited();
    void revalidate(bool announce);
    void showError();
    QString unusedName() const;

    LimiterListEditor* q_;
    QListWidget* list_ = nullptr;
    QPushButton* remove_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    LimiterEditor* editor_ = nullptr;

    // What each limiter's form holds (formJson), valid or not: switching between limiters keeps
    // the text of an invalid one as typed.
    QVector<QJsonObject> forms_;
    QString error_;
    int errorRow_ = -1;          // the limiter error_ is about
    bool errorAtField_ = false;  // error_ is a parse error the editor shows at its field
    bool valid_ = false;
};

namespace {

LimiterListEditorImpl* implOf(const LimiterListEditor* editor) {
    return editor->findChild<LimiterListEditorImpl*>(QString(), Qt::FindDirectChildrenOnly);
}

}  // namespace

LimiterListEditorImpl::LimiterListEditorImpl(LimiterListEditor* editor)
    : QObject(editor), q_(editor) {
    editor->setStyleSheet(errorStyleSheet(errorColor(editor->palette())));
    auto* layout = new QVBoxLayout(editor);
    layout->setContentsMargins(0, 0, 0, 0);

    list_ = new QListWidget(editor);
    list_->setObjectName(QStringLiteral("limiterList"));
    list_->setMaximumHeight(list_->fontMetrics().height() * 8);
    const int iconSize = list_->style()->pixelMetric(QStyle::PM_SmallIconSize);
    list_->setIconSize(QSize(iconSize, iconSize));
    connect(list_, &QListWidget::currentRowChanged, this, &LimiterListEditorImpl::select);
    layout->addWidget(list_);

    auto* addButton = new QPushButton(tr("Add"), editor);
    addButton->setObjectName(QStringLiteral("addLimiter"));
    auto* menu = new QMenu(addButton);
    const char* actionNames[] = {"addTokenBucket", "addFixedWindow", "addSlidingWindow"};
    for (int i = 0; i < 3; ++i) {
        const LimiterType type = kTypes[i];
        QAction* action = menu->addAction(typeTitle(type));
        action->setObjectName(QLatin1String(actionNames[i]));
        connect(action, &QAction::triggered, this, [this, type] { add(type); });
    }
    addButton->setMenu(menu);
    remove_ = new QPushButton(tr("Remove"), editor);
    remove_->setObjectName(QStringLiteral("removeLimiter"));
    connect(remove_, &QPushButton::clicked, this, &LimiterListEditorImpl::removeCurrent);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addButton);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    errorLabel_ = makeErrorLabel(editor, QStringLiteral("listError"));
    layout->addWidget(errorLabel_);

    editor_ = new LimiterEditor(editor);
    editor_->setObjectName(QStringLiteral("limiterEditor"));
    connect(editor_, &LimiterEditor::specChanged, this, &LimiterListEditorImpl::edited);
    layout->addWidget(editor_, 1);

    select(-1);
    revalidate(false);
}

void LimiterListEditorImpl::setSpecs(const QVector<LimiterSpec>& specs) {
    forms_.clear();
    {
        const QSignalBlocker blocker(list_);
        list_->clear();
        for (const LimiterSpec& spec : specs) {
            forms_.append(limiterSpecToJson(spec));
            list_->addItem(QString());  // revalidate writes the text
        }
    }
    select(forms_.isEmpty() ? -1 : 0);
    revalidate(false);
}

QVector<LimiterSpec> LimiterListEditorImpl::specs() const {
    QVector<LimiterSpec> valid;
    for (const QJsonObject& form : forms_) {
        try {
            valid.append(parseLimiterSpec(form));
        } catch (const InputError&) {
            // Left out: errorText() names it.
        }
    }
    return valid;
}

void LimiterListEditorImpl::add(LimiterType type) {
    forms_.append(limiterSpecToJson(defaultSpec(type, unusedName())));
    {
        const QSignalBlocker blocker(list_);
        list_->addItem(QString());
    }
    select(forms_.size() - 1);
    revalidate(true);
}

void LimiterListEditorImpl::removeCurrent() {
    const int row = list_->currentRow();
    if (row < 0) {
        return;
    }
    forms_.remove(row);
    {
        const QSignalBlocker blocker(list_);
        delete list_->takeItem(row);
    }
    select(std::min(row, int(forms_.size()) - 1));
    revalidate(true);
}

// Shows limiter `row` (-1: none) in the editor.
void LimiterListEditorImpl::select(int row) {
    {
        const QSignalBlocker blocker(list_);
        list_->setCurrentRow(row);
    }
    if (row >= 0) {
        implOf(editor_)->fill(forms_[row]);
    }
    editor_->setEnabled(row >= 0);
    remove_->setEnabled(row >= 0);
    showError();
}

// Under the list unless the editor already shows it at its field.
void LimiterListEditorImpl::showError() {
    errorLabel_->setText(error_);
    errorLabel_->setVisible(!error_.isEmpty() &&
                            !(errorAtField_ && errorRow_ == list_->currentRow()));
}

void LimiterListEditorImpl::edited() {
    const int row = list_->currentRow();
    if (row < 0) {
        return;
    }
    forms_[row] = implOf(editor_)->formJson();
    revalidate(true);
}

void LimiterListEditorImpl::revalidate(bool announce) {
    error_.clear();
    errorRow_ = -1;
    errorAtField_ = false;
    QStringList names;
    for (int row = 0; row < forms_.size(); ++row) {
        const QJsonObject& form = forms_[row];
        const QString name = form.value(kNameKey).toString();
        QString problem;
        bool parseError = false;
        try {
            parseLimiterSpec(form);
        } catch (const InputError& e) {
            problem = e.message();
            parseError = true;
        }
        const int earlier = int(names.indexOf(name));
        if (problem.isEmpty() && earlier >= 0) {
            problem =
                tr("name \"%1\" is used by limiter %2").arg(name, QString::number(earlier + 1));
        }
        names << name;

        QListWidgetItem* item = list_->item(row);
        item->setText(QStringLiteral("%1 — %2").arg(name.isEmpty() ? tr("(no name)") : name,
                                                    typeTitle(typeOf(form))));
        item->setToolTip(problem);
        item->setIcon(problem.isEmpty()
                          ? QIcon()
                          : list_->style()->standardIcon(QStyle::SP_MessageBoxWarning));
        if (error_.isEmpty() && !problem.isEmpty()) {
            error_ = tr("limiter %1: %2").arg(QString::number(row + 1), problem);
            errorRow_ = row;
            errorAtField_ = parseError;
        }
    }
    if (forms_.isEmpty()) {
        error_ = tr("no limiters: add one");
    }
    showError();

    const bool valid = error_.isEmpty();
    const bool flipped = valid != valid_;
    valid_ = valid;
    if (flipped) {
        emit q_->validityChanged(valid);
    }
    if (announce) {
        emit q_->specsChanged();
    }
}

// "limiter-N" for the smallest N from the list's size + 1 on that no limiter uses.
QString LimiterListEditorImpl::unusedName() const {
    QSet<QString> used;
    for (const QJsonObject& form : forms_) {
        used.insert(form.value(kNameKey).toString());
    }
    for (qsizetype n = forms_.size() + 1;; ++n) {
        const QString name = QStringLiteral("limiter-%1").arg(n);
        if (!used.contains(name)) {
            return name;
        }
    }
}

LimiterListEditor::LimiterListEditor(QWidget* parent) : QWidget(parent) {
    new LimiterListEditorImpl(this);  // owned by this
}

void LimiterListEditor::setSpecs(const QVector<LimiterSpec>& specs) {
    implOf(this)->setSpecs(specs);
}

QVector<LimiterSpec> LimiterListEditor::specs() const {
    return implOf(this)->specs();
}

bool LimiterListEditor::isValid() const {
    return implOf(this)->error().isEmpty();
}

QString LimiterListEditor::errorText() const {
    return implOf(this)->error();
}

}  // namespace ratelab

#include "limiter_editor.moc"
