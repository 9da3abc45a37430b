#include "editors/shape_section.h"

#include "editors/field_help.h"

#include <QAbstractItemModel>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <iterator>

namespace ratelab {
namespace {

using namespace traffic_form;

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

int shapeIndex(ShapeSpec::Type type) {
    for (int i = 0; i < int(std::size(kShapes)); ++i) {
        if (kShapes[i].type == type)
            return i;
    }
    return 0;
}

QString cellText(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

}  // namespace

ShapeSection::ShapeSection(QWidget* parent) : TrafficSection(tr("Shape"), parent) {
    shape_ = new QComboBox(this);
    shape_->setObjectName(QStringLiteral("shape"));
    for (const ShapeEntry& entry : kShapes)
        shape_->addItem(QString(entry.name), QString(entry.name));
    form_->addRow(tr("Type"), shape_);
    connect(shape_, &QComboBox::currentIndexChanged, this, &TrafficSection::edited);

    pages_ = new QStackedWidget(this);
    pages_->setObjectName(QStringLiteral("shapePages"));
    const QString perSecond = tr("requests/s");
    const QString seconds = tr("seconds");
    buildRatePage(perSecond, seconds);
    buildLinearPage(perSecond);
    buildSinePage(perSecond, seconds);
    buildStepPage();
    buildReplayPage();
    form_->addRow(pages_);

    duration_ = lineEdit(QStringLiteral("duration"), seconds, this);
    form_->addRow(tr("Duration (s)"), duration_);

    // Defaults: a valid constant load, and sensible values behind every other choice.
    rate_->setText(QStringLiteral("10"));
    burst_->setText(QStringLiteral("10"));
    every_->setText(QStringLiteral("1"));
    from_->setText(QStringLiteral("1"));
    to_->setText(QStringLiteral("20"));
    mean_->setText(QStringLiteral("10"));
    amplitude_->setText(QStringLiteral("5"));
    period_->setText(QStringLiteral("10"));
    appendStage(QStringLiteral("10"), QStringLiteral("5"));
    appendStage(QStringLiteral("30"), QStringLiteral("5"));
    duration_->setText(QStringLiteral("10"));

    QAbstractItemModel* stages = stages_->model();
    const auto stagesEdited = [this] {
        if (!addingStage_)
            emit edited();
    };
    connect(stages, &QAbstractItemModel::dataChanged, this, stagesEdited);
    connect(stages, &QAbstractItemModel::rowsRemoved, this, stagesEdited);
}

QWidget* ShapeSection::addPage(QFormLayout** form) {
    auto* page = new QWidget(pages_);
    *form = formLayout(page);
    (*form)->setContentsMargins(0, 0, 0, 0);
    pages_->addWidget(page);
    pageForms_ << *form;
    return page;
}

void ShapeSection::buildRatePage(const QString& perSecond, const QString& seconds) {
    QWidget* page = addPage(&rateForm_);
    rate_ = lineEdit(QStringLiteral("rate"), perSecond, page);
    burst_ = lineEdit(QStringLiteral("burst"), tr("requests at once"), page);
    every_ = lineEdit(QStringLiteral("every"), seconds, page);
    rateForm_->addRow(tr("Rate"), rate_);
    rateForm_->addRow(tr("Burst"), burst_);
    rateForm_->addRow(tr("Every (s)"), every_);
}

void ShapeSection::buildLinearPage(const QString& perSecond) {
    QFormLayout* form = nullptr;
    QWidget* page = addPage(&form);
    from_ = lineEdit(QStringLiteral("from"), perSecond, page);
    to_ = lineEdit(QStringLiteral("to"), perSecond, page);
    form->addRow(tr("From"), from_);
    form->addRow(tr("To"), to_);
}

void ShapeSection::buildSinePage(const QString& perSecond, const QString& seconds) {
    QFormLayout* form = nullptr;
    QWidget* page = addPage(&form);
    mean_ = lineEdit(QStringLiteral("mean"), perSecond, page);
    amplitude_ = lineEdit(QStringLiteral("amplitude"), perSecond, page);
    period_ = lineEdit(QStringLiteral("period"), seconds, page);
    form->addRow(tr("Mean"), mean_);
    form->addRow(tr("Amplitude"), amplitude_);
    form->addRow(tr("Period (s)"), period_);
}

void ShapeSection::buildStepPage() {
    QFormLayout* form = nullptr;
    QWidget* page = addPage(&form);
    stages_ = new QTableWidget(0, 2, page);
    stages_->setObjectName(QStringLiteral("stages"));
    stages_->setHorizontalHeaderLabels({tr("Rate (requests/s)"), tr("Duration (s)")});
    stages_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    stages_->setSelectionBehavior(QAbstractItemView::SelectRows);
    stages_->setMinimumHeight(stages_->verticalHeader()->defaultSectionSize() * 5);
    addStage_ = new QPushButton(tr("Add stage"), page);
    addStage_->setObjectName(QStringLiteral("addStage"));
    removeStage_ = new QPushButton(tr("Remove stage"), page);
    removeStage_->setObjectName(QStringLiteral("removeStage"));
    form->addRow(stages_);
    form->addRow(buttonRow(page, {addStage_, removeStage_}));
    connect(addStage_, &QPushButton::clicked, this, &ShapeSection::addStage);
    connect(removeStage_, &QPushButton::clicked, this, &ShapeSection::removeStage);
}

void ShapeSection::buildReplayPage() {
    QFormLayout* form = nullptr;
    QWidget* page = addPage(&form);
    trace_ = lineEdit(QStringLiteral("trace"), tr("t_ms,client,permits CSV"), page);
    browse_ = new QPushButton(tr("Browse…"), page);
    browse_->setObjectName(QStringLiteral("browseTrace"));
    form->addRow(tr("Trace"), rowOf(page, {trace_, browse_}));
    connect(browse_, &QPushButton::clicked, this, &ShapeSection::browseTrace);
}

void ShapeSection::appendStage(const QString& rate, const QString& durationS) {
    const int row = stages_->rowCount();
    stages_->insertRow(row);
    stages_->setItem(row, 0, new QTableWidgetItem(rate));
    stages_->setItem(row, 1, new QTableWidgetItem(durationS));
}

// A new stage repeats the last one: a valid start to edit from.
void ShapeSection::addStage() {
    const int last = stages_->rowCount() - 1;
    addingStage_ = true;
    appendStage(last < 0 ? QStringLiteral("10") : cellText(stages_, last, 0),
                last < 0 ? QStringLiteral("10") : cellText(stages_, last, 1));
    addingStage_ = false;
    stages_->setCurrentCell(last + 1, 0);
    emit edited();
}

void ShapeSection::removeStage() {
    const int current = stages_->currentRow();
    const int row = current >= 0 ? current : stages_->rowCount() - 1;
    if (row >= 0)
        stages_->removeRow(row);  // judged through rowsRemoved
}

void ShapeSection::browseTrace() {
    const QString current = trace_->text().trimmed();
    const QString path = QFileDialog::getOpenFileName(
        window(), tr("Open a trace"),
        current.isEmpty() ? QDir::currentPath() : QFileInfo(current).absolutePath(),
        tr("Traces (*.csv);;All files (*)"));
    if (!path.isEmpty())
        trace_->setText(path);
}

ShapeSpec::Type ShapeSection::currentShape() const {
    const QString name = shape_->currentData().toString();
    for (const ShapeEntry& entry : kShapes) {
        if (entry.name == name)
            return entry.type;
    }
    return ShapeSpec::Type::Constant;
}

void ShapeSection::updateEnabled(bool grouped) {
    // With groups only the duration applies.
    shape_->setEnabled(!grouped);
    pages_->setEnabled(!grouped);
    shape_->setToolTip(grouped ? tr("Each group has its own shape (Groups below)")
                               : fieldHelp(shape_->objectName()));
    const ShapeSpec::Type type = currentShape();
    const int page = kShapes[shapeIndex(type)].page;
    pages_->setCurrentIndex(page);
    // Only the shown page counts for the stack's size (the step table is tall).
    for (int i = 0; i < pages_->count(); ++i) {
        const QSizePolicy::Policy policy =
            i == page ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        pages_->widget(i)->setSizePolicy(policy, policy);
    }
    const bool burst = type == ShapeSpec::Type::Burst;
    rateForm_->setRowVisible(burst_, burst);
    rateForm_->setRowVisible(every_, burst);
    if (auto* label = qobject_cast<QLabel*>(rateForm_->labelForField(rate_)))
        label->setText(burst ? tr("Steady rate") : tr("Rate"));
    duration_->setPlaceholderText(
        type == ShapeSpec::Type::Step     ? tr("seconds; empty: the stages' total")
        : type == ShapeSpec::Type::Replay ? tr("seconds; empty: the trace's span")
                                          : tr("seconds"));
}

void ShapeSection::writeJson(QJsonObject& traffic) const {
    QJsonObject shape{{QLatin1String("type"), shape_->currentData().toString()}};
    switch (currentShape()) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            insertRequired(shape, QLatin1String("rate"), rate_->text());
            break;
        case ShapeSpec::Type::Linear:
            insertRequired(shape, QLatin1String("from"), from_->text());
            insertRequired(shape, QLatin1String("to"), to_->text());
            break;
        case ShapeSpec::Type::Sine:
            insertRequired(shape, QLatin1String("mean"), mean_->text());
            insertRequired(shape, QLatin1String("amplitude"), amplitude_->text());
            insertRequired(shape, QLatin1String("period_s"), period_->text());
            break;
        case ShapeSpec::Type::Burst:
            insertRequired(shape, QLatin1String("rate"), rate_->text());
            insertRequired(shape, QLatin1String("burst"), burst_->text());
            insertRequired(shape, QLatin1String("every_s"), every_->text());
            break;
        case ShapeSpec::Type::Step: {
            QJsonArray stages;
            for (int row = 0; row < stages_->rowCount(); ++row) {
                QJsonObject stage;
                insertRequired(stage, QLatin1String("rate"), cellText(stages_, row, 0));
                insertRequired(stage, QLatin1String("duration_s"), cellText(stages_, row, 1));
                stages.append(stage);
            }
            shape.insert(QLatin1String("stages"), stages);
            break;
        }
        case ShapeSpec::Type::Replay:
            shape.insert(QLatin1String("trace"), trace_->text().trimmed());
            break;
    }
    traffic.insert(QLatin1String("shape"), shape);
    insertRequired(traffic, QLatin1String("duration_s"), duration_->text());
}

void ShapeSection::load(const TrafficSpec& traffic) {
    const ShapeSpec& shape = traffic.shape;
    shape_->setCurrentIndex(shapeIndex(shape.type));
    double naturalS = -1;  // step and replay: the length without duration_s
    switch (shape.type) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            rate_->setText(numberText(shape.rate));
            break;
        case ShapeSpec::Type::Linear:
            from_->setText(numberText(shape.from));
            to_->setText(numberText(shape.to));
            break;
        case ShapeSpec::Type::Sine:
            mean_->setText(numberText(shape.mean));
            amplitude_->setText(numberText(shape.amplitude));
            period_->setText(numberText(shape.periodS));
            break;
        case ShapeSpec::Type::Burst:
            rate_->setText(numberText(shape.rate));
            burst_->setText(QString::number(shape.burst));
            every_->setText(numberText(shape.everyS));
            break;
        case ShapeSpec::Type::Step:
            stages_->setRowCount(0);
            naturalS = 0;
            for (const ShapeSpec::Stage& stage : shape.stages) {
                appendStage(numberText(stage.rate), numberText(stage.durationS));
                naturalS += stage.durationS;  // summed in the parser's order: exactly equal
            }
            break;
        case ShapeSpec::Type::Replay:
            trace_->setText(traffic.tracePath);
            if (!shape.replayOffsetsMs.isEmpty())
                naturalS = static_cast<double>(shape.replayOffsetsMs.last() + 1) / 1000;
            break;
    }
    // A natural length stays implicit, so that it follows edits of the stages or the trace.
    duration_->setText(traffic.durationS == naturalS ? QString() : numberText(traffic.durationS));
}

// "$.traffic.shape.rate" → rate. Longer prefixes come first. A replay trace's own errors name
// the file and line, not a JSON path.
QWidget* ShapeSection::fieldFor(const QString& where) const {
    if (!where.startsWith(QLatin1Char('$')))
        return trace_;
    return matchField(where, {
                                 {"$.traffic.shape.type", shape_},
                                 {"$.traffic.shape.rate", rate_},
                                 {"$.traffic.shape.from", from_},
                                 {"$.traffic.shape.to", to_},
                                 {"$.traffic.shape.mean", mean_},
                                 {"$.traffic.shape.amplitude", amplitude_},
                                 {"$.traffic.shape.period_s", period_},
                                 {"$.traffic.shape.burst", burst_},
                                 {"$.traffic.shape.every_s", every_},
                                 {"$.traffic.shape.stages", stages_},
                                 {"$.traffic.shape.trace", trace_},
                                 {"$.traffic.shape", shape_},
                                 {"$.traffic.duration_s", duration_},
                             });
}

QList<QFormLayout*> ShapeSection::forms() const {
    return QList<QFormLayout*>{form_} + pageForms_;
}

}  // namespace ratelab
