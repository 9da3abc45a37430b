// ui/style: the error colour reads on light, dark and grey palettes; the inline error label and
// the editors' marked fields take the new error colour when the palette changes; series pens.

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QtTest>

#include "editors/limiter_editor.h"
#include "editors/traffic_editor.h"
#include "style/inline_error.h"
#include "style/palette_colors.h"
#include "style/series_style.h"

using ratelab::InlineError;
using ratelab::LimiterEditor;
using ratelab::TrafficEditor;
namespace style = ratelab::style;

namespace {

QPalette paletteWith(const QColor& window, const QColor& base, const QColor& text) {
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::WindowText, text);
    return palette;
}

QPalette light() {
    return paletteWith(QColor(0xf0, 0xf0, 0xf0), Qt::white, Qt::black);
}

QPalette dark() {
    return paletteWith(QColor(0x20, 0x20, 0x24), QColor(0x18, 0x18, 0x1c),
                       QColor(0xe0, 0xe0, 0xe0));
}

}  // namespace

class TestStyle : public QObject {
    Q_OBJECT

private slots:
    void errorColorReads_data();
    void errorColorReads();
    void inlineErrorFollowsPalette_data();
    void inlineErrorFollowsPalette();
    void markedFieldFollowsPalette();
    void trafficEditorRecolours();
    void limiterEditorRecolours();
    void seriesColours();
};

void TestStyle::errorColorReads_data() {
    QTest::addColumn<QPalette>("palette");
    QTest::addColumn<bool>("lighterThanText");
    QTest::newRow("light") << light() << false;
    QTest::newRow("dark") << dark() << true;
    QTest::newRow("grey base") << paletteWith(QColor(0x90, 0x90, 0x90), QColor(0x90, 0x90, 0x90),
                                              Qt::black)
                               << false;
    QTest::newRow("dark grey base")
        << paletteWith(QColor(0x50, 0x50, 0x50), QColor(0x60, 0x60, 0x60), Qt::white) << true;
}

void TestStyle::errorColorReads() {
    QFETCH(QPalette, palette);
    QFETCH(bool, lighterThanText);
    const QColor red = style::errorColor(palette);
    const QColor base = palette.color(QPalette::Base);
    QVERIFY2(style::contrastRatio(red, base) >= style::kMinContrast,
             qPrintable(QStringLiteral("%1 on %2: %3")
                            .arg(red.name(), base.name())
                            .arg(style::contrastRatio(red, base))));
    QVERIFY(red.red() > red.green() && red.red() > red.blue());  // still a red
    QCOMPARE(red.lightness() > base.lightness(), lighterThanText);
}

void TestStyle::inlineErrorFollowsPalette_data() {
    QTest::addColumn<bool>("onParent");  // the palette set on the parent, or on the label
    QTest::newRow("parent") << true;
    QTest::newRow("label") << false;
}

void TestStyle::inlineErrorFollowsPalette() {
    QFETCH(bool, onParent);
    QWidget parent;
    parent.setPalette(light());
    auto* error = new InlineError(&parent);
    error->showMessage(QStringLiteral("$.rate: must be a number"));
    QVERIFY(!error->isHidden());
    const QColor before = error->color();
    QCOMPARE(before, style::errorColor(light()));

    (onParent ? static_cast<QWidget*>(&parent) : error)->setPalette(dark());
    const QColor after = error->color();
    QVERIFY(after != before);
    QCOMPARE(after, style::errorColor(dark()));
    QCOMPARE(error->palette().color(QPalette::Base), dark().color(QPalette::Base));

    (onParent ? static_cast<QWidget*>(&parent) : error)->setPalette(light());
    QCOMPARE(error->color(), before);

    error->showMessage(QString());
    QVERIFY(error->isHidden());
}

void TestStyle::markedFieldFollowsPalette() {
    QWidget parent;
    parent.setPalette(light());
    auto* field = new QLineEdit(&parent);
    const QColor plain = field->palette().color(QPalette::Text);
    InlineError::markInvalid(field, true);
    QVERIFY(field->property("invalid").toBool());
    QCOMPARE(field->palette().color(QPalette::Text), style::errorColor(light()));
    parent.setPalette(dark());
    InlineError::markInvalid(field, true);  // what the editors do on a palette change
    QCOMPARE(field->palette().color(QPalette::Text), style::errorColor(dark()));
    InlineError::markInvalid(field, false);
    QVERIFY(!field->property("invalid").toBool());
    QCOMPARE(field->palette().color(QPalette::Text), dark().color(QPalette::Text));
    QVERIFY(plain != dark().color(QPalette::Text));
}

void TestStyle::trafficEditorRecolours() {
    TrafficEditor editor;
    editor.setPalette(light());
    auto* rate = editor.findChild<QLineEdit*>(QStringLiteral("rate"));
    QVERIFY(rate);
    rate->setText(QStringLiteral("abc"));
    QVERIFY(!editor.isValid());
    auto* label = editor.findChild<QLabel*>(QStringLiteral("error"));
    QVERIFY(label && !label->isHidden());
    const QColor before = label->palette().color(QPalette::WindowText);
    QCOMPARE(before, style::errorColor(light()));
    QCOMPARE(rate->palette().color(QPalette::Text), before);

    editor.setPalette(dark());
    const QColor after = label->palette().color(QPalette::WindowText);
    QVERIFY(after != before);
    QCOMPARE(after, style::errorColor(dark()));
    QCOMPARE(rate->palette().color(QPalette::Text), after);
}

void TestStyle::limiterEditorRecolours() {
    LimiterEditor editor;
    editor.setPalette(light());
    auto* rate = editor.findChild<QLineEdit*>(QStringLiteral("rate"));
    QVERIFY(rate);
    rate->setText(QStringLiteral("-1"));
    QVERIFY(!editor.isValid());
    auto* label = editor.findChild<QLabel*>(QStringLiteral("error"));
    QVERIFY(label);
    const QColor before = label->palette().color(QPalette::WindowText);
    QCOMPARE(before, style::errorColor(light()));
    QCOMPARE(rate->palette().color(QPalette::Text), before);

    editor.setPalette(dark());
    const QColor after = label->palette().color(QPalette::WindowText);
    QVERIFY(after != before);
    QCOMPARE(after, style::errorColor(dark()));
    QCOMPARE(rate->palette().color(QPalette::Text), after);
}

void TestStyle::seriesColours() {
    const style::SeriesColors lightColors = style::seriesColors(false);
    const style::SeriesColors darkColors = style::seriesColors(true);
    // Accepted and rejected keep their colours on both; the lines lighten on dark.
    QCOMPARE(lightColors.accepted, darkColors.accepted);
    QCOMPARE(lightColors.rejected, darkColors.rejected);
    QVERIFY(darkColors.limit.lightness() > lightColors.limit.lightness());
    QVERIFY(darkColors.errors.lightness() > lightColors.errors.lightness());
    QVERIFY(style::isDark(dark()));
    QVERIFY(!style::isDark(light()));
    const QPen pen = style::seriesPen(lightColors.limit, 1.5, Qt::DashLine);
    QCOMPARE(pen.color(), lightColors.limit);
    QCOMPARE(pen.widthF(), 1.5);
    QCOMPARE(pen.style(), Qt::DashLine);
    QCOMPARE(pen.capStyle(), Qt::FlatCap);
}

QTEST_MAIN(TestStyle)
#include "tst_style.moc"
