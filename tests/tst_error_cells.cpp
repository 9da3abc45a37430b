// The editors' error cells read without colour. The sliding window's rule cell an error names
// was only tinted in the error colour, which a grayscale print all but loses (about 1.3:1
// against the table's base), and its text, in the error colour like the rest of the table, was
// 3.6:1 on the tint. The cell (or every cell of a rule named whole) is now also framed in the
// error colour, a frame at least 3:1 against the base all around it, and written in the
// palette's text colour, at least 4.5:1 on the tint, in the light and the dark palette. A cell
// no error names has no frame. Measured on the pixels drawn.
#include <QApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QTableWidget>
#include <QtTest>
#include <algorithm>
#include <functional>

#include "algorithms/sliding_window_page.h"
#include "style/app_theme.h"
#include "style/palette_colors.h"

using namespace ratelab;

namespace {

// The share of positions along each side of `cell` (looked at 1 to 3 pixels inside it) where
// a pixel is at least `ratio` against `base`: the smallest of the four sides.
double framedShare(const QImage& image, const QRect& cell, const QColor& base, double ratio) {
    const auto strong = [&](int x, int y) {
        return image.rect().contains(x, y) &&
               style::contrastRatio(image.pixelColor(x, y), base) >= ratio;
    };
    const auto share = [&](int length, const std::function<bool(int, int)>& at) {
        int hits = 0;
        for (int i = 0; i < length; ++i) {
            bool hit = false;
            for (int inset = 1; inset <= 3; ++inset)
                hit = hit || at(i, inset);
            hits += hit;
        }
        return length > 0 ? double(hits) / length : 0.0;
    };
    const QRect in = cell.adjusted(4, 4, -4, -4);  // clear of the corners
    return std::min(
        {share(in.width(), [&](int i, int d) { return strong(in.left() + i, cell.top() + d); }),
         share(in.width(), [&](int i, int d) { return strong(in.left() + i, cell.bottom() - d); }),
         share(in.height(), [&](int i, int d) { return strong(cell.left() + d, in.top() + i); }),
         share(in.height(), [&](int i, int d) { return strong(cell.right() - d, in.top() + i); })});
}

// The most common colour inside `cell` (its background) and the strongest contrast of any of
// its pixels against it (its text).
std::pair<QColor, double> backgroundAndText(const QImage& image, const QRect& cell) {
    QHash<QRgb, int> counts;
    const QRect in = cell.adjusted(4, 4, -4, -4);
    for (int y = in.top(); y <= in.bottom(); ++y)
        for (int x = in.left(); x <= in.right(); ++x)
            ++counts[image.pixel(x, y)];
    QRgb back = 0;
    int most = -1;
    for (auto i = counts.cbegin(); i != counts.cend(); ++i) {
        if (i.value() > most) {
            most = i.value();
            back = i.key();
        }
    }
    double text = 1;
    for (auto i = counts.cbegin(); i != counts.cend(); ++i)
        text = std::max(text, style::contrastRatio(QColor(i.key()), QColor(back)));
    return {QColor(back), text};
}

}  // namespace

class TestErrorCells : public QObject {
    Q_OBJECT

private slots:
    void ruleCellReadsInGrayscale_data() {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<QString>("where");
        QTest::addColumn<bool>("wholeRule");  // the rule's other cell is marked too
        for (bool dark : {false, true}) {
            const char* look = dark ? "dark" : "light";
            QTest::addRow("%s, a rule's limit", look)
                << dark << QStringLiteral("$.rules[1].limit") << false;
            QTest::addRow("%s, a whole rule", look) << dark << QStringLiteral("$.rules[1]") << true;
        }
    }
    void ruleCellReadsInGrayscale() {
        QFETCH(bool, dark);
        QFETCH(QString, where);
        QFETCH(bool, wholeRule);
        QApplication::setPalette(dark ? style::darkPalette() : style::lightPalette());
        SlidingWindowPage page;
        page.fill(QJsonObject{{QStringLiteral("rules"),
                               QJsonArray{QJsonObject{{QStringLiteral("limit"), 5},
                                                      {QStringLiteral("window_ms"), 1000}},
                                          QJsonObject{{QStringLiteral("limit"), 0},
                                                      {QStringLiteral("window_ms"), 60000}}}}});
        page.showProblem(where, QStringLiteral("limit must be at least 1"));
        page.resize(520, 420);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* table = page.findChild<QTableWidget*>(QStringLiteral("rules"));
        QVERIFY(table);
        const QImage image = table->viewport()->grab().toImage();
        const QColor base = table->palette().color(QPalette::Base);
        const QRect marked = table->visualItemRect(table->item(1, 0));
        const QRect plain = table->visualItemRect(table->item(0, 0));
        QVERIFY(marked.height() >= 12 && marked.width() >= 40);

        const double framed = framedShare(image, marked, base, 3.0);
        QVERIFY2(framed >= 0.9, qPrintable(QStringLiteral("the marked cell's frame: %1 of its "
                                                          "weakest side at 3:1")
                                               .arg(framed)));
        const double plainFramed = framedShare(image, plain, base, 3.0);
        QVERIFY2(plainFramed < 0.5,
                 qPrintable(QStringLiteral("an unmarked cell framed: %1").arg(plainFramed)));
        const auto [tint, text] = backgroundAndText(image, marked);
        QVERIFY2(text >= style::kMinContrast,
                 qPrintable(QStringLiteral("text %1:1 on the tint %2").arg(text).arg(tint.name())));
        const double other =
            framedShare(image, table->visualItemRect(table->item(1, 1)), base, 3.0);
        QVERIFY2(wholeRule ? other >= 0.9 : other < 0.5,
                 qPrintable(QStringLiteral("the rule's other cell framed: %1").arg(other)));
    }
};

QTEST_MAIN(TestErrorCells)
#include "tst_error_cells.moc"
