#pragma once

#include <QJsonObject>

#include "algorithms/limiter_page.h"

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace ratelab {

// A script limiter's fields (the user's Lua, its templates, reply mapping, reference, state,
// reset, clock), kept as the scenario gives them and written back unchanged: the page says what
// the limiter runs; the fields are edited in the scenario file.
class ScriptPage : public LimiterPage {
    Q_OBJECT

public:
    explicit ScriptPage(QWidget* parent = nullptr);
    void writeJson(QJsonObject& json) const override;
    void fill(const QJsonObject& values) override;

private:
    QJsonObject fields_;  // the script type's own fields, as filled
    QLabel* summary_ = nullptr;
};

}  // namespace ratelab
