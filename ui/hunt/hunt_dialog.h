#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <optional>

#include "live/hunt_service.h"
#include "scenario/scenario.h"
#include "url/redis_url.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace ratelab {

class InlineError;

// Run → Hunt a limiter…: `ratelab hunt` in the window. The limiter (one of the scenario's), the
// reference `agree` compares it with (a built-in spec without name and scope, as JSON; a
// flavored limiter's exact form to start with), the properties, the seed and how many traces;
// Start and Cancel, the progress, the answer as the command line prints it, and Open
// counterexample, which asks the window to open regression.json as its scenario to Step
// through. The hunt runs on HuntService's thread; bad input is an inline error, never a hunt.
class HuntDialog : public QDialog {
    Q_OBJECT

public:
    explicit HuntDialog(QWidget* parent = nullptr);

    // Shows the dialog for the limiters of `scenario` (nullopt: the editors hold an invalid
    // field) on the window's Redis `url` (nullopt: not connected).
    void showFor(const std::optional<Scenario>& scenario, const std::optional<RedisUrl>& url);
    // Where each hunt's folder goes (default: the user's data folder, "hunts").
    void setOutputRoot(const QString& dir) { outputRoot_ = dir; }

    // What it shows, for tests.
    QComboBox* limiterBox() const { return limiter_; }
    QPlainTextEdit* referenceEdit() const { return reference_; }
    QCheckBox* propertyBox(HuntProperty property) const;
    QSpinBox* seedBox() const { return seed_; }
    QSpinBox* tracesBox() const { return traces_; }
    QPushButton* startButton() const { return start_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* openButton() const { return open_; }
    QString errorText() const;
    QString progressText() const;
    QString resultText() const;
    QString regressionPath() const { return regressionPath_; }
    HuntService* service() const { return service_; }

public slots:
    void startHunt();
    void cancelHunt();

signals:
    // Open counterexample: the window opens this scenario (regression.json).
    void openScenarioRequested(const QString& path);

private:
    void limiterChosen();
    void showProgress();
    void finished(const HuntOutcome& outcome);
    void setRunning(bool running);

    std::optional<Scenario> scenario_;
    std::optional<RedisUrl> url_;
    QString outputRoot_;
    QString regressionPath_;
    HuntService* service_;
    QTimer* progressTimer_;
    QElapsedTimer elapsed_;
    QComboBox* limiter_;
    QPlainTextEdit* reference_;
    QCheckBox* agree_;
    QCheckBox* retry_;
    QCheckBox* remaining_;
    QSpinBox* seed_;
    QSpinBox* traces_;
    InlineError* error_;
    QLabel* progress_;
    QPlainTextEdit* result_;
    QPushButton* start_;
    QPushButton* cancel_;
    QPushButton* open_;
};

}  // namespace ratelab
