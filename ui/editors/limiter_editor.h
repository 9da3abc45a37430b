#pragma once

#include <QJsonObject>
#include <QVector>
#include <QWidget>
#include <optional>

#include "limiters/limiter_spec.h"
#include "style/form_error_rows.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QFormLayout;
class QLineEdit;
class QStackedWidget;
QT_END_NAMESPACE

namespace ratelab {

class AlgorithmView;
class GatewayUseBox;
class InlineError;
class LimiterPage;

// Form for one limiter of any type: the common fields (type, name, scope, on_error, time, rate),
// one page per type and the gateway use (GatewayUseBox). Every edit is validated at once by the
// same parser the command line uses (parseLimiterSpec on the JSON the form stands for); the error
// is shown inline next to the offending field, named by its JSON path.
class LimiterEditor : public QWidget {
    Q_OBJECT

public:
    explicit LimiterEditor(QWidget* parent = nullptr);

    void setSpec(const LimiterSpec& spec);
    std::optional<LimiterSpec> spec() const;  // nullopt while invalid
    bool isValid() const;
    QString errorText() const;  // "$.rate: must be ..." or empty

    // The JSON the form stands for, bad text and all.
    QJsonObject formJson() const;
    // Shows `json` (the format formJson writes) without announcing an edit; fields the JSON
    // lacks get the defaults of their type, so switching type later starts from sensible values.
    void setFormJson(const QJsonObject& json);

signals:
    void specChanged();    // after every edit (keystroke): validity as typed
    void specCommitted();  // the form changed and the user committed it (Enter, focus-out, choice)
    void validityChanged(bool valid);

protected:
    void changeEvent(QEvent* event) override;

private:
    QLineEdit* addLineEdit(const QString& objectName, const QString& toolTip);
    void addOnError();
    void addTimeSource();
    LimiterType currentType() const;
    const AlgorithmView& currentView() const;
    void showType();
    void edited();
    void commit();
    void validate(bool announce);
    void showProblem(const QString& where, const QString& message);

    QFormLayout* common_ = nullptr;
    QComboBox* type_ = nullptr;
    QLineEdit* name_ = nullptr;
    QComboBox* scope_ = nullptr;
    QComboBox* onError_ = nullptr;
    QComboBox* time_ = nullptr;  // "time": whose clock decides
    QLineEdit* rate_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QVector<LimiterPage*> typePages_;      // in the order of algorithmViews()
    GatewayUseBox* gatewayUse_ = nullptr;  // "gateway", every type
    FormErrorRows commonErrors_;
    InlineError* formError_ = nullptr;  // anything no field shows (the type, the object)

    std::optional<LimiterSpec> spec_;
    QJsonObject committed_;  // the form as last committed (or filled)
    QString error_;
    bool filling_ = true;  // while building or filling: edits are not validated one by one
};

}  // namespace ratelab
