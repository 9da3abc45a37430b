#pragma once

#include <QDialog>

#include "explain/explanation.h"

namespace ratelab {

class ExplanationView;

// "Why?": the explanation of a request clicked on a timeline, beside the window (not modal,
// one at a time: a new click replaces what it shows).
class ExplanationDialog : public QDialog {
    Q_OBJECT

public:
    explicit ExplanationDialog(QWidget* parent = nullptr);

    void showExplaining(const QString& what);  // while Redis decides again
    void showExplanation(const Explanation& explanation);
    void showProblem(const QString& message);
    ExplanationView* view() const { return view_; }

private:
    ExplanationView* view_ = nullptr;
};

}  // namespace ratelab
