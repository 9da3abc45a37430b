// TrafficEditor (editors/traffic_editor.h). The form never judges values itself: on every edit
// it writes the scenario JSON it stands for and lets parseScenario decide, so the window accepts
// exactly what a scenario file would, with the same messages.

#include "editors/traffic_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <initializer_list>
#include <iterator>

#include "input_error.h"

namespace ratelab {
namespace {

// The speed slider: kSpeedSteps positions on a log scale from kMinSpeed to kMaxSpeed.
constexpr double kMinSpeed = 0.05;
constexpr double kMaxSpeed = 100;
constexpr int kSpeedSteps = 1000;

// Pages of the shape stack. Constant, poisson and burst share the page with the rate field.
enum Page { kRatePage, kLinearPage, kSinePage, kStepPage, kReplayPage };

struct ShapeEntry {
    ShapeSpec::Type type;
    QLatin1String name;
    Page page;
};

constexpr ShapeEntry kShapes[] = {
    {ShapeSpec::Type::Constant, QLatin1String("constant"), kRatePage},
    {ShapeSpec::Type::Poisson, QLatin1String("poisson"), kRatePage},
    {ShapeSpec::Type::Linear, QLatin1String("linear"), kLinearPage},
    {ShapeSpec::Type::Sine, QLatin1String("sine"), kSinePage},
    {ShapeSpec::Type::Burst, QLatin1String("burst"), kRatePage},
    {ShapeSpec::Type::Step, QLatin1String("step"), kStepPage},
    {ShapeSpec::Type::Replay, QLatin1String("replay"), kReplayPage},
};

// The form's widgets and the last verdict of the parser. The header declares no members, so
// this lives in a child object of the editor.
class Form : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    QComboBox* shape = nullptr;
    QStackedWidget* pages = nullptr;
    QLineEdit* rate = nullptr;
    QLineEdit* from = nullptr;
    QLineEdit* to = nullptr;
    QLineEdit* mean = nullptr;
    QLineEdit* amplitude = nullptr;
    QLineEdit* period = nullptr;
    QLineEdit* burst = nullptr;
    QLineEdit* every = nullptr;
    QTableWidget* stages = nullptr;
    QPushButton* addStage = nullptr;
    QPushButton* removeStage = nullptr;
    QLineEdit* trace = nullptr;
    QLineEdit* duration = nullptr;
    QLineEdit* clients = nullptr;
    QLineEdit* weights = nullptr;
    QLineEdit* threads = nullptr;
    QLineEdit* pipeline = nullptr;
    QLineEdit* permitsMin = nullptr;
    QCheckBox* permitsRange = nullptr;
    QLineEdit* permitsMax = nullptr;
    QComboBox* mode = nullptr;
    QLineEdit* timeout = nullptr;
    QComboBox* clock = nullptr;
    QLineEdit* start = nullptr;
    QSlider* speed = nullptr;
    QLabel* speedValue = nullptr;
    QCheckBox* asFastAsPossible = nullptr;
    QLineEdit* seed = nullptr;
    QLineEdit* bucketMs = nullptr;
    QLabel* error = nullptr;

    // The exact speed: slider positions are approximate, and a loaded scenario's speed must
    // come back unchanged (it may even lie outside the slider's range).
    double sliderSpeed = 1;
    bool loading = false;  // setTraffic is filling the fields: edits are not judged one by one
    std::optional<Scenario> parsed;
    QString errorText;
    QWidget* marked = nullptr;  // the field the error names
    int labelWidth = 0;         // of every form's label column

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

Form* formOf(const TrafficEditor* editor) {
    return editor->findChild<Form*>(QString(), Qt::FindDirectChildrenOnly);
}

// A red readable on the current palette's base colour (light or dark).
QColor errorColor(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b)
                                                           : QColor(0xc6, 0x28, 0x28);
}

// Sets the error red on the roles a label, line edit, combo or table draws its text with; the
// other roles stay inherited from the system palette.
void paintRed(QWidget* widget, const QColor& red) {
    QPalette palette;
    for (const QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        palette.setColor(role, red);
    }
    widget->setPalette(palette);
}

bool Form::eventFilter(QObject* watched, QEvent* event) {
    // A new theme: the red must stay readable on the new base colour.
    if (event->type() == QEvent::PaletteChange && watched == parent()) {
        const QColor red = errorColor(static_cast<QWidget*>(watched)->palette());
        paintRed(error, red);
        if (marked) {
            paintRed(marked, red);
        }
    }
    return QObject::eventFilter(watched, event);
}

// Numbers as the scenario writer prints them, so that values round-trip exactly.
QString numberText(double value) {
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0) {
        return QString::number(static_cast<qint64>(value));
    }
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

double sliderToSpeed(int position) {
    const double speed =
        kMinSpeed * std::pow(kMaxSpeed / kMinSpeed, static_cast<double>(position) / kSpeedSteps);
    // Two significant digits: "0.25x" rather than "0.2497x". Scale by exact powers of ten.
    const int exponent = static_cast<int>(std::floor(std::log10(speed))) - 1;
    const double scale = std::pow(10.0, std::abs(exponent));
    const double rounded =
        exponent < 0 ? std::round(speed * scale) / scale : std::round(speed / scale) * scale;
    return qBound(kMinSpeed, rounded, kMaxSpeed);
}

int speedToSlider(double speed) {
    const double position = std::log(speed / kMinSpeed) / std::log(kMaxSpeed / kMinSpeed);
    return qBound(0, static_cast<int>(std::lround(position * kSpeedSteps)), kSpeedSteps);
}

QString speedText(double speed) {
    return numberText(speed) + QLatin1Char('x');
}

QLineEdit* lineEdit(const QString& name, const QString& placeholder, QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    return edit;
}

QFormLayout* formLayout(QWidget* widget) {
    auto* layout = new QFormLayout(widget);
    layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return layout;
}

// A row holding several widgets side by side.
QWidget* rowOf(QWidget* parent, std::initializer_list<QWidget*> widgets) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* widget : widgets) {
        widget->setParent(row);
        const bool fixed = qobject_cast<QAbstractButton*>(widget) || qobject_cast<QLabel*>(widget);
        layout->addWidget(widget, fixed ? 0 : 1);
    }
    return row;
}

