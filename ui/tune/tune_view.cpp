#include "tune/tune_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "input_error.h"
#include "limiters/algorithm.h"
#include "output/sweep_report.h"
#include "tune/distributed_choice.h"
#include "tune/sweep_chart_view.h"
#include "tune/tune_sweep.h"

namespace ratelab {
namespace {

constexpr int kPollMs = 100;
constexpr int kFieldMin = Qt::UserRole;
constexpr int kFieldMax = Qt::UserRole + 1;
constexpr int kFieldValue = Qt::UserRole + 2;

int toInt(qint64 v) {
    return int(std::clamp<qint64>(v, 0, std::numeric_limits<int>::max()));
}

QSpinBox* spinBox(QWidget* parent, const QString& name) {
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(0, std::numeric_limits<int>::max());
    box->setAccelerated(true);
    return box;
}

// The engine's texts are the command line's, which start lowercase; a sentence of its own in
// the window starts with a capital.
QString capitalized(QString text) {
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

}  // namespace

TuneView::TuneView(QWidget* parent) : QWidget(parent), timer_(new QTimer(this)) {
    timer_->setInterval(kPollMs);
    connect(timer_, &QTimer::timeout, this, &TuneView::poll);

    // Everything scrolls in a small window (1024 x 700 beside the editors and the step
    // decisions) rather than set the window's least size; the chart takes the room there is.
    auto* controls = new QWidget(this);
    auto* layout = new QVBoxLayout(controls);
    auto* form = new QFormLayout;
    const auto fieldRow = [&](const QString& label, const QString& name, QComboBox** field,
                              QSpinBox** from, QSpinBox** to, QSpinBox** step) {
        auto* row = new QHBoxLayout;
        *field = new QComboBox(this);
        (*field)->setObjectName(name + QStringLiteral("Field"));
        (*field)->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        *from = spinBox(this, name + QStringLiteral("From"));
        *to = spinBox(this, name + QStringLiteral("To"));
        *step = spinBox(this, name + QStringLiteral("Step"));
        (*step)->setMinimum(1);
        // The field has a row of its own: its names ("login-attempts.rules[0].limit") read
        // whole at 1024 px beside the editors, with the range on the row under it.
        row->addWidget(new QLabel(tr("from"), this));
        row->addWidget(*from);
        row->addWidget(new QLabel(tr("to"), this));
        row->addWidget(*to);
        row->addWidget(new QLabel(tr("step"), this));
        row->addWidget(*step);
        row->addStretch(1);
        auto* rowLabel = new QLabel(label, this);
        rowLabel->setBuddy(*field);
        form->addRow(rowLabel, *field);
        form->addRow(QString(), row);
        QComboBox* f = *field;
        QSpinBox *a = *from, *b = *to, *s = *step;
        connect(f, &QComboBox::currentIndexChanged, this, [this, f, a, b, s] {
            fieldChanged(f, a, b, s);
            updateEnabled();
        });
    };
    fieldRow(tr("Vary &x"), QStringLiteral("x"), &xField_, &xFrom_, &xTo_, &xStep_);
    fieldRow(tr("Vary &y"), QStringLiteral("y"), &yField_, &yFrom_, &yTo_, &yStep_);

    auto* objectiveRow = new QHBoxLayout;
    direction_ = new QComboBox(this);
    direction_->setObjectName(QStringLiteral("direction"));
    direction_->addItem(tr("minimize"));
    direction_->addItem(tr("maximize"));
    metric_ = new QComboBox(this);
    metric_->setObjectName(QStringLiteral("metric"));
    metric_->setEditable(true);
    metric_->addItems(expectationMetrics());
    metric_->addItem(burstMetricName(1000));
    metric_->setCurrentText(QStringLiteral("accepted"));
    metric_->setToolTip(
        tr("The figure to colour by and optimize: any metric an expectation can "
           "name, optionally \"<limiter>:\" first"));
    objectiveRow->addWidget(direction_);
    objectiveRow->addWidget(metric_, 1);
    auto* objectiveLabel = new QLabel(tr("&Objective"), this);
    objectiveLabel->setBuddy(metric_);
    form->addRow(objectiveLabel, objectiveRow);
    constraints_ = new QLineEdit(this);
    constraints_->setObjectName(QStringLiteral("constraints"));
    constraints_->setPlaceholderText(tr("accepted_ratio >= 0.5; max_accepted_in_any_1000ms <= 20"));
    constraints_->setToolTip(
        tr("Checks every good setting keeps, separated by \";\", in the "
           "syntax of a scenario's \"expect\""));
    form->addRow(tr("&Constraints"), constraints_);
    distributed_ = new DistributedChoice(this);
    form->addRow(QString(), distributed_);
    layout->addLayout(form);

    auto* buttons = new QHBoxLayout;
    run_ = new QPushButton(tr("&Run sweep"), this);
    run_->setObjectName(QStringLiteral("runSweep"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelSweep"));
    applyBest_ = new QPushButton(tr("Apply &best"), this);
    applyBest_->setObjectName(QStringLiteral("applyBest"));
    applyBest_->setToolTip(tr("Load the best feasible combination's limiters into the editor"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("sweepProgress"));
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(applyBest_);
    layout->addLayout(buttons);
    status_ = new QLabel(controls);
    status_->setObjectName(QStringLiteral("sweepStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    workers_ = new QLabel(controls);
    workers_->setObjectName(QStringLiteral("sweepWorkers"));
    workers_->setWordWrap(true);
    workers_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    workers_->hide();
    layout->addWidget(workers_);
    chart_ = new SweepChartView(controls);
    chart_->setObjectName(QStringLiteral("sweepChart"));
    layout->addWidget(chart_, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("tuneScroll"));
    scroll->setWidget(controls);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(run_, &QPushButton::clicked, this, &TuneView::startSweep);
    connect(cancel_, &QPushButton::clicked, this, &TuneView::cancelSweep);
    connect(applyBest_, &QPushButton::clicked, this, &TuneView::applyBest);
    connect(chart_, &SweepChartView::combinationClicked, this,
            [this](int combination) { chooseCombination(combination, true); });
    updateEnabled();
}

TuneView::~TuneView() = default;

void TuneView::showStatus(const QString& text) {
    status_->setText(capitalized(text));
}

QString TuneView::statusText() const {
    return status_->text();
}

QString TuneView::workersText() const {
    return workers_->isHidden() ? QString() : workers_->text();
}

QCheckBox* TuneView::distributedCheck() const {
    return distributed_->check();
}

QLineEdit* TuneView::queueEdit() const {
    return distributed_->queueEdit();
}

QString TuneView::queueError() const {
    return distributed_->errorText();
}

bool TuneView::running() const {
    return sweep_ && !sweep_->finished();
}

void TuneView::setScenario(const Scenario& scenario) {
    const QString x = xField_->currentText(), y = yField_->currentText();
    for (QComboBox* field : {xField_, yField_}) {
        const QSignalBlocker block(field);
        field->clear();
    }
    yField_->addItem(tr("(none)"));
    for (const LimiterSpec& spec : scenario.limiters) {
        for (const NumericParam& p : algorithmOf(spec).numericParams(spec)) {
            const QString key = spec.name + QLatin1Char('.') + p.path;
            for (QComboBox* field : {xField_, yField_}) {
                const QSignalBlocker block(field);
                field->addItem(key);
                const int at = field->count() - 1;
                field->setItemData(at, p.min, kFieldMin);
                field->setItemData(at, p.max, kFieldMax);
                field->setItemData(at, p.value, kFieldValue);
            }
        }
    }
    // `key` selected with the range (from, to, step); step 0: the range it had when `key` is
    // the field it showed (`before`), else one around the field's value.
    const auto select = [this](QComboBox* field, const QString& key, const QString& before,
                               qint64 from, qint64 to, qint64 step) {
        QSpinBox* f = field == xField_ ? xFrom_ : yFrom_;
        QSpinBox* t = field == xField_ ? xTo_ : yTo_;
        QSpinBox* s = field == xField_ ? xStep_ : yStep_;
        if (step == 0 && key == before) {
            from = f->value();
            to = t->value();
            step = s->value();
        }
        const int at = field->findText(key);
        {
            const QSignalBlocker block(field);
            field->setCurrentIndex(std::max(at, 0));
        }
        fieldChanged(field, f, t, s);
        if (at >= 0 && step > 0) {
            f->setValue(toInt(from));
            t->setValue(toInt(to));
            s->setValue(toInt(step));
        }
    };
    const SweepSpec& sweep = scenario.sweep;
    listed_ = listedValuesOf(sweep);  // swept as listed while the fields show them
    const auto rangeOf = [](const SweepAxis& a, qint64* from, qint64* to, qint64* step) {
        const ListedValues list{a.values};
        *from = list.from(), *to = list.to(), *step = a.step > 0 ? a.step : list.step();
    };
    qint64 from = 0, to = 0, step = 0;
    if (!sweep.vary.isEmpty()) {
        rangeOf(sweep.vary[0], &from, &to, &step);
        select(xField_, sweep.vary[0].key, x, from, to, step);
    } else {
        select(xField_, x, x, 0, 0, 0);
    }
    if (sweep.vary.size() > 1) {
        rangeOf(sweep.vary[1], &from, &to, &step);
        select(yField_, sweep.vary[1].key, y, from, to, step);
    } else {
        select(yField_, sweep.vary.isEmpty() ? y : QString(), y, 0, 0, 0);
    }
    if (const QString note = listedValuesNote(listed_); !note.isEmpty()) {
        showStatus(note);
    }
    if (!sweep.isEmpty()) {
        direction_->setCurrentIndex(sweep.objective.maximize ? 1 : 0);
        metric_->setCurrentText(sweep.objective.text());
        QStringList constraints;
        for (const Expectation& c : sweep.constraints) {
            constraints << sweepConstraintText(c);
        }
        constraints_->setText(constraints.join(QStringLiteral("; ")));
    }
    updateEnabled();
}

void TuneView::fieldChanged(QComboBox* field, QSpinBox* from, QSpinBox* to, QSpinBox* step) {
    const int at = field->currentIndex();
    const bool none = at < 0 || !field->itemData(at, kFieldMin).isValid();
    for (QSpinBox* box : {from, to, step}) {
        box->setEnabled(!none);
    }
    if (none) {
        return;
    }
    const qint64 min = field->itemData(at, kFieldMin).toLongLong();
    const qint64 max = field->itemData(at, kFieldMax).toLongLong();
    const qint64 value = field->itemData(at, kFieldValue).toLongLong();
    from->setRange(toInt(min), toInt(max));
    to->setRange(toInt(min), toInt(max));
    // Around the current value: from half of it to twice it, in about five steps.
    const qint64 low = std::max(min, value / 2), high = std::min(max, std::max(value * 2, low + 4));
    from->setValue(toInt(low));
    to->setValue(toInt(high));
    step->setValue(toInt(std::max<qint64>(1, (high - low) / 4)));
}

std::optional<SweepSpec> TuneView::sweepSpec(const Scenario& scenario, QString* error) const {
    QJsonObject vary;
    const auto axis = [&](QComboBox* field, QSpinBox* from, QSpinBox* to, QSpinBox* step) {
        if (field->currentIndex() < 0 || !from->isEnabled()) {
            return;
        }
        const auto list = listed_.constFind(field->currentText());
        const bool asListed =
            list != listed_.cend() && list->shownAs(from->value(), to->value(), step->value());
        vary.insert(field->currentText(),
                    asListed ? QJsonValue(list->json())
                             : QJsonObject{{QStringLiteral("from"), from->value()},
                                           {QStringLiteral("to"), to->value()},
                                           {QStringLiteral("step"), step->value()}});
    };
    axis(xField_, xFrom_, xTo_, xStep_);
    axis(yField_, yFrom_, yTo_, yStep_);
    QJsonObject object{{QStringLiteral("vary"), vary}};
    object.insert(
        direction_->currentIndex() == 1 ? QStringLiteral("maximize") : QStringLiteral("minimize"),
        metric_->currentText().trimmed());
    QJsonArray constraints;
    for (const QString& c : constraints_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        if (!c.trimmed().isEmpty()) {
            constraints.append(c.trimmed());
        }
    }
    if (!constraints.isEmpty()) {
        object.insert(QStringLiteral("constraints"), constraints);
    }
    try {
        SweepSpec sweep = scenario_json::readSweep(object, tr("Tune"), scenario.limiters);
        // The x field first: the heatmap's columns are the first key's values.
        if (sweep.vary.size() == 2 && sweep.vary[1].key == xField_->currentText()) {
            std::swap(sweep.vary[0], sweep.vary[1]);
        }
        return sweep;
    } catch (const InputError& e) {
        *error = e.where() + QStringLiteral(": ") + e.message();
        return std::nullopt;
    }
}

// The sweep of `scenario` as the controls say: local, or distributed once the queue's name, the
// connection and the scenario allow it (nullptr with the problem in *problem).
std::unique_ptr<TuneSweep> TuneView::makeSweep(const Scenario& scenario, QString* problem) const {
    if (!distributed_->distributed()) {
        return TuneSweep::local(SweepPlan(scenario), *url_);
    }
    std::optional<QueueKeys> queue = distributed_->queue(problem);
    if (!queue) {
        return nullptr;
    }
    if (!sharedRedis_) {
        *problem =
            tr("a distributed sweep needs the Redis every worker reaches: connect to its "
               "URL (the window's own local server is private to it)");
        return nullptr;
    }
    return TuneSweep::distributed(scenario, *url_, *queue,
                                  folder_ ? folder_() : QDir::currentPath(), problem);
}

bool TuneView::startSweep() {
    if (running()) {
        return false;
    }
    std::optional<Scenario> scenario = source_ ? source_() : std::nullopt;
    QString problem;
    if (!url_) {
        problem = tr("not connected to Redis");
    } else if (!scenario) {
        problem = tr("the scenario has an invalid field (see the editors)");
    } else if (const std::optional<SweepSpec> sweep = sweepSpec(*scenario, &problem)) {
        scenario->sweep = *sweep;
        if (std::unique_ptr<TuneSweep> made = makeSweep(*scenario, &problem)) {
            sweep_.reset();  // the last one's job ended before the next starts
            sweep_ = std::move(made);
            sweep_->start();
            shownDone_ = -1;
            showStatus(tr("%1 combinations…").arg(scenario->sweep.combinations()));
            progress_->setRange(0, int(scenario->sweep.combinations()));
            progress_->setValue(0);
            progress_->setFormat(QStringLiteral("%p%"));
            chart_->setTable(sweep_->table());
            workers_->setVisible(sweep_->distributed());
            workers_->setText(sweep_->workersText());
            timer_->start();
            updateEnabled();
            return true;
        }
    }
    showStatus(problem);
    return false;
}

void TuneView::cancelSweep() {
    if (sweep_) {
        sweep_->requestStop();
    }
}

void TuneView::poll() {
    if (!sweep_) {
        timer_->stop();
        return;
    }
    const SweepProgress p = sweep_->progress();
    progress_->setValue(int(p.done));
    if (p.done != shownDone_ || sweep_->finished()) {
        shownDone_ = p.done;
        chart_->setTable(sweep_->table());
    }
    if (sweep_->distributed()) {
        workers_->setText(sweep_->workersText());
    }
    if (!sweep_->finished()) {
        showStatus(tr("%1 of %2 combinations, %3 decisions/s")
                       .arg(p.done)
                       .arg(p.total)
                       .arg(qint64(p.decisionsPerS)));
        return;
    }
    timer_->stop();
    sweep_->wait();
    if (sweep_->distributed()) {
        workers_->setText(sweep_->workersText());  // what each did, no longer what it does
    }
    const SweepTable& table = chart_->table();
    QString text = capitalized(sweepVerdictText(table).trimmed());
    for (const QString& warning : table.warnings) {
        text += tr("\nwarning: %1").arg(warning);
    }
    // The bar says how it ended where it stopped: "cancelled: 128 of 6000".
    progress_->setValue(int(table.combinations.size()));
    if (!sweep_->error().isEmpty()) {
        text = tr("Redis failed: %1. %2").arg(sweep_->error(), text);
        progress_->setFormat(tr("failed: %v of %m"));
    } else if (!table.complete) {
        text = tr("cancelled after %1 of %2 combinations. %3")
                   .arg(table.combinations.size())
                   .arg(table.total)
                   .arg(text);
        progress_->setFormat(tr("cancelled: %v of %m"));
    }
    showStatus(text);
    updateEnabled();
    emit sweepFinished();
}

void TuneView::updateEnabled() {
    const bool busy = running();
    run_->setEnabled(!busy && xField_->count() > 0);
    cancel_->setEnabled(busy);
    applyBest_->setEnabled(!busy && sweep_ && chart_->table().best() >= 0);
    for (QWidget* w : std::initializer_list<QWidget*>{xField_, yField_, metric_, direction_,
                                                      constraints_, distributed_}) {
        w->setEnabled(!busy);
    }
}

void TuneView::chooseCombination(int combination, bool run) {
    const SweepTable& table = chart_->table();
    if (!sweep_ || running() || combination < 0 || combination >= table.combinations.size()) {
        return;
    }
    emit combinationChosen(sweep_->plan().combination(table.combinations[combination].index), run);
}

void TuneView::forgetSweep() {
    timer_->stop();
    sweep_.reset();  // stops a sweep under way and waits for its batch (a job ends)
    workers_->clear();
    workers_->hide();
    chart_->setTable(SweepTable());
    progress_->reset();
    status_->clear();
    // The objective and constraints may name the old scenario's limiters and groups: the
    // defaults again, unless the new scenario's own "sweep" fills them in (setScenario).
    direction_->setCurrentIndex(0);
    metric_->setCurrentText(QStringLiteral("accepted"));
    constraints_->clear();
    updateEnabled();
}

bool TuneView::applyBest() {
    const int best = chart_->table().best();
    if (best < 0 || running()) {
        return false;
    }
    chooseCombination(best, false);
    return true;
}

}  // namespace ratelab
