#include "window/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QScrollBar>
#include <QWheelEvent>

namespace ratelab {
namespace {

// A combo box, a spin box or a slider (not a scroll bar): what the wheel changes the value of.
bool isValueWidget(const QObject* o) {
    return qobject_cast<const QComboBox*>(o) || qobject_cast<const QAbstractSpinBox*>(o) ||
           (qobject_cast<const QAbstractSlider*>(o) && !qobject_cast<const QScrollBar*>(o));
}

// A value the wheel would change: a combo box or a spin box (or one inside them, as the spin
// box's line edit), in the same window (a combo box's open list is a window of its own).
QWidget* valueWidgetOf(QObject* object) {
    for (QObject* o = object; o != nullptr && o->isWidgetType(); o = o->parent()) {
        if (isValueWidget(o))
            return static_cast<QWidget*>(o);
        if (static_cast<QWidget*>(o)->isWindow())
            return nullptr;
    }
    return nullptr;
}

// The scroll area around `widget` the wheel should move: the nearest one with room to scroll
// (a table that fits its rows passes the wheel to the form around it), else the nearest one;
// null when there is none.
QAbstractScrollArea* scrollAreaAround(const QWidget* widget) {
    QAbstractScrollArea* nearest = nullptr;
    for (QWidget* w = widget->parentWidget(); w != nullptr; w = w->parentWidget()) {
        auto* area = qobject_cast<QAbstractScrollArea*>(w);
        if (area == nullptr)
            continue;
        const QScrollBar* bar = area->verticalScrollBar();
        if (bar->maximum() > bar->minimum())
            return area;
        if (nearest == nullptr)
            nearest = area;
    }
    return nearest;
}

}  // namespace

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    // A combo box takes the focus from the wheel itself (Qt::WheelFocus) before any filter
    // sees the wheel: only a click or the tab key give it now.
    if (event->type() == QEvent::Polish && isValueWidget(watched)) {
        auto* widget = static_cast<QWidget*>(watched);
        if (widget->focusPolicy() == Qt::WheelFocus)
            widget->setFocusPolicy(Qt::StrongFocus);
    }
    if (event->type() != QEvent::Wheel)
        return QObject::eventFilter(watched, event);
    QWidget* value = valueWidgetOf(watched);
    QAbstractScrollArea* area = value != nullptr ? scrollAreaAround(value) : nullptr;
    if (area == nullptr || value->hasFocus())
        return QObject::eventFilter(watched, event);
    // The same event to the scroll area around it, which scrolls.
    auto* wheel = static_cast<QWheelEvent*>(event);
    QWidget* viewport = area->viewport();
    QWheelEvent forwarded(viewport->mapFromGlobal(wheel->globalPosition()), wheel->globalPosition(),
                          wheel->pixelDelta(), wheel->angleDelta(), wheel->buttons(),
                          wheel->modifiers(), wheel->phase(), wheel->inverted(), wheel->source());
    QCoreApplication::sendEvent(viewport, &forwarded);
    return true;
}

}  // namespace ratelab
