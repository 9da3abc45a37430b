#include "window/run_history.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStyle>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/column_fit.h"
#include "panels/table_cells.h"
#include "scenario/scenario_json.h"

namespace ratelab {
namespace {

enum Column { kNumber, kTime, kScenario, kFired, kAccepted, kRejected, kErrors, kClock, kStopped };

QString clockText(const RunSnapshot& run) {
    if (!run.virtualClock)
        return RunHistory::tr("real");
    if (run.clockSpeed <= 0)  // speed 0: no pacing at all
        return RunHistory::tr("virtual, full speed");
    return RunHistory::tr("virtual ×%1").arg(QLocale().toString(run.clockSpeed, 'g', 4));
}

// Each limiter's own line, for the totals' tooltip.
QString perLimiterText(const RunSnapshot& run) {
    QStringList lines;
    for (const LimiterSnapshot& l : run.limiters) {
        lines << RunHistory::tr("%1: fired %2 = accepted %3 + rejected %4 + errors %5")
                     .arg(l.spec.name, panel::count(l.fired), panel::count(l.accepted),
                          panel::count(l.rejected), panel::count(l.errors));
    }
    return lines.join(QLatin1Char('\n'));
}

// What ran: the limiters and the traffic, for the scenario cell's tooltip.
QString scenarioText(const Scenario& scenario) {
    QStringList limiters;
    for (const LimiterSpec& l : scenario.limiters)
        limiters << QStringLiteral("%1 (%2)").arg(l.name, limiterTypeName(l.type));
    return RunHistory::tr("%1\nlimiters: %2\ntraffic: %3 for %4 s, bucket %5 ms")
        .arg(scenario.name, limiters.join(QStringLiteral(", ")),
             scenario_json::shapeTypeName(scenario.traffic.shape.type))
        .arg(scenario.traffic.durationS)
        .arg(scenario.bucketMs);
}

}  // namespace

RunHistory::RunHistory(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* tools = new QToolBar(this);
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    save_ = tools->addAction(tr("Save as output folder…"), this,
                             [this] { emit saveRequested(selectedRun()); });
    save_->setObjectName(QStringLiteral("saveRunFolder"));
    save_->setToolTip(
        tr("Write the selected run's output folder (summary.json, buckets.csv, report.png, "
           "report.html), the same one `ratelab run --out DIR` writes: `ratelab compare` "
           "reads it"));
    compare_ = tools->addAction(tr("Compare with"), this,
                                [this] { emit compareRequested(selectedRun()); });
    compare_->setObjectName(QStringLiteral("compareWithRun"));
    compare_->setToolTip(
        tr("Make the selected run the baseline: its accepted and rejected counts are drawn "
           "as dashed lines over the timelines and its figures go into the comparison table "
           "(kept for the next runs until cleared)"));
    compareFolder_ = tools->addAction(tr("Compare with folder…"), this,
                                      [this] { emit compareFolderRequested(); });
    compareFolder_->setObjectName(QStringLiteral("compareWithFolder"));
    compareFolder_->setToolTip(
        tr("Make a saved output folder (of `ratelab run --out` or Save as output folder) the "
           "baseline: its summary.json and buckets.csv"));
    clear_ =
        tools->addAction(tr("Clear baseline"), this, [this] { emit clearBaselineRequested(); });
    clear_->setObjectName(QStringLiteral("clearBaseline"));
    clear_->setToolTip(
        tr("Remove the baseline's lines from the timelines and its columns from "
           "the comparison table"));
    layout->addWidget(tools);
    baselineLabel_ = new QLabel(this);
    baselineLabel_->setObjectName(QStringLiteral("baselineLabel"));
    baselineLabel_->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(baselineLabel_);

    table_ = panel::makeTable(this, QStringLiteral("runHistory"),
                              {tr("#"), tr("Ended"), tr("Scenario"), tr("Fired"), tr("Accepted"),
                               tr("Rejected"), tr("Errors"), tr("Clock"), tr("Stopped")});
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    // Right-click a run: the same actions as the toolbar's.
    table_->setContextMenuPolicy(Qt::ActionsContextMenu);
    table_->addActions({save_, compare_, clear_});
    panel::fitColumns(
        table_,
        {tr("The run's number in this window session (1 is the first)."),
         tr("When the run ended (local time)."), tr("The scenario's name when it ran."),
         tr("The run's requests with a known outcome: every limiter decides each of them "
            "(each limiter's own figures in the cell's tooltip)."),
         tr("Accepted by each limiter, in the run's order (\"a / b\": the first limiter's, "
            "then the second's; their names in the cell's tooltip)."),
         tr("Rejected by each limiter, in the run's order."),
         tr("Failed decisions of each limiter, in the run's order."),
         tr("The run's clock: virtual at a speed (results repeat exactly) or real."),
         tr("\"stopped\" when Stop ended the run before its schedule ran out (the counts cover "
            "what was sent until then).")});
    table_->setToolTip(tr("The runs since the window opened, newest first (the last %1 are "
                          "kept). Select one to save it or compare with it.")
                           .arg(kMaxRuns));
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] { updateActions(); });
    connect(table_, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { emit compareRequested(runs_.value(row).number); });
    layout->addWidget(table_, 1);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("runNote"));
    note_->setContentsMargins(4, 0, 4, 0);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_->hide();
    layout->addWidget(note_);
    setBaselineLabel(QString());
}

