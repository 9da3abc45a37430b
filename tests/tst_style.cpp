// ui/style: the error colour reads on light, dark and grey palettes; the inline error label and
// the editors' marked fields take the new error colour when the palette changes; series pens.

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QVector3D>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "editors/limiter_editor.h"
#include "editors/traffic_editor.h"
#include "style/inline_error.h"
#include "style/palette_colors.h"
#include "style/series_style.h"
#include "window/connection_bar.h"

using ratelab::ConnectionBar;
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
    void connectionErrorsFollowPalette();
    void trafficEditorRecolours();
    void limiterEditorRecolours();
    void seriesColours();
    void decisionColoursApartInGrayscale_data();
    void decisionColoursApartInGrayscale();
    void decisionColoursSurviveColourBlindness_data();
    void decisionColoursSurviveColourBlindness();
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

// The connection bar's URL error and error status were drawn in one fixed red (a style sheet),
// whatever the palette; they now take the palette's error colour and follow a theme change.
void TestStyle::connectionErrorsFollowPalette() {
    QWidget parent;
    parent.setPalette(light());
    auto* bar = new ConnectionBar(&parent);
    bar->setUseManagedServer(false);
    bar->setUrlText(QStringLiteral("redis://127.0.0.1:notaport"));
    bar->connectToRedis();
    QVERIFY(!bar->urlError().isEmpty());
    auto* error = bar->findChild<QLabel*>(QStringLiteral("redisUrlError"));
    QVERIFY(error != nullptr);
    QCOMPARE(error->palette().color(QPalette::WindowText), style::errorColor(light()));
    parent.setPalette(dark());
    QCOMPARE(error->palette().color(QPalette::WindowText), style::errorColor(dark()));

    bar->setUrlText(QStringLiteral("redis://127.0.0.1:1"));  // refused
    bar->connectToRedis();
    auto* status = bar->findChild<QLabel*>(QStringLiteral("redisStatus"));
    QVERIFY(status != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(status->property("invalid").toBool(), 10000);
    QCOMPARE(status->palette().color(QPalette::WindowText), style::errorColor(dark()));
    parent.setPalette(light());
    QCOMPARE(status->palette().color(QPalette::WindowText), style::errorColor(light()));
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
    // Accepted lightens on dark and rejected darkens (accepted stands out most on either),
    // both keep their hue family (blue, orange).
    QVERIFY(darkColors.accepted.lightness() > lightColors.accepted.lightness());
    QVERIFY(darkColors.rejected.lightness() < lightColors.rejected.lightness());
    QVERIFY(std::abs(darkColors.accepted.hue() - lightColors.accepted.hue()) < 20);
    QVERIFY(std::abs(darkColors.rejected.hue() - lightColors.rejected.hue()) < 20);
    QVERIFY(darkColors.limit.lightness() > lightColors.limit.lightness());
    QVERIFY(darkColors.errors.lightness() > lightColors.errors.lightness());
    QVERIFY(style::isDark(dark()));
    QVERIFY(!style::isDark(light()));
    const QPen pen = style::seriesPen(lightColors.limit, 1.5, Qt::DashLine);
    QCOMPARE(pen.color(), lightColors.limit);
    QCOMPARE(pen.widthF(), 1.5);
    QCOMPARE(pen.dashPattern(), style::kDashes);
    QCOMPARE(pen.capStyle(), Qt::FlatCap);
}

void TestStyle::decisionColoursApartInGrayscale_data() {
    QTest::addColumn<bool>("dark");
    QTest::addColumn<QColor>("base");
    QTest::newRow("light, white") << false << QColor(Qt::white);
    QTest::newRow("dark, #1e1e1e") << true << QColor(0x1e, 0x1e, 0x1e);
    QTest::newRow("dark, #18181c") << true << QColor(0x18, 0x18, 0x1c);
    QTest::newRow("dark, #353535") << true << QColor(0x35, 0x35, 0x35);
}

// Printed in grayscale, accepted and rejected stay apart: their fills (opaque) differ in
// luminance by at least 3:1; accepted, the main message, stands out most from the background,
// rejected still reads on it; the errors' fill is hatched.
void TestStyle::decisionColoursApartInGrayscale() {
    QFETCH(bool, dark);
    QFETCH(QColor, base);
    const style::SeriesColors colors = style::seriesColors(dark);
    const double apart = style::contrastRatio(colors.accepted, colors.rejected);
    QVERIFY2(apart >= style::kDecisionContrast, qPrintable(QString::number(apart)));
    QVERIFY(style::contrastRatio(colors.accepted, base) >
            style::contrastRatio(colors.rejected, base));
    QVERIFY2(style::contrastRatio(colors.rejected, base) >= 2.0,
             qPrintable(QString::number(style::contrastRatio(colors.rejected, base))));
    QCOMPARE(style::areaBrush(colors.accepted).style(), Qt::SolidPattern);
    QCOMPARE(style::areaBrush(colors.errors, true).style(), Qt::BDiagPattern);
    QCOMPARE(style::areaBrush(colors.errors, true).color(), colors.errors);
}

namespace {

// A colour as seen with a dichromacy, by the Viénot, Brettel and Mollon (1999) projection in
// linear RGB; returned in sRGB 0-1.
QVector3D simulate(const QColor& color, const double m[3][3]) {
    const auto lin = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const auto gamma = [](double c) {
        c = std::clamp(c, 0.0, 1.0);
        return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
    };
    const double rgb[3] = {lin(color.redF()), lin(color.greenF()), lin(color.blueF())};
    double out[3];
    for (int i = 0; i < 3; ++i)
        out[i] = gamma(m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2]);
    return QVector3D(float(out[0]), float(out[1]), float(out[2]));
}

constexpr double kProtanopia[3][3] = {
    {0.11238, 0.88762, 0}, {0.11238, 0.88762, 0}, {0.00401, -0.00401, 1}};
constexpr double kDeuteranopia[3][3] = {
    {0.29275, 0.70725, 0}, {0.29275, 0.70725, 0}, {-0.02234, 0.02234, 1}};
constexpr double kTypical[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

}  // namespace

void TestStyle::decisionColoursSurviveColourBlindness_data() {
    QTest::addColumn<bool>("dark");
    QTest::addColumn<int>("vision");  // 0 typical, 1 protanopia, 2 deuteranopia
    for (bool dark : {false, true}) {
        const char* theme = dark ? "dark" : "light";
        QTest::addRow("%s, typical", theme) << dark << 0;
        QTest::addRow("%s, protanopia", theme) << dark << 1;
        QTest::addRow("%s, deuteranopia", theme) << dark << 2;
    }
}

// Accepted, rejected and errors stay clearly apart for colour-blind viewers (red
// accepted-or-rejected on green would fail them): an sRGB distance of at least 0.3, of 1.73 at
// most, for the two common red-green dichromacies.
void TestStyle::decisionColoursSurviveColourBlindness() {
    QFETCH(bool, dark);
    QFETCH(int, vision);
    const double(*m)[3] = vision == 1 ? kProtanopia : vision == 2 ? kDeuteranopia : kTypical;
    const style::SeriesColors colors = style::seriesColors(dark);
    const QVector3D accepted = simulate(colors.accepted, m);
    const QVector3D rejected = simulate(colors.rejected, m);
    const QVector3D errors = simulate(colors.errors, m);
    const auto apart = [](const QVector3D& a, const QVector3D& b) {
        return (a - b).length() >= 0.3f;
    };
    QVERIFY2(apart(accepted, rejected),
             qPrintable(QString::number((accepted - rejected).length())));
    QVERIFY(apart(accepted, errors));
    QVERIFY(apart(rejected, errors));
}

QTEST_MAIN(TestStyle)
#include "tst_style.moc"
