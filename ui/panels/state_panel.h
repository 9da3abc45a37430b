#pragma once

#include <QWidget>

#include "limiters/limiter_state.h"

QT_BEGIN_NAMESPACE
class QTreeWidget;
QT_END_NAMESPACE

namespace ratelab {

// The Redis keys of each limiter, live: a tree with one top item per limiter (its key count)
// and a row per key: name, type, TTL, size, and the value (strings), fields (hashes) or newest
// members with scores (zsets) as children. Updating keeps expansion and scroll position.
class StatePanel : public QWidget {
    Q_OBJECT

public:
    explicit StatePanel(QWidget* parent = nullptr);
    void setLimiterNames(const QStringList& names);
    void updateState(int index, const LimiterState& state);
    void showError(int index, const QString& message);  // e.g. Redis unreachable
    // For tests: the rows of limiter `index` as "key|type|ttl|size".
    QStringList rows(int index) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    QTreeWidget* tree_ = nullptr;
};

}  // namespace ratelab