void appendStage(QTableWidget* table, const QString& rate, const QString& durationS) {
    const int row = table->rowCount();
    table->insertRow(row);
    table->setItem(row, 0, new QTableWidgetItem(rate));
    table->setItem(row, 1, new QTableWidgetItem(durationS));
}

QString cellText(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

QGroupBox* buildShape(Form* f, QWidget* parent) {
    auto* group = new QGroupBox(TrafficEditor::tr("Shape"), parent);
    QFormLayout* layout = formLayout(group);

    f->shape = new QComboBox(group);
    f->shape->setObjectName(QStringLiteral("shape"));
    for (const ShapeEntry& entry : kShapes) {
        f->shape->addItem(QString(entry.name), QString(entry.name));
    }
    layout->addRow(TrafficEditor::tr("Type"), f->shape);

    f->pages = new QStackedWidget(group);
    f->pages->setObjectName(QStringLiteral("shapePages"));
    const QString perSecond = TrafficEditor::tr("requests/s");
    const QString seconds = TrafficEditor::tr("seconds");

    auto* ratePage = new QWidget(f->pages);
    QFormLayout* rateForm = formLayout(ratePage);
    rateForm->setContentsMargins(0, 0, 0, 0);
    f->rate = lineEdit(QStringLiteral("rate"), perSecond, ratePage);
    f->burst = lineEdit(QStringLiteral("burst"), TrafficEditor::tr("requests at once"), ratePage);
    f->every = lineEdit(QStringLiteral("every"), seconds, ratePage);
    rateForm->addRow(TrafficEditor::tr("Rate"), f->rate);
    rateForm->addRow(TrafficEditor::tr("Burst"), f->burst);
    rateForm->addRow(TrafficEditor::tr("Every (s)"), f->every);
    f->pages->addWidget(ratePage);

    auto* linearPage = new QWidget(f->pages);
    QFormLayout* linearForm = formLayout(linearPage);
    linearForm->setContentsMargins(0, 0, 0, 0);
    f->from = lineEdit(QStringLiteral("from"), perSecond, linearPage);
    f->to = lineEdit(QStringLiteral("to"), perSecond, linearPage);
    linearForm->addRow(TrafficEditor::tr("From"), f->from);
    linearForm->addRow(TrafficEditor::tr("To"), f->to);
    f->pages->addWidget(linearPage);

    auto* sinePage = new QWidget(f->pages);
    QFormLayout* sineForm = formLayout(sinePage);
    sineForm->setContentsMargins(0, 0, 0, 0);
    f->mean = lineEdit(QStringLiteral("mean"), perSecond, sinePage);
    f->amplitude = lineEdit(QStringLiteral("amplitude"), perSecond, sinePage);
    f->period = lineEdit(QStringLiteral("period"), seconds, sinePage);
    sineForm->addRow(TrafficEditor::tr("Mean"), f->mean);
    sineForm->addRow(TrafficEditor::tr("Amplitude"), f->amplitude);
    sineForm->addRow(TrafficEditor::tr("Period (s)"), f->period);
    f->pages->addWidget(sinePage);

    auto* stepPage = new QWidget(f->pages);
    QFormLayout* stepForm = formLayout(stepPage);
    stepForm->setContentsMargins(0, 0, 0, 0);
    f->stages = new QTableWidget(0, 2, stepPage);
    f->stages->setObjectName(QStringLiteral("stages"));
    f->stages->setHorizontalHeaderLabels(
        {TrafficEditor::tr("Rate (requests/s)"), TrafficEditor::tr("Duration (s)")});
    f->stages->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    f->stages->setSelectionBehavior(QAbstractItemView::SelectRows);
    f->stages->setMinimumHeight(f->stages->verticalHeader()->defaultSectionSize() * 5);
    f->addStage = new QPushButton(TrafficEditor::tr("Add stage"), stepPage);
    f->addStage->setObjectName(QStringLiteral("addStage"));
    f->removeStage = new QPushButton(TrafficEditor::tr("Remove stage"), stepPage);
    f->removeStage->setObjectName(QStringLiteral("removeStage"));
    stepForm->addRow(f->stages);
    auto* buttons = new QWidget(stepPage);
    auto* buttonLayout = new QHBoxLayout(buttons);
    buttonLayout->setContentsMargins(0, 0, 0, 0);
    buttonLayout->addWidget(f->addStage);
    buttonLayout->addWidget(f->removeStage);
    buttonLayout->addStretch(1);
    stepForm->addRow(buttons);
    f->pages->addWidget(stepPage);

    auto* replayPage = new QWidget(f->pages);
    QFormLayout* replayForm = formLayout(replayPage);
    replayForm->setContentsMargins(0, 0, 0, 0);
    f->trace =
        lineEdit(QStringLiteral("trace"), TrafficEditor::tr("t_ms,client,permits CSV"), replayPage);
    auto* browse = new QPushButton(TrafficEditor::tr("Browse…"), replayPage);
    browse->setObjectName(QStringLiteral("browseTrace"));
    replayForm->addRow(TrafficEditor::tr("Trace"), rowOf(replayPage, {f->trace, browse}));
    f->pages->addWidget(replayPage);

    layout->addRow(f->pages);
    f->duration = lineEdit(QStringLiteral("duration"), seconds, group);
    layout->addRow(TrafficEditor::tr("Duration (s)"), f->duration);

    QObject::connect(browse, &QPushButton::clicked, f, [f, browse] {
        const QString current = f->trace->text().trimmed();
        const QString path = QFileDialog::getOpenFileName(
            browse->window(), TrafficEditor::tr("Open a trace"),
            current.isEmpty() ? QDir::currentPath() : QFileInfo(current).absolutePath(),
            TrafficEditor::tr("Traces (*.csv);;All files (*)"));
        if (!path.isEmpty()) {
            f->trace->setText(path);
        }
    });
    return group;
}

QGroupBox* buildClients(Form* f, QWidget* parent) {
    auto* group = new QGroupBox(TrafficEditor::tr("Clients and requests"), parent);
    QFormLayout* layout = formLayout(group);
    f->clients = lineEdit(QStringLiteral("clients"), TrafficEditor::tr("c0 … c<N-1>"), group);
    f->weights = lineEdit(QStringLiteral("weights"),
                          TrafficEditor::tr("uniform, or one per client: 1, 1, 2, 4"), group);
    f->permitsMin = lineEdit(QStringLiteral("permitsMin"), TrafficEditor::tr("permits"), group);
    f->permitsRange = new QCheckBox(TrafficEditor::tr("up to"), group);
    f->permitsRange->setObjectName(QStringLiteral("permitsRange"));
    f->permitsRange->setToolTip(
        TrafficEditor::tr("Each request asks for a uniformly random number of permits"));
    f->permitsMax = lineEdit(QStringLiteral("permitsMax"), TrafficEditor::tr("max"), group);
    f->threads = lineEdit(QStringLiteral("threads"), QString(), group);
    f->pipeline =
        lineEdit(QStringLiteral("pipeline"), TrafficEditor::tr("in flight per thread"), group);
    layout->addRow(TrafficEditor::tr("Clients"), f->clients);
    layout->addRow(TrafficEditor::tr("Weights"), f->weights);
    layout->addRow(TrafficEditor::tr("Permits"),
                   rowOf(group, {f->permitsMin, f->permitsRange, f->permitsMax}));
    layout->addRow(TrafficEditor::tr("Threads"), f->threads);
    layout->addRow(TrafficEditor::tr("Pipeline"), f->pipeline);
    return group;
}

QGroupBox* buildAcquire(Form* f, QWidget* parent) {
    auto* group = new QGroupBox(TrafficEditor::tr("Acquire"), parent);
    QFormLayout* layout = formLayout(group);
    f->mode = new QComboBox(group);
    f->mode->setObjectName(QStringLiteral("mode"));
    f->mode->addItem(TrafficEditor::tr("try (tryAcquire)"), QStringLiteral("try"));
    f->mode->addItem(TrafficEditor::tr("wait (acquire)"), QStringLiteral("wait"));
    f->timeout = lineEdit(QStringLiteral("timeout"), TrafficEditor::tr("ms"), group);
    layout->addRow(TrafficEditor::tr("Mode"), f->mode);
    layout->addRow(TrafficEditor::tr("Timeout (ms)"), f->timeout);
    return group;
}

QGroupBox* buildClock(Form* f, QWidget* parent) {
    auto* group = new QGroupBox(TrafficEditor::tr("Clock"), parent);
    QFormLayout* layout = formLayout(group);
    f->clock = new QComboBox(group);
    f->clock->setObjectName(QStringLiteral("clock"));
    f->clock->addItem(TrafficEditor::tr("real"), QStringLiteral("real"));
    f->clock->addItem(TrafficEditor::tr("virtual"), QStringLiteral("virtual"));
    f->start =
        lineEdit(QStringLiteral("start"), QStringLiteral("2024-03-10T01:59:58-05:00"), group);
    f->start->setToolTip(TrafficEditor::tr("ISO 8601 date and time with an offset or Z"));
    f->speed = new QSlider(Qt::Horizontal, group);
    f->speed->setObjectName(QStringLiteral("speed"));
    f->speed->setRange(0, kSpeedSteps);
    f->speed->setPageStep(kSpeedSteps / 20);
    f->speedValue = new QLabel(group);
    f->speedValue->setObjectName(QStringLiteral("speedValue"));
    // Wide enough for "0.051x" so that the slider does not jump while dragged.
    f->speedValue->setMinimumWidth(
        f->speedValue->fontMetrics().horizontalAdvance(QStringLiteral("0.051x  ")));
    f->asFastAsPossible = new QCheckBox(TrafficEditor::tr("as fast as possible"), group);
    f->asFastAsPossible->setObjectName(QStringLiteral("asFastAsPossible"));
    layout->addRow(TrafficEditor::tr("Clock"), f->clock);
    layout->addRow(TrafficEditor::tr("Start"), f->start);
    auto* speedRow = rowOf(group, {f->speed, f->speedValue});
    layout->addRow(TrafficEditor::tr("Speed"), speedRow);
    layout->addRow(QString(), f->asFastAsPossible);
    return group;
}

QGroupBox* buildRun(Form* f, QWidget* parent) {
    auto* group = new QGroupBox(TrafficEditor::tr("Run"), parent);
    QFormLayout* layout = formLayout(group);
    f->seed = lineEdit(QStringLiteral("seed"), QString(), group);
    f->bucketMs = lineEdit(QStringLiteral("bucketMs"), TrafficEditor::tr("timeline bucket"), group);
    layout->addRow(TrafficEditor::tr("Seed"), f->seed);
    layout->addRow(TrafficEditor::tr("Bucket (ms)"), f->bucketMs);
    return group;
}

ShapeSpec::Type currentShape(const Form& f) {
    const QString name = f.shape->currentData().toString();
    for (const ShapeEntry& entry : kShapes) {
        if (entry.name == name) {
            return entry.type;
        }
    }
    return ShapeSpec::Type::Constant;
}

int shapeIndex(ShapeSpec::Type type) {
    for (int i = 0; i < int(std::size(kShapes)); ++i) {
        if (kShapes[i].type == type) {
            return i;
        }
    }
    return 0;
}

bool isVirtual(const Form& f) {
    return f.clock->currentData().toString() == QLatin1String("virtual");
}

double currentSpeed(const Form& f) {
    return f.asFastAsPossible->isChecked() ? 0.0 : f.sliderSpeed;
}

// Shows the current shape's page and enables what the other choices allow.
void updateEnabled(Form& f) {
    const ShapeSpec::Type type = currentShape(f);
    const int page = kShapes[shapeIndex(type)].page;
    f.pages->setCurrentIndex(page);
    // Only the shown page counts for the stack's size (the step table is tall).
    for (int i = 0; i < f.pages->count(); ++i) {
        const QSizePolicy::Policy policy =
            i == page ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        f.pages->widget(i)->setSizePolicy(policy, policy);
    }
    const bool burst = type == ShapeSpec::Type::Burst;
    auto* rateForm = static_cast<QFormLayout*>(f.rate->parentWidget()->layout());
    rateForm->setRowVisible(f.burst, burst);
    rateForm->setRowVisible(f.every, burst);
    if (auto* label = qobject_cast<QLabel*>(rateForm->labelForField(f.rate))) {
        label->setText(burst ? TrafficEditor::tr("Steady rate") : TrafficEditor::tr("Rate"));
    }

    const bool replay = type == ShapeSpec::Type::Replay;
    const QString fromTrace = replay ? TrafficEditor::tr(
                                           "A replay's trace gives each request's "
                                           "client and permits")
                                     : QString();
    for (QLineEdit* edit : {f.clients, f.weights, f.permitsMin, f.permitsMax}) {
        edit->setEnabled(!replay);
        edit->setToolTip(fromTrace);
    }
    f.permitsRange->setEnabled(!replay);
    f.permitsMax->setEnabled(!replay && f.permitsRange->isChecked());
    f.duration->setPlaceholderText(type == ShapeSpec::Type::Step
                                       ? TrafficEditor::tr("seconds; empty: the stages' total")
                                   : replay ? TrafficEditor::tr("seconds; empty: the trace's span")
                                            : TrafficEditor::tr("seconds"));

    f.timeout->setEnabled(f.mode->currentData().toString() == QLatin1String("wait"));

    const bool clockIsVirtual = isVirtual(f);
    f.start->setEnabled(clockIsVirtual);
    f.asFastAsPossible->setEnabled(clockIsVirtual);
    f.speed->setEnabled(clockIsVirtual && !f.asFastAsPossible->isChecked());
    f.speedValue->setEnabled(f.speed->isEnabled());
    f.speedValue->setText(speedText(f.sliderSpeed));
}

// A field's text as a JSON value: a number when it reads as one, else the text itself, so that
// the parser says what is wrong with it ("abc" → must be a number, got "abc" (a string)).
QJsonValue numberValue(const QString& text) {
    bool ok = false;
    const double number = text.trimmed().toDouble(&ok);
    return ok ? QJsonValue(number) : QJsonValue(text.trimmed());
}

// A field the format requires: left out while empty, which the parser reports as missing.
void insertRequired(QJsonObject& object, QLatin1String key, const QString& text) {
    if (!text.trimmed().isEmpty()) {
        object.insert(key, numberValue(text));
    }
}

QJsonObject shapeJson(const Form& f) {
    const ShapeSpec::Type type = currentShape(f);
    QJsonObject shape{{QLatin1String("type"), f.shape->currentData().toString()}};
    switch (type) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            insertRequired(shape, QLatin1String("rate"), f.rate->text());
            break;
        case ShapeSpec::Type::Linear:
            insertRequired(shape, QLatin1String("from"), f.from->text());
            insertRequired(shape, QLatin1String("to"), f.to->text());
            break;
        case ShapeSpec::Type::Sine:
            insertRequired(shape, QLatin1String("mean"), f.mean->text());
            insertRequired(shape, QLatin1String("amplitude"), f.amplitude->text());
            insertRequired(shape, QLatin1String("period_s"), f.period->text());
            break;
        case ShapeSpec::Type::Burst:
            insertRequired(shape, QLatin1String("rate"), f.rate->text());
            insertRequired(shape, QLatin1String("burst"), f.burst->text());
            insertRequired(shape, QLatin1String("every_s"), f.every->text());
            break;
        case ShapeSpec::Type::Step: {
            QJsonArray stages;
            for (int row = 0; row < f.stages->rowCount(); ++row) {
                QJsonObject stage;
                insertRequired(stage, QLatin1String("rate"), cellText(f.stages, row, 0));
                insertRequired(stage, QLatin1String("duration_s"), cellText(f.stages, row, 1));
                stages.append(stage);
            }
            shape.insert(QLatin1String("stages"), stages);
            break;
        }
        case ShapeSpec::Type::Replay:
            shape.insert(QLatin1String("trace"), f.trace->text().trimmed());
            break;
    }
    return shape;
}

