#include "editors/limiter_editor.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

#include "algorithms/algorithm_view.h"
#include "algorithms/limiter_page.h"
#include "editors/gateway_use_box.h"
#include "input_error.h"
#include "style/inline_error.h"

namespace ratelab {
namespace {

// A choice with long titles ("Sliding window counter (Cloudflare, upstash)") does not set the
// editors' least width: the box shows what fits and its list the whole titles, so that the
// editors can scroll in a short window without taking width from the charts and tables.
void letNarrow(QComboBox* box) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(16);
}

// In the order of the on_error selector; the first is the default.
constexpr FailurePolicy kPolicies[] = {FailurePolicy::Error, FailurePolicy::Open,
                                       FailurePolicy::Closed};

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
    for (QWidget* label : labels)
        label->setMinimumWidth(width);
}

}  // namespace

LimiterEditor::LimiterEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    common_ = new QFormLayout;
    common_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(common_);

    type_ = new QComboBox(this);
    type_->setObjectName(QStringLiteral("type"));
    letNarrow(type_);
    type_->setToolTip(tr("The algorithm; each keeps its whole state in Redis"));
    for (const AlgorithmView* view : algorithmViews())
        type_->addItem(view->selectorLabel(), view->algorithm().name());
    common_->addRow(tr("&Type"), type_);
    connect(type_, &QComboBox::currentIndexChanged, this, [this] {
        showType();
        edited();
        commit();
    });

    name_ = addLineEdit(QStringLiteral("name"), tr("Also the Redis key prefix; no '{' or '}'"));
    common_->addRow(tr("&Name"), name_);
    commonErrors_.add(common_, this, QStringLiteral("$.name"), name_, QStringLiteral("name"));

    scope_ = new QComboBox(this);
    scope_->setObjectName(QStringLiteral("scope"));
    letNarrow(scope_);
    scope_->addItem(tr("Global (one limit for all clients)"), scopeName(Scope::Global));
    scope_->addItem(tr("Per client"), scopeName(Scope::PerClient));
    scope_->setToolTip(
        tr("Global: one limit shared by all clients; per client: each client "
           "has its own state in Redis"));
    connect(scope_, &QComboBox::currentIndexChanged, this, &LimiterEditor::edited);
    connect(scope_, &QComboBox::currentIndexChanged, this, &LimiterEditor::commit);
    common_->addRow(tr("&Scope"), scope_);
    commonErrors_.add(common_, this, QStringLiteral("$.scope"), scope_, QStringLiteral("scope"));

    addOnError();
    addTimeSource();

    rate_ = addLineEdit(QStringLiteral("rate"),
                        tr("Permits per interval (token bucket) or per window"));
    common_->addRow(tr("&Rate"), rate_);
    commonErrors_.add(common_, this, QStringLiteral("$.rate"), rate_, QStringLiteral("rate"));

    pages_ = new QStackedWidget(this);
    pages_->setObjectName(QStringLiteral("pages"));
    for (const AlgorithmView* view : algorithmViews())
        typePages_ << view->makePage(pages_);
    QList<QFormLayout*> forms{common_};
    for (LimiterPage* page : typePages_) {
        pages_->addWidget(page);
        connect(page, &LimiterPage::edited, this, &LimiterEditor::edited);
        connect(page, &LimiterPage::committed, this, &LimiterEditor::commit);
        forms << page->form();
    }
    layout->addWidget(pages_);

    gatewayUse_ = new GatewayUseBox(this);
    connect(gatewayUse_, &GatewayUseBox::edited, this, &LimiterEditor::edited);
    connect(gatewayUse_, &GatewayUseBox::committed, this, &LimiterEditor::commit);
    layout->addWidget(gatewayUse_);
    forms << gatewayUse_->form();

    formError_ = new InlineError(this);
    formError_->setObjectName(QStringLiteral("formError"));
    layout->addWidget(formError_);
    layout->addStretch(1);
    alignLabels(forms);

    setFormJson(limiterSpecToJson(
        algorithmViews().front()->algorithm().defaults(QStringLiteral("limiter-1"))));
}

