// The mouse wheel over a form scrolls the form: a combo box or spin box it passes over inside a
// scroll area keeps its value unless it has the focus (which the wheel no longer gives it);
// outside a scroll area, or focused, the wheel changes it as usual.
#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtTest>

#include "window/wheel_guard.h"

using namespace ratelab;

namespace {

// One notch of the wheel down over the middle of `widget`, as the window system sends it.
void wheelDown(QWidget* widget) {
    const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

}  // namespace

class TestWheelGuard : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qApp->installEventFilter(new WheelGuard(this)); }

    void wheelScrollsTheForm_data() {
        QTest::addColumn<bool>("spinBox");
        QTest::addColumn<bool>("focused");
        QTest::addColumn<bool>("valueChanges");
        QTest::newRow("combo box") << false << false << false;
        QTest::newRow("spin box") << true << false << false;
        QTest::newRow("focused combo box") << false << true << true;
        QTest::newRow("focused spin box") << true << true << true;
    }
    void wheelScrollsTheForm() {
        QFETCH(bool, spinBox);
        QFETCH(bool, focused);
        QFETCH(bool, valueChanges);
        QScrollArea area;
        auto* form = new QWidget;
        auto* layout = new QVBoxLayout(form);
        layout->addSpacing(400);
        auto* combo = new QComboBox;
        combo->addItems({QStringLiteral("try"), QStringLiteral("wait")});
        auto* spin = new QSpinBox;
        spin->setValue(5);
        layout->addWidget(combo);
        layout->addWidget(spin);
        layout->addSpacing(800);
        area.setWidget(form);
        area.resize(300, 400);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QWidget* target = spinBox ? static_cast<QWidget*>(spin) : combo;
        area.ensureWidgetVisible(target);
        QWidget* other = spinBox ? static_cast<QWidget*>(combo) : spin;
        other->setFocus();
        if (focused) {
            target->setFocus();
            QTRY_VERIFY(target->hasFocus());
        } else {
            QTRY_VERIFY(other->hasFocus());  // the window settled its focus elsewhere
        }
        QTRY_VERIFY(area.verticalScrollBar()->value() > 0);  // scrolled to the target
        QCOMPARE(target->focusPolicy(), Qt::StrongFocus);    // never Qt::WheelFocus
        const int scrolled = area.verticalScrollBar()->value();
        wheelDown(target);
        const bool changed = spinBox ? spin->value() != 5 : combo->currentIndex() != 0;
        QCOMPARE(changed, valueChanges);
        // Unfocused, the wheel went to the form around it.
        QCOMPARE(area.verticalScrollBar()->value() > scrolled, !valueChanges);
    }

    // A combo box in a table that fits its rows (the groups' shapes): the form around the
    // table scrolls.
    void tableThatFitsPassesTheWheelOn() {
        QScrollArea area;
        auto* form = new QWidget;
        auto* layout = new QVBoxLayout(form);
        auto* table = new QTableWidget(1, 1);
        auto* combo = new QComboBox;
        combo->addItems({QStringLiteral("poisson"), QStringLiteral("constant")});
        table->setCellWidget(0, 0, combo);
        table->setFixedHeight(120);
        layout->addWidget(table);
        layout->addSpacing(1200);
        area.setWidget(form);
        area.resize(300, 400);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        wheelDown(combo);
        QCOMPARE(combo->currentIndex(), 0);
        QVERIFY(area.verticalScrollBar()->value() > 0);
    }

    // Outside a scroll area nothing else would scroll: the wheel changes the value.
    void outsideAScrollArea() {
        QComboBox combo;
        combo.addItems({QStringLiteral("try"), QStringLiteral("wait")});
        combo.show();
        QVERIFY(QTest::qWaitForWindowExposed(&combo));
        wheelDown(&combo);
        QCOMPARE(combo.currentIndex(), 1);
    }
};

QTEST_MAIN(TestWheelGuard)
#include "tst_wheel_guard.moc"
