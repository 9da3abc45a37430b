#pragma once

#include <QDialog>
#include <QJsonObject>

QT_BEGIN_NAMESPACE
class QPlainTextEdit;
QT_END_NAMESPACE

namespace ratelab {

class InlineError;

// A group's shape as the scenario file's JSON object, to edit the fields the group table has no
// column for (a step's stages, a replay's trace, a ramp's ends ...). OK takes only a JSON object
// and otherwise says why under the text; what the object's fields mean the scenario parser
// judges once it is back in the table.
class ShapeJsonDialog : public QDialog {
    Q_OBJECT

public:
    ShapeJsonDialog(const QString& group, const QJsonObject& shape, QWidget* parent);

    QJsonObject shape() const;  // the accepted object
    void accept() override;

private:
    QPlainTextEdit* text_ = nullptr;
    InlineError* error_ = nullptr;
    QJsonObject shape_;
};

}  // namespace ratelab
