#pragma once

// Reaching the fields of an editor form as a user would (tst_limiter_editor,
// tst_limiter_list_editor). Header only: the widget tests link QtWidgets, the support library
// does not.

#include <QComboBox>
#include <QCoreApplication>
#include <QString>
#include <QWidget>

namespace ratelab::test {

// The visible one when several have the name (pages of different types may share field names).
template <typename T>
T* child(const QWidget& parent, const QString& name) {
    for (T* widget : parent.findChildren<T*>(name)) {
        if (widget->isVisible()) {
            return widget;
        }
    }
    T* found = parent.findChild<T*>(name);
    if (!found) {
        qWarning("no %s named %s", T::staticMetaObject.className(), qPrintable(name));
    }
    return found;
}

// Lets queued layout requests run, so that geometry and visibility are current.
inline void settle() {
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::processEvents();
    }
}

inline void selectType(QWidget& editor, const QString& type) {
    auto* combo = child<QComboBox>(editor, QStringLiteral("type"));
    combo->setCurrentIndex(combo->findData(type));
}

}  // namespace ratelab::test
