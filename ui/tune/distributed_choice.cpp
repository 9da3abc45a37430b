#include "tune/distributed_choice.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "input_error.h"
#include "style/inline_error.h"

namespace ratelab {

DistributedChoice::DistributedChoice(QWidget* parent)
    : QWidget(parent),
      check_(new QCheckBox(tr("&Distributed over workers on queue"), this)),
      queue_(new QLineEdit(QueueKeys::kDefaultName, this)),
      error_(new InlineError(this)) {
    check_->setObjectName(QStringLiteral("distributed"));
    check_->setToolTip(
        tr("Publish the sweep's batches to a queue that `ratelab worker` processes work (on the "
           "Redis this window is connected to), work batches here too, and merge the results"));
    queue_->setObjectName(QStringLiteral("queue"));
    queue_->setAccessibleName(tr("Queue"));
    queue_->setMaxLength(QueueKeys::kMaxNameLength * 2);  // longer is said, not cut
    queue_->setEnabled(false);
    error_->setObjectName(QStringLiteral("queueError"));
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(check_);
    row->addWidget(queue_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(error_);
    connect(check_, &QCheckBox::toggled, this, [this](bool on) {
        queue_->setEnabled(on);
        showError();
    });
    connect(queue_, &QLineEdit::textChanged, this, &DistributedChoice::showError);
    showError();
}

bool DistributedChoice::distributed() const {
    return check_->isChecked();
}

std::optional<QueueKeys> DistributedChoice::queue(QString* error) const {
    try {
        return QueueKeys(queue_->text(), tr("Queue"));
    } catch (const InputError& e) {
        *error = e.message();  // "Queue: ..."
        return std::nullopt;
    }
}

void DistributedChoice::showError() {
    QString problem;
    if (distributed()) {
        queue(&problem);
    }
    InlineError::markInvalid(queue_, !problem.isEmpty());
    error_->showMessage(problem);
}

QString DistributedChoice::errorText() const {
    return error_->text();
}

}  // namespace ratelab