// The scenario the form stands for: a fixed dummy limiter, the traffic and bucket_ms.
QJsonObject scenarioJson(const Form& f) {
    QJsonObject traffic{{QLatin1String("shape"), shapeJson(f)}};
    insertRequired(traffic, QLatin1String("duration_s"), f.duration->text());
    if (currentShape(f) != ShapeSpec::Type::Replay) {
        if (f.weights->text().trimmed().isEmpty()) {
            traffic.insert(QLatin1String("clients"), numberValue(f.clients->text()));
        } else {
            QJsonArray weights;
            for (const QString& weight : f.weights->text().split(QLatin1Char(','))) {
                weights.append(numberValue(weight));
            }
            QJsonObject clients{{QLatin1String("weights"), weights}};
            insertRequired(clients, QLatin1String("count"), f.clients->text());
            traffic.insert(QLatin1String("clients"), clients);
        }
        if (f.permitsRange->isChecked()) {
            QJsonObject permits;
            insertRequired(permits, QLatin1String("min"), f.permitsMin->text());
            insertRequired(permits, QLatin1String("max"), f.permitsMax->text());
            traffic.insert(QLatin1String("permits"), permits);
        } else {
            traffic.insert(QLatin1String("permits"), numberValue(f.permitsMin->text()));
        }
    }
    // Optional fields go in even when empty: a cleared field is reported, not read as default.
    traffic.insert(QLatin1String("threads"), numberValue(f.threads->text()));
    traffic.insert(QLatin1String("pipeline"), numberValue(f.pipeline->text()));
    const QString mode = f.mode->currentData().toString();
    traffic.insert(QLatin1String("mode"), mode);
    if (mode == QLatin1String("wait")) {
        insertRequired(traffic, QLatin1String("timeout_ms"), f.timeout->text());
    }
    if (isVirtual(f)) {
        traffic.insert(QLatin1String("clock"),
                       QJsonObject{{QLatin1String("type"), QStringLiteral("virtual")},
                                   {QLatin1String("start"), f.start->text().trimmed()},
                                   {QLatin1String("speed"), currentSpeed(f)}});
    } else {
        traffic.insert(QLatin1String("clock"), QStringLiteral("real"));
    }
    traffic.insert(QLatin1String("seed"), numberValue(f.seed->text()));

    const QJsonObject limiter{{QLatin1String("type"), QStringLiteral("token_bucket")},
                              {QLatin1String("name"), QStringLiteral("traffic-editor")},
                              {QLatin1String("rate"), 1},
                              {QLatin1String("interval_ms"), 1000}};
    return QJsonObject{{QLatin1String("limiters"), QJsonArray{limiter}},
                       {QLatin1String("traffic"), traffic},
                       {QLatin1String("bucket_ms"), numberValue(f.bucketMs->text())}};
}