QLineEdit* LimiterEditor::addLineEdit(const QString& objectName, const QString& toolTip) {
    // A line edit rather than a spin box: bad text must stay as typed and be reported.
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setToolTip(toolTip);
    connect(edit, &QLineEdit::textChanged, this, &LimiterEditor::edited);
    connect(edit, &QLineEdit::editingFinished, this, &LimiterEditor::commit);
    return edit;
}

void LimiterEditor::addOnError() {
    onError_ = new QComboBox(this);
    onError_->setObjectName(QStringLiteral("onError"));
    letNarrow(onError_);
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
    connect(onError_, &QComboBox::currentIndexChanged, this, &LimiterEditor::edited);
    connect(onError_, &QComboBox::currentIndexChanged, this, &LimiterEditor::commit);
    common_->addRow(tr("On &error"), onError_);
    commonErrors_.add(common_, this, QStringLiteral("$.on_error"), onError_,
                      QStringLiteral("onError"));
}

void LimiterEditor::addTimeSource() {
    time_ = new QComboBox(this);
    time_->setObjectName(QStringLiteral("time"));
    letNarrow(time_);
    time_->setToolTip(
        tr("Whose clock decides: the time the client passes (as most libraries do), or Redis's "
           "own TIME read inside the script, which no client's clock skew moves"));
    time_->addItem(tr("Client (the caller's clock)"), timeSourceName(TimeSource::Client));
    time_->addItem(tr("Redis (its own TIME)"), timeSourceName(TimeSource::Redis));
    connect(time_, &QComboBox::currentIndexChanged, this, &LimiterEditor::edited);
    connect(time_, &QComboBox::currentIndexChanged, this, &LimiterEditor::commit);
    common_->addRow(tr("T&ime"), time_);
    commonErrors_.add(common_, this, QStringLiteral("$.time"), time_, QStringLiteral("time"));
}

void LimiterEditor::setSpec(const LimiterSpec& spec) {
    // A script limiter's file by its absolute path: the form reads it wherever it is saved.
    setFormJson(limiterSpecToJson(spec, SpecFiles::Resolved));
}

std::optional<LimiterSpec> LimiterEditor::spec() const {
    return spec_;
}

bool LimiterEditor::isValid() const {
    return spec_.has_value();
}

QString LimiterEditor::errorText() const {
    return error_;
}

LimiterType LimiterEditor::currentType() const {
    return currentView().type();
}

const AlgorithmView& LimiterEditor::currentView() const {
    return *algorithmViews()[size_t(std::max(0, type_->currentIndex()))];
}

void LimiterEditor::showType() {
    const int index = std::max(0, type_->currentIndex());
    pages_->setCurrentIndex(index);
    // The stack would otherwise be as tall as its tallest page.
    for (int i = 0; i < pages_->count(); ++i) {
        const QSizePolicy::Policy policy =
            i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        pages_->widget(i)->setSizePolicy(policy, policy);
    }
    common_->setRowVisible(rate_, currentView().usesCommonRate());
    gatewayUse_->setType(currentType());
}

QJsonObject LimiterEditor::formJson() const {
    using namespace limiter_keys;
    QJsonObject json;
    const AlgorithmView& view = currentView();
    json.insert(kType, view.algorithm().name());
    json.insert(kName, name_->text());
    json.insert(kScope, scope_->currentData().toString());
    const QString onError = onError_->currentData().toString();
    if (onError != failurePolicyName(FailurePolicy::Error))  // as limiterSpecToJson writes it
        json.insert(kOnError, onError);
    const QString time = time_->currentData().toString();
    if (time != timeSourceName(TimeSource::Client))  // as limiterSpecToJson writes it
        json.insert(kTime, time);
    if (view.usesCommonRate())
        json.insert(kRate, numberOrText(rate_->text()));
    typePages_[std::max(0, type_->currentIndex())]->writeJson(json);
    gatewayUse_->writeJson(json);
    return json;
}

