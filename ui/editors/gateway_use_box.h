#pragma once

#include <QJsonObject>
#include <QWidget>

#include "limiters/limiter_spec.h"
#include "style/form_error_rows.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;
QT_END_NAMESPACE

namespace ratelab {

// The limiter editor's "Gateway use" rows (a limiter's "gateway", any type): the mode
// (shared, local, or batched where the engine allows it for the type), "cache refusals" (shared
// only) and the sync interval (batched only), each enabled only when its mode uses it. Written
// as limiterSpecToJson writes it: nothing for the default (shared, no cached refusals).
class GatewayUseBox : public QWidget {
    Q_OBJECT

public:
    explicit GatewayUseBox(QWidget* parent = nullptr);

    // Offers "batched" only when the engine accepts it for `type`.
    void setType(LimiterType type);
    void writeJson(QJsonObject& json) const;
    // Shows values' "gateway" (the default when absent) without announcing an edit.
    void fill(const QJsonObject& values);
    // As LimiterPage::showProblem: the error at its field, for paths under "$.gateway".
    bool showProblem(const QString& where, const QString& message);
    void repaintProblem(const QPalette& palette);
    QFormLayout* form() const { return form_; }

signals:
    void edited();
    void committed();

private:
    GatewayMode mode() const;
    void updateEnabled();

    QFormLayout* form_ = nullptr;
    QComboBox* mode_ = nullptr;
    QCheckBox* cacheRefusals_ = nullptr;
    QSpinBox* syncMs_ = nullptr;
    FormErrorRows errors_;
};

}  // namespace ratelab
