#pragma once

#include <QJsonObject>

#include "algorithms/limiter_page.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QPushButton;
QT_END_NAMESPACE

namespace ratelab {

class ScriptReferenceBox;
class TemplateLines;

// A script limiter's fields (docs/scenarios.md, "Script limiters"): the Lua (a .lua file, typed
// or chosen, or its source inline), the key and argument templates one per line, the reply
// mapping, the reference (a built-in type and its fields), what the timeline reads of its state,
// the reset patterns and whose clock it runs on. Every field goes into the spec as typed, so the
// parser names what is wrong; an error inside a list or the reference is shown at that field
// with the line or the reference's own field it is about.
class ScriptPage : public LimiterPage {
    Q_OBJECT

public:
    explicit ScriptPage(QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;
    bool showProblem(const QString& where, const QString& message) override;

private:
    QComboBox* addChoice(const QString& objectName, const QString& toolTip,
                         const QList<QPair<QString, QString>>& items);
    void addSourceRows();
    void addReplyRows();
    void addStateRows();
    bool inline_() const;
    void showSource();
    void showState();
    void chooseFile();

    QComboBox* from_ = nullptr;
    QLineEdit* file_ = nullptr;
    QPushButton* choose_ = nullptr;
    QWidget* fileRow_ = nullptr;
    TemplateLines* source_ = nullptr;  // the inline Lua (its text, not its lines)
    TemplateLines* keys_ = nullptr;
    TemplateLines* args_ = nullptr;
    QComboBox* allowed_ = nullptr;
    QLineEdit* index_ = nullptr;
    QLineEdit* retry_ = nullptr;
    QLineEdit* remaining_ = nullptr;
    ScriptReferenceBox* reference_ = nullptr;
    QComboBox* stateRead_ = nullptr;
    QLineEdit* stateKey_ = nullptr;
    QLineEdit* stateWindow_ = nullptr;
    QLineEdit* stateField_ = nullptr;
    TemplateLines* reset_ = nullptr;
    QComboBox* clock_ = nullptr;
};

}  // namespace ratelab
