#pragma once

#include <QJsonObject>
#include <QLatin1String>
#include <QWidget>

#include <vector>

#include "limiters/limiter_spec.h"
#include "style/form_error_rows.h"

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLineEdit;
QT_END_NAMESPACE

namespace ratelab {

class FlavorBox;

// The spec's keys, as the parser spells them.
namespace limiter_keys {
inline const QLatin1String kType("type");
inline const QLatin1String kName("name");
inline const QLatin1String kScope("scope");
inline const QLatin1String kOnError("on_error");
inline const QLatin1String kTime("time");
inline const QLatin1String kRate("rate");
inline const QLatin1String kIntervalMs("interval_ms");
inline const QLatin1String kInterval("interval");
inline const QLatin1String kUnit("unit");
inline const QLatin1String kTimezone("timezone");
inline const QLatin1String kRules("rules");
inline const QLatin1String kLimit("limit");
inline const QLatin1String kWindowMs("window_ms");
}  // namespace limiter_keys

// A number field goes into the JSON as a number when its text reads as one, else as the text
// itself, so that the parser, not the form, says what is wrong with it.
QJsonValue numberOrText(const QString& text);
// A JSON value as a field shows it (integers without a decimal point).
QString textOf(const QJsonValue& value);

// One page of the limiter editor: the fields of one limiter type in a form, each with an error
// row under it. The editor writes and fills the JSON the page stands for through it.
class LimiterPage : public QWidget {
    Q_OBJECT

public:
    explicit LimiterPage(QWidget* parent = nullptr);

    // Adds this page's fields to the spec JSON.
    virtual void writeJson(QJsonObject& json) const = 0;
    // Shows `values` (every key of every type present) without announcing an edit.
    virtual void fill(const QJsonObject& values) = 0;
    // Shows `message` at the field `where` names, if it is one of this page's, and clears the
    // page's other errors; true if this page showed it.
    virtual bool showProblem(const QString& where, const QString& message);
    // The editor's palette changed to `palette`: paints the marked field again.
    virtual void repaintProblem(const QPalette& palette);

    QFormLayout* form() const { return form_; }

signals:
    void edited();     // on every keystroke: the form is validated as typed
    void committed();  // Enter, focus-out or a choice made: the edit may apply to a run

protected:
    // A line edit rather than a spin box: bad text must stay as typed and be reported.
    QLineEdit* addLineEdit(const QString& objectName, const QString& toolTip);
    // The flavor choice in its own row, or nullptr when `flavors` is empty.
    FlavorBox* addFlavorBox(const std::vector<Flavor>& flavors);

    QFormLayout* form_ = nullptr;
    FormErrorRows errors_;
};

}  // namespace ratelab
