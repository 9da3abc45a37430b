#pragma once

#include "algorithms/limiter_page.h"

QT_BEGIN_NAMESPACE
class QPushButton;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// The sliding window's rules: a table of (limit, window_ms) with add and remove. An error about
// one rule also tints and frames its cell (or its row's cells, when the whole rule is named).
class SlidingWindowPage : public LimiterPage {
    Q_OBJECT

public:
    explicit SlidingWindowPage(QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;
    bool showProblem(const QString& where, const QString& message) override;
    void repaintProblem(const QPalette& palette) override;

private:
    void appendRule(const QString& limit, const QString& windowMs);
    void addRule();
    void removeRules();
    void tint(int row, int column, const QPalette& palette);

    QTableWidget* rules_ = nullptr;
    QPushButton* removeRule_ = nullptr;
    int tintRow_ = -1;  // the cell the error is about (column -1: the whole rule)
    int tintColumn_ = -1;
};

}  // namespace ratelab