// The field an error's place names: "$.traffic.shape.rate" → rate, "$.traffic.clients
// .weights[1]" → weights. Longer prefixes come first.
QWidget* fieldFor(const Form& f, const QString& where) {
    const std::pair<const char*, QWidget*> fields[] = {
        {"$.traffic.shape.type", f.shape},
        {"$.traffic.shape.rate", f.rate},
        {"$.traffic.shape.from", f.from},
        {"$.traffic.shape.to", f.to},
        {"$.traffic.shape.mean", f.mean},
        {"$.traffic.shape.amplitude", f.amplitude},
        {"$.traffic.shape.period_s", f.period},
        {"$.traffic.shape.burst", f.burst},
        {"$.traffic.shape.every_s", f.every},
        {"$.traffic.shape.stages", f.stages},
        {"$.traffic.shape.trace", f.trace},
        {"$.traffic.shape", f.shape},
        {"$.traffic.duration_s", f.duration},
        {"$.traffic.clients.weights", f.weights},
        {"$.traffic.clients", f.clients},
        {"$.traffic.threads", f.threads},
        {"$.traffic.pipeline", f.pipeline},
        {"$.traffic.permits.max", f.permitsMax},
        {"$.traffic.permits", f.permitsMin},
        {"$.traffic.mode", f.mode},
        {"$.traffic.timeout_ms", f.timeout},
        {"$.traffic.clock.start", f.start},
        {"$.traffic.clock.speed", f.speed},
        {"$.traffic.clock", f.clock},
        {"$.traffic.seed", f.seed},
        {"$.bucket_ms", f.bucketMs},
    };
    for (const auto& [prefix, field] : fields) {
        const QLatin1String path(prefix);
        if (where.startsWith(path) &&
            (where.size() == path.size() || where.at(path.size()) == u'.' ||
             where.at(path.size()) == u'[')) {
            return field;
        }
    }
    // A replay trace's own errors name the file and line, not a JSON path.
    if (!where.startsWith(QLatin1Char('$'))) {
        return f.trace;
    }
    return f.shape;
}

