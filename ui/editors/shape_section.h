#pragma once

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QPushButton;
class QStackedWidget;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// The traffic's shape: its type and one page of fields per kind (rate for constant, poisson and
// burst; linear; sine; step stages; replay trace), and the duration.
class ShapeSection : public TrafficSection {
    Q_OBJECT

public:
    explicit ShapeSection(QWidget* parent = nullptr);

    ShapeSpec::Type currentShape() const;
    // Writes "shape" and "duration_s" into the traffic JSON.
    void writeJson(QJsonObject& traffic) const;
    void load(const TrafficSpec& traffic);
    // Shows the current shape's page.
    void updateEnabled(bool grouped);
    QWidget* fieldFor(const QString& where) const override;
    QList<QFormLayout*> forms() const override;

private:
    QWidget* addPage(QFormLayout** form);
    void buildRatePage(const QString& perSecond, const QString& seconds);
    void buildLinearPage(const QString& perSecond);
    void buildSinePage(const QString& perSecond, const QString& seconds);
    void buildStepPage();
    void buildReplayPage();
    void appendStage(const QString& rate, const QString& durationS);
    void addStage();
    void removeStage();
    void browseTrace();

    QComboBox* shape_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QList<QFormLayout*> pageForms_;
    QFormLayout* rateForm_ = nullptr;
    QLineEdit* rate_ = nullptr;
    QLineEdit* burst_ = nullptr;
    QLineEdit* every_ = nullptr;
    QLineEdit* from_ = nullptr;
    QLineEdit* to_ = nullptr;
    QLineEdit* mean_ = nullptr;
    QLineEdit* amplitude_ = nullptr;
    QLineEdit* period_ = nullptr;
    QTableWidget* stages_ = nullptr;
    QPushButton* addStage_ = nullptr;
    QPushButton* removeStage_ = nullptr;
    QLineEdit* trace_ = nullptr;
    QPushButton* browse_ = nullptr;
    QLineEdit* duration_ = nullptr;
    bool addingStage_ = false;  // a new stage is judged once, not per cell
};

}  // namespace ratelab
