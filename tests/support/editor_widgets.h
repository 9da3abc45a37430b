#pragma once

// Reaching the fields of an editor form as a user would (tst_limiter_editor,
// tst_limiter_list_editor, tst_traffic_editor, tst_gateway_editors). Header only: the widget
// tests link QtWidgets, the support library does not.

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QString>
#include <QTest>
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

// Edits `widget` as a user would: a line edit or a spin box typed into (Enter after a spin
// box), a choice by its data, a check box "on" (anything else: off).
inline void typeInto(QWidget* widget, const QString& value) {
    if (auto* line = qobject_cast<QLineEdit*>(widget)) {
        line->clear();
        QTest::keyClicks(line, value);
        QCOMPARE(line->text(), value);
    } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
        const int index = combo->findData(value);
        QVERIFY2(index >= 0, qPrintable(combo->objectName() + QLatin1Char('=') + value));
        combo->setCurrentIndex(index);
    } else if (auto* box = qobject_cast<QCheckBox*>(widget)) {
        box->setChecked(value == QLatin1String("on"));
    } else if (auto* spin = qobject_cast<QAbstractSpinBox*>(widget)) {
        spin->selectAll();
        QTest::keyClicks(spin, value);
        QTest::keyClick(spin, Qt::Key_Return);
    } else {
        QFAIL(qPrintable(QStringLiteral("cannot edit ") + widget->objectName()));
    }
}

// Whether the widget in the form row just above `label` is or holds `field` (an inline error
// right under its field).
inline bool isRightUnder(const QLabel* label, const QWidget* field) {
    auto* form = qobject_cast<QFormLayout*>(label->parentWidget()->layout());
    int row = -1;
    QFormLayout::ItemRole role;
    if (form)
        form->getWidgetPosition(const_cast<QLabel*>(label), &row, &role);
    if (row < 1)
        return false;
    for (const QFormLayout::ItemRole above : {QFormLayout::FieldRole, QFormLayout::SpanningRole}) {
        const QLayoutItem* item = form->itemAt(row - 1, above);
        if (item && item->widget() &&
            (item->widget() == field || item->widget()->isAncestorOf(field)))
            return true;
    }
    return false;
}

}  // namespace ratelab::test
