#pragma once

#include <QJsonObject>
#include <QVector>
#include <QWidget>

#include "limiters/limiter_spec.h"

QT_BEGIN_NAMESPACE
class QListWidget;
class QPushButton;
QT_END_NAMESPACE

namespace ratelab {

class InlineError;
class LimiterEditor;

// The scenario's limiters: a list with add (by type) and remove, and a LimiterEditor for the
// selected one. Invalid while any limiter is invalid or two share a name.
class LimiterListEditor : public QWidget {
    Q_OBJECT

public:
    explicit LimiterListEditor(QWidget* parent = nullptr);

    void setSpecs(const QVector<LimiterSpec>& specs);
    QVector<LimiterSpec> specs() const;  // the valid ones as edited (all of them when valid)
    bool isValid() const;
    QString errorText() const;  // the first problem, naming the limiter
    LimiterEditor* editor() const { return editor_; }

    // Puts `spec` back at `row` (e.g. a rename the user declined) without announcing it.
    void replaceSpec(int row, const LimiterSpec& spec);

signals:
    // A committed change (Enter, focus-out, a choice, add, remove); typing only revalidates.
    void specsChanged();
    void validityChanged(bool valid);
    // The first problem changed (as typed: "got \"a\"", then "got \"abc\""); empty when none.
    void errorChanged(const QString& error);

private:
    void add(LimiterType type);
    void removeCurrent();
    void select(int row);
    void edited(bool committed);
    void revalidate(bool announce);
    void showError();
    QString unusedName() const;

    QListWidget* list_ = nullptr;
    QPushButton* remove_ = nullptr;
    InlineError* errorLabel_ = nullptr;
    LimiterEditor* editor_ = nullptr;

    // What each limiter's form holds (formJson), valid or not: switching between limiters keeps
    // the text of an invalid one as typed.
    QVector<QJsonObject> forms_;
    QString error_;
    int errorRow_ = -1;          // the limiter error_ is about
    bool errorAtField_ = false;  // error_ is a parse error the editor shows at its field
    bool valid_ = false;
};

}  // namespace ratelab
