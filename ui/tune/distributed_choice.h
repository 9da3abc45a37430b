#pragma once

#include <QWidget>
#include <optional>

#include "distributed/queue_keys.h"

class QCheckBox;
class QLineEdit;

namespace ratelab {

class InlineError;

// The Tune tab's choice to run a sweep distributed (docs/distributed.md): the Distributed check
// box and the queue's name, checked as the command line checks --queue, its error said under
// the field as it is typed.
class DistributedChoice : public QWidget {
    Q_OBJECT

public:
    explicit DistributedChoice(QWidget* parent = nullptr);

    bool distributed() const;
    // The queue named, or nullopt with the problem (naming the field) in *error.
    std::optional<QueueKeys> queue(QString* error) const;
    QString errorText() const;  // the queue field's error as shown, empty when none

    QCheckBox* check() const { return check_; }
    QLineEdit* queueEdit() const { return queue_; }

private:
    void showError();

    QCheckBox* check_ = nullptr;
    QLineEdit* queue_ = nullptr;
    InlineError* error_ = nullptr;
};

}  // namespace ratelab