// The row of a QFormLayout that holds `widget` itself.
bool rowOfWidget(QWidget* widget, QFormLayout** form, int* row) {
    QWidget* holder = widget->parentWidget();
    auto* layout = holder ? qobject_cast<QFormLayout*>(holder->layout()) : nullptr;
    if (!layout) {
        return false;
    }
    QFormLayout::ItemRole role;
    layout->getWidgetPosition(widget, row, &role);
    *form = layout;
    return *row >= 0;
}

// The form row holding `field`: its own, or that of the row widget around it.
bool findRow(QWidget* field, QFormLayout** form, int* row) {
    for (QWidget* widget = field; widget; widget = widget->parentWidget()) {
        if (rowOfWidget(widget, form, row)) {
            return true;
        }
    }
    return false;
}

// One label width for every form (the stack's pages have their own), so that all fields, and
// the error under them, line up.
void alignLabels(Form& f, QWidget* content) {
    QList<QLabel*> labels;
    int width = content->fontMetrics().horizontalAdvance(TrafficEditor::tr("Steady rate"));
    for (QFormLayout* form : content->findChildren<QFormLayout*>()) {
        for (int row = 0; row < form->rowCount(); ++row) {
            const QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
            if (auto* label = item ? qobject_cast<QLabel*>(item->widget()) : nullptr) {
                labels << label;
                width = qMax(width, label->sizeHint().width());
            }
        }
    }
    for (QLabel* label : labels) {
        label->setMinimumWidth(width);
    }
    f.labelWidth = width;
}

