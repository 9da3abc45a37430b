#pragma once

#include <QHash>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

#include "scenario/scenario.h"
#include "tune/listed_values.h"
#include "url/redis_url.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace ratelab {

class DistributedChoice;
class SweepChartView;
class TuneSweep;

// The window's Tune tab: one or two numeric fields of the scenario's limiters, each over a
// range, the metric to minimize or maximize and constraints ("accepted_ratio >= 0.5; ...");
// Run sweep runs every combination on the connected Redis in virtual time (SweepRunner), with
// a progress bar and Cancel, and the heatmap fills in as combinations finish. Clicking a cell
// loads that combination's limiters into the editor and runs them; Apply best loads the best
// feasible one. With Distributed chosen the sweep goes to a queue's workers (TuneSweep: the
// window works batches too) and a line under the status says which workers are connected.
class TuneView : public QWidget {
    Q_OBJECT

public:
    explicit TuneView(QWidget* parent = nullptr);
    ~TuneView() override;

    // What a sweep starts from: the editors' scenario (nullopt while a field is invalid).
    using ScenarioSource = std::function<std::optional<Scenario>()>;
    void setScenarioSource(ScenarioSource source) { source_ = std::move(source); }
    // The fields offered: the numeric fields of `scenario`'s limiters; its "sweep", when it
    // has one, fills in the fields, ranges, objective and constraints.
    void setScenario(const Scenario& scenario);
    // The connected Redis; `shared`: one other processes reach (a URL, not the window's own
    // managed server), which a distributed sweep needs.
    void setRedisUrl(const RedisUrl& url, bool shared) {
        url_ = url;
        sharedRedis_ = shared;
    }
    // The folder the scenario's relative paths point to (its file's), for a distributed sweep's
    // workers.
    void setScenarioFolder(std::function<QString()> folder) { folder_ = std::move(folder); }

    // The sweep the controls describe, checked as a scenario's "sweep" is (the fields, every
    // combination through the limiters' parsers); nullopt with the problem in *error.
    std::optional<SweepSpec> sweepSpec(const Scenario& scenario, QString* error) const;
    // Starts the sweep; false (the reason in the status line) without a Redis, a valid
    // scenario or a valid sweep.
    bool startSweep();
    void cancelSweep();
    bool running() const;
    // Loads the best feasible combination (applyBestButton); false when there is none.
    bool applyBest();
    // Another scenario was opened (a file, an example, New): a sweep's results are the old
    // scenario's, so the heatmap, its best and its status go (a sweep under way is stopped),
    // nothing of it can be applied to the new one, and the objective and constraints are the
    // defaults again (setScenario then shows the new scenario's own "sweep").
    void forgetSweep();

    // For tests and the screenshot demo.
    SweepChartView* chart() const { return chart_; }
    QComboBox* xField() const { return xField_; }
    QComboBox* yField() const { return yField_; }
    QSpinBox* xFrom() const { return xFrom_; }
    QSpinBox* xTo() const { return xTo_; }
    QSpinBox* xStep() const { return xStep_; }
    QSpinBox* yFrom() const { return yFrom_; }
    QSpinBox* yTo() const { return yTo_; }
    QSpinBox* yStep() const { return yStep_; }
    QComboBox* metricBox() const { return metric_; }
    QComboBox* direction() const { return direction_; }
    QLineEdit* constraints() const { return constraints_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* applyBestButton() const { return applyBest_; }
    QProgressBar* progressBar() const { return progress_; }
    QCheckBox* distributedCheck() const;
    QLineEdit* queueEdit() const;
    QString queueError() const;
    QString statusText() const;
    // Which workers a distributed sweep's queue has (refreshed while it runs); empty otherwise.
    QString workersText() const;

    // Modest: the tab shares the window with the timelines' tabs and must not widen it.
    QSize sizeHint() const override { return {480, 360}; }

signals:
    // A combination to load into the editors (its limiters), and whether to run it now.
    void combinationChosen(const ratelab::Scenario& scenario, bool run);
    // A sweep ended (finished, cancelled or failed); its table is chart()->table().
    void sweepFinished();

private:
    void showStatus(const QString& text);
    void poll();
    void updateEnabled();
    void fieldChanged(QComboBox* field, QSpinBox* from, QSpinBox* to, QSpinBox* step);
    void chooseCombination(int combination, bool run);
    std::unique_ptr<TuneSweep> makeSweep(const Scenario& scenario, QString* problem) const;

    ScenarioSource source_;
    std::function<QString()> folder_;
    std::optional<RedisUrl> url_;
    bool sharedRedis_ = false;
    std::unique_ptr<TuneSweep> sweep_;
    QHash<QString, ListedValues> listed_;  // the scenario's lists of values, by key
    qint64 shownDone_ = -1;  // the combinations the chart shows of the sweep under way
    QTimer* timer_ = nullptr;
    QComboBox* xField_ = nullptr;
    QComboBox* yField_ = nullptr;
    QSpinBox *xFrom_ = nullptr, *xTo_ = nullptr, *xStep_ = nullptr;
    QSpinBox *yFrom_ = nullptr, *yTo_ = nullptr, *yStep_ = nullptr;
    QComboBox* metric_ = nullptr;
    QComboBox* direction_ = nullptr;
    QLineEdit* constraints_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* applyBest_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    DistributedChoice* distributed_ = nullptr;
    QLabel* workers_ = nullptr;
    SweepChartView* chart_ = nullptr;
};

}  // namespace ratelab
