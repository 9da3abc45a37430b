#pragma once

#include <QJsonObject>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QPlainTextEdit;
QT_END_NAMESPACE

namespace ratelab {

// A script limiter's "reference": none, or a built-in type chosen from the list and its fields
// as JSON ({"rules": [{"limit": 10, "window_ms": 1000}]}; choosing a type fills in its
// defaults). Text that is not a JSON object goes into the spec as it is, so that the parser
// refuses it; parseProblem() then says where the JSON broke.
class ScriptReferenceBox : public QWidget {
    Q_OBJECT

public:
    explicit ScriptReferenceBox(QWidget* parent = nullptr);

    // "reference" into the spec JSON (nothing for none).
    void writeJson(QJsonObject& json) const;
    // Shows `reference` (undefined: none) without announcing an edit.
    void fill(const QJsonValue& reference);
    // "not a JSON object: unterminated object at line 1, column 14", or empty when the fields
    // read as an object.
    QString parseProblem() const;

    QComboBox* type() const { return type_; }
    QPlainTextEdit* fields() const { return fields_; }

signals:
    void edited();
    void committed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void typeChosen();

    QComboBox* type_ = nullptr;
    QPlainTextEdit* fields_ = nullptr;
};

}  // namespace ratelab