// Moves the error label into its own row right under the field's row. It spans the row and is
// indented to the field column: QFormLayout gives a wrapped label in the field column the
// height of its size hint (four short lines) rather than that of its width.
void placeErrorUnder(QLabel* error, QWidget* field, int labelWidth) {
    QFormLayout* form = nullptr;
    int row = -1;
    if (rowOfWidget(error, &form, &row)) {
        int fieldRow = -1;
        QFormLayout* fieldForm = nullptr;
        if (findRow(field, &fieldForm, &fieldRow) && fieldForm == form && fieldRow == row - 1) {
            return;  // already there
        }
        const QFormLayout::TakeRowResult taken = form->takeRow(row);
        delete taken.labelItem;  // the layout items, not the label
        delete taken.fieldItem;
    }
    if (findRow(field, &form, &row)) {
        error->setContentsMargins(labelWidth + form->horizontalSpacing(), 0, 0, 0);
        form->insertRow(row + 1, error);
    }
}

void setMarked(Form& f, QWidget* field) {
    if (f.marked == field) {
        return;
    }
    if (f.marked) {
        f.marked->setPalette(QPalette());  // back to the inherited palette
        f.marked->setProperty("invalid", false);
    }
    f.marked = field;
    if (field) {
        paintRed(field, errorColor(field->palette()));
        field->setProperty("invalid", true);
    }
}

