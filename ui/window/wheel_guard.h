#pragma once

#include <QObject>

namespace ratelab {

// Scrolling a form with the mouse wheel scrolls the form: a combo box, spin box or slider that
// the wheel passes over inside a scroll area (the scenario editors, the Tune tab's fields)
// changes its value only once it has the keyboard focus (clicked or tabbed into), and the
// wheel no longer gives it the focus. Unfocused, its wheel events go to the scroll area.
// Installed on the application.
class WheelGuard : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace ratelab