int RunHistory::add(const Scenario& scenario, const RunSnapshot& snapshot,
                    const QDateTime& endedAt) {
    const int selected = selectedRun();
    RunRecord record;
    record.number = nextNumber_++;
    record.endedAt = endedAt;
    record.scenario = scenario;
    record.snapshot = snapshot;
    runs_.prepend(record);
    if (runs_.size() > kMaxRuns)
        runs_.resize(kMaxRuns);
    showRuns();
    selectRun(selected > 0 && run(selected) ? selected : record.number);
    return record.number;
}

const RunRecord* RunHistory::run(int number) const {
    for (const RunRecord& r : runs_) {
        if (r.number == number)
            return &r;
    }
    return nullptr;
}

int RunHistory::selectedRun() const {
    const int row = table_->currentRow();
    return table_->selectionModel()->hasSelection() && row >= 0 && row < runs_.size()
               ? runs_[row].number
               : 0;
}

void RunHistory::selectRun(int number) {
    for (int row = 0; row < runs_.size(); ++row) {
        if (runs_[row].number == number) {
            table_->selectRow(row);
            break;
        }
    }
    updateActions();
}

void RunHistory::setBaselineLabel(const QString& label) {
    baseline_ = label;
    baselineLabel_->setText(label.isEmpty() ? tr("No baseline: select a run and Compare with")
                                            : tr("Baseline: %1").arg(label));
    showRuns();
    updateActions();
}

void RunHistory::showNote(const QString& text) {
    note_->setText(text);
    note_->setToolTip(text);
    note_->setVisible(!text.isEmpty());
}

QString RunHistory::noteText() const {
    return note_->text();
}

QString RunHistory::baselineText() const {
    return baselineLabel_->text();
}

void RunHistory::showRuns() {
    table_->setRowCount(int(runs_.size()));
    const QLocale locale;
    for (int row = 0; row < runs_.size(); ++row) {
        const RunRecord& r = runs_[row];
        const RunSnapshot& s = r.snapshot;
        // Every limiter decides every request: the run fired as many as any of them did (not
        // their sum), and each limiter's own outcomes side by side.
        qint64 fired = 0;
        QStringList accepted, rejected, errors;
        for (const LimiterSnapshot& l : s.limiters) {
            fired = std::max(fired, l.fired);
            accepted << panel::count(l.accepted);
            rejected << panel::count(l.rejected);
            errors << panel::count(l.errors);
        }
        const QString apart = QStringLiteral(" / ");
        const QString number = QStringLiteral("#%1").arg(r.number);
        const QString cells[] = {
            number == baseline_ ? tr("%1 (baseline)").arg(number) : number,
            r.endedAt.toString(QStringLiteral("HH:mm:ss")),
            s.scenarioName,
            panel::count(fired),
            accepted.join(apart),
            rejected.join(apart),
            errors.join(apart),
            clockText(s),
            s.stoppedEarly
                ? tr("stopped at %1 s").arg(locale.toString(double(s.finishedAtUs) / 1e6, 'f', 1))
                : QString(),
        };
        for (int c = 0; c <= kStopped; ++c) {
            QTableWidgetItem* item = panel::cell(table_, row, c, c >= kFired && c <= kErrors);
            panel::setText(item, cells[c]);
        }
        const QString perLimiter = perLimiterText(s);
        for (int c = kFired; c <= kErrors; ++c)
            table_->item(row, c)->setToolTip(perLimiter);
        table_->item(row, kScenario)->setToolTip(scenarioText(r.scenario));
    }
    panel::refitColumns(table_);
}

void RunHistory::updateActions() {
    const bool selected = selectedRun() > 0;
    save_->setEnabled(selected);
    compare_->setEnabled(selected);
    clear_->setEnabled(!baseline_.isEmpty());
}

int RunHistory::preferredWidth() const {
    const int rowHeader =
        table_->verticalHeader()->isHidden() ? 0 : table_->verticalHeader()->width();
    return panel::contentsWidth(table_) + rowHeader + 2 * table_->frameWidth() +
           style()->pixelMetric(QStyle::PM_ScrollBarExtent);
}

int RunHistory::rowCount() const {
    return table_->rowCount();
}

QStringList RunHistory::rowTexts(int row) const {
    return panel::rowTexts(table_, row);
}

}  // namespace ratelab