// Judges the form with the scenario parser, shows the verdict, and tells the listeners.
void revalidate(TrafficEditor* editor, Form& f) {
    const bool wasValid = f.parsed.has_value();
    try {
        f.parsed = parseScenario(scenarioJson(f), QDir::currentPath());
        f.errorText.clear();
        setMarked(f, nullptr);
        f.error->hide();
    } catch (const InputError& error) {
        f.parsed.reset();
        f.errorText = error.message();
        QWidget* field = fieldFor(f, error.where());
        setMarked(f, field);
        placeErrorUnder(f.error, field, f.labelWidth);
        f.error->setText(f.errorText);
        f.error->show();
    }
    if (wasValid != f.parsed.has_value()) {
        emit editor->validityChanged(f.parsed.has_value());
    }
    emit editor->trafficChanged();
}

}  // namespace

TrafficEditor::TrafficEditor(QWidget* parent) : QWidget(parent) {
    auto* f = new Form(this);

    // The form is taller than a dock usually is.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(buildShape(f, content));
    layout->addWidget(buildClients(f, content));
    layout->addWidget(buildAcquire(f, content));
    layout->addWidget(buildClock(f, content));
    layout->addWidget(buildRun(f, content));
    layout->addStretch(1);
    scroll->setWidget(content);
    alignLabels(*f, content);

    f->error = new QLabel(content);
    f->error->setObjectName(QStringLiteral("error"));
    f->error->setWordWrap(true);
    f->error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    paintRed(f->error, errorColor(palette()));
    f->error->hide();
    installEventFilter(f);

    // Defaults: a valid constant load, and sensible values behind every other choice.
    f->rate->setText(QStringLiteral("10"));
    f->burst->setText(QStringLiteral("10"));
    f->every->setText(QStringLiteral("1"));
    f->from->setText(QStringLiteral("1"));
    f->to->setText(QStringLiteral("20"));
    f->mean->setText(QStringLiteral("10"));
    f->amplitude->setText(QStringLiteral("5"));
    f->period->setText(QStringLiteral("10"));
    appendStage(f->stages, QStringLiteral("10"), QStringLiteral("5"));
    appendStage(f->stages, QStringLiteral("30"), QStringLiteral("5"));
    f->duration->setText(QStringLiteral("10"));
    f->clients->setText(QStringLiteral("1"));
    f->permitsMin->setText(QStringLiteral("1"));
    f->permitsMax->setText(QStringLiteral("1"));
    f->threads->setText(QStringLiteral("1"));
    f->pipeline->setText(QStringLiteral("1"));
    f->timeout->setText(QStringLiteral("1000"));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    f->start->setText(now.addMSecs(-now.time().msec()).toString(Qt::ISODate));
    f->speed->setValue(speedToSlider(f->sliderSpeed));
    f->seed->setText(QStringLiteral("1"));
    f->bucketMs->setText(QString::number(Scenario().bucketMs));
    updateEnabled(*f);
    revalidate(this, *f);

    const auto edited = [this, f] {
        if (!f->loading) {
            updateEnabled(*f);
            revalidate(this, *f);
        }
    };
    for (QLineEdit* edit : content->findChildren<QLineEdit*>()) {
        connect(edit, &QLineEdit::textChanged, this, edited);
    }
    for (QComboBox* combo : {f->shape, f->mode, f->clock}) {
        connect(combo, &QComboBox::currentIndexChanged, this, edited);
    }
    connect(f->permitsRange, &QCheckBox::toggled, this, edited);
    connect(f->addStage, &QPushButton::clicked, this, [f, edited] {
        // A new stage repeats the last one: a valid start to edit from. Judged once, not per cell.
        const int last = f->stages->rowCount() - 1;
        f->loading = true;
        appendStage(f->stages, last < 0 ? QStringLiteral("10") : cellText(f->stages, last, 0),
                    last < 0 ? QStringLiteral("10") : cellText(f->stages, last, 1));
        f->loading = false;
        f->stages->setCurrentCell(last + 1, 0);
        edited();
    });
    connect(f->removeStage, &QPushButton::clicked, this, [f] {
        const int current = f->stages->currentRow();
        const int row = current >= 0 ? current : f->stages->rowCount() - 1;
        if (row >= 0) {
            f->stages->removeRow(row);  // judged through rowsRemoved
        }
    });
    QAbstractItemModel* stages = f->stages->model();
    connect(stages, &QAbstractItemModel::dataChanged, this, edited);
    connect(stages, &QAbstractItemModel::rowsRemoved, this, edited);
    connect(f->speed, &QSlider::valueChanged, this, [this, f, edited](int position) {
        if (f->loading) {
            return;
        }
        f->sliderSpeed = sliderToSpeed(position);
        emit speedChanged(speed());
        edited();
    });
    connect(f->asFastAsPossible, &QCheckBox::toggled, this, [this, f, edited] {
        if (f->loading) {
            return;
        }
        emit speedChanged(speed());
        edited();
    });
}