void LimiterEditor::setFormJson(const QJsonObject& json) {
    using namespace limiter_keys;
    filling_ = true;
    QJsonObject values;
    for (const AlgorithmView* view : algorithmViews()) {
        const QJsonObject defaults = limiterSpecToJson(view->algorithm().defaults(QString()));
        for (auto it = defaults.begin(); it != defaults.end(); ++it)
            values.insert(it.key(), it.value());
    }
    // A field this type may leave out stays out (the fixed window's zone: the system's).
    for (const QString& key : algorithmViewOf(json).optionalKeys())
        values.remove(key);
    for (auto it = json.begin(); it != json.end(); ++it)
        values.insert(it.key(), it.value());

    type_->setCurrentIndex(std::max(0, type_->findData(values.value(kType).toString())));
    name_->setText(values.value(kName).toString());
    scope_->setCurrentIndex(std::max(0, scope_->findData(values.value(kScope).toString())));
    // Absent (or not one of the choices) is the default, "error".
    onError_->setCurrentIndex(std::max(0, onError_->findData(values.value(kOnError).toString())));
    time_->setCurrentIndex(std::max(0, time_->findData(values.value(kTime).toString())));
    rate_->setText(textOf(values.value(kRate)));
    // The other types' pages show their own defaults: GCRA and the leaky bucket share field
    // names (period_ms, burst) but not their defaults.
    const LimiterType shown = currentType();
    for (size_t i = 0; i < algorithmViews().size(); ++i) {
        const Algorithm& algorithm = algorithmViews()[i]->algorithm();
        typePages_[int(i)]->fill(
            algorithm.type() == shown ? values : limiterSpecToJson(algorithm.defaults(QString())));
    }
    gatewayUse_->fill(values);
    filling_ = false;
    showType();
    validate(false);
    committed_ = formJson();
}

void LimiterEditor::edited() {
    if (!filling_)
        validate(true);
}

// Typing validates at once but applies nothing: only a committed change is announced, so that
// typing "30" into a running limiter's rate is one change, not 3 and then 30.
void LimiterEditor::commit() {
    if (filling_)
        return;
    const QJsonObject now = formJson();
    if (now == committed_)
        return;
    committed_ = now;
    emit specCommitted();
}

void LimiterEditor::validate(bool announce) {
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
    if (flipped)
        emit validityChanged(spec_.has_value());
    if (announce)
        emit specChanged();
}

// At the field the path names; anything else at the bottom of the form.
void LimiterEditor::showProblem(const QString& where, const QString& message) {
    const QString shownWhere = message.isEmpty() ? QString() : where;
    bool shown = commonErrors_.show(shownWhere, message);
    shown = gatewayUse_->showProblem(shown ? QString() : shownWhere, message) || shown;
    // Only the current type's page: pages may share field names (GCRA's and the leaky bucket's).
    LimiterPage* current = typePages_[std::max(0, type_->currentIndex())];
    for (LimiterPage* page : typePages_) {
        const bool mine = page == current && !shown;
        shown = page->showProblem(mine ? shownWhere : QString(), message) || shown;
    }
    formError_->setObjectName(!shown && !message.isEmpty() ? QStringLiteral("error")
                                                           : QStringLiteral("formError"));
    formError_->showMessage(shown ? QString() : message);
}

void LimiterEditor::changeEvent(QEvent* event) {
    // The marked field takes the error colour of the new palette (the labels do it themselves).
    if (event->type() == QEvent::PaletteChange && formError_) {
        commonErrors_.repaint(palette());
        gatewayUse_->repaintProblem(palette());
        for (LimiterPage* page : typePages_)
            page->repaintProblem(palette());
    }
    QWidget::changeEvent(event);
}

}  // namespace ratelab
