#include "window/explanation_dialog.h"

#include <QDialogButtonBox>
#include <QVBoxLayout>

#include "panels/explanation_view.h"

namespace ratelab {

ExplanationDialog::ExplanationDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("explanationDialog"));
    setWindowTitle(tr("Why?"));
    setModal(false);
    auto* layout = new QVBoxLayout(this);
    view_ = new ExplanationView(this);
    layout->addWidget(view_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
    layout->addWidget(buttons);
    resize(760, 640);
}

void ExplanationDialog::showExplaining(const QString& what) {
    view_->show(std::nullopt, tr("Deciding %1 again on Redis…").arg(what));
    QDialog::show();
    raise();
}

void ExplanationDialog::showExplanation(const Explanation& explanation) {
    view_->show(explanation);
    QDialog::show();
    raise();
}

void ExplanationDialog::showProblem(const QString& message) {
    view_->show(std::nullopt, tr("Could not explain it: %1").arg(message));
    QDialog::show();
}

}  // namespace ratelab