void TrafficEditor::setTraffic(const TrafficSpec& traffic, qint64 bucketMs) {
    Form* f = formOf(this);
    const double oldSpeed = speed();
    f->loading = true;

    const ShapeSpec& shape = traffic.shape;
    f->shape->setCurrentIndex(shapeIndex(shape.type));
    double naturalS = -1;  // step and replay: the length without duration_s
    switch (shape.type) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            f->rate->setText(numberText(shape.rate));
            break;
        case ShapeSpec::Type::Linear:
            f->from->setText(numberText(shape.from));
            f->to->setText(numberText(shape.to));
            break;
        case ShapeSpec::Type::Sine:
            f->mean->setText(numberText(shape.mean));
            f->amplitude->setText(numberText(shape.amplitude));
            f->period->setText(numberText(shape.periodS));
            break;
        case ShapeSpec::Type::Burst:
            f->rate->setText(numberText(shape.rate));
            f->burst->setText(QString::number(shape.burst));
            f->every->setText(numberText(shape.everyS));
            break;
        case ShapeSpec::Type::Step:
            f->stages->setRowCount(0);
            naturalS = 0;
            for (const ShapeSpec::Stage& stage : shape.stages) {
                appendStage(f->stages, numberText(stage.rate), numberText(stage.durationS));
                naturalS += stage.durationS;  // summed in the parser's order: exactly equal
            }
            break;
        case ShapeSpec::Type::Replay:
            f->trace->setText(traffic.tracePath);
            if (!shape.replayOffsetsMs.isEmpty()) {
                naturalS = static_cast<double>(shape.replayOffsetsMs.last() + 1) / 1000;
            }
            break;
    }
    // A natural length stays implicit, so that it follows edits of the stages or the trace.
    f->duration->setText(traffic.durationS == naturalS ? QString() : numberText(traffic.durationS));

    if (shape.type != ShapeSpec::Type::Replay) {
        f->clients->setText(QString::number(traffic.clients));
        QStringList weights;
        for (const double weight : traffic.clientWeights) {
            weights << numberText(weight);
        }
        f->weights->setText(weights.join(QStringLiteral(", ")));
        f->permitsMin->setText(QString::number(traffic.permitsMin));
        f->permitsMax->setText(QString::number(traffic.permitsMax));
        f->permitsRange->setChecked(traffic.permitsMin != traffic.permitsMax);
    }
    f->threads->setText(QString::number(traffic.threads));
    f->pipeline->setText(QString::number(traffic.pipeline));
    const bool wait = traffic.mode == AcquireMode::Wait;
    f->mode->setCurrentIndex(wait ? 1 : 0);
    if (wait) {
        f->timeout->setText(QString::number(traffic.timeoutMs));
    }

    const ClockSpec& clock = traffic.clock;
    f->clock->setCurrentIndex(clock.isVirtual ? 1 : 0);
    if (clock.isVirtual) {
        const QDateTime start = QDateTime::fromMSecsSinceEpoch(clock.startMs, Qt::UTC);
        f->start->setText(
            start.toString(clock.startMs % 1000 == 0 ? Qt::ISODate : Qt::ISODateWithMs));
        f->asFastAsPossible->setChecked(clock.speed == 0);
        if (clock.speed > 0) {
            f->sliderSpeed = clock.speed;
            f->speed->setValue(speedToSlider(clock.speed));
        }
    }
    f->seed->setText(QString::number(traffic.seed));
    f->bucketMs->setText(QString::number(bucketMs));

    f->loading = false;
    updateEnabled(*f);
    revalidate(this, *f);
    if (speed() != oldSpeed) {
        emit speedChanged(speed());
    }
}

std::optional<TrafficSpec> TrafficEditor::traffic() const {
    const Form* f = formOf(this);
    if (!f->parsed) {
        return std::nullopt;
    }
    return f->parsed->traffic;
}

qint64 TrafficEditor::bucketMs() const {
    const Form* f = formOf(this);
    if (f->parsed) {
        return f->parsed->bucketMs;
    }
    bool ok = false;
    const qint64 typed = f->bucketMs->text().trimmed().toLongLong(&ok);
    return ok && typed > 0 ? typed : Scenario().bucketMs;
}

bool TrafficEditor::isValid() const {
    return formOf(this)->parsed.has_value();
}

QString TrafficEditor::errorText() const {
    return formOf(this)->errorText;
}

double TrafficEditor::speed() const {
    return currentSpeed(*formOf(this));
}

}  // namespace ratelab

#include "traffic_editor.moc"
