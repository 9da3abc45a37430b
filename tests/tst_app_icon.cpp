// The window's icon (app/app_icon.h): every size rendered from resources/icons/ratelab.svg is
// embedded, is the size it claims, and holds the drawing (transparent rounded corners, an
// opaque middle), so a broken render or a missing .qrc entry fails here.

#include <QIcon>
#include <QImage>
#include <QtTest>

#include "app_icon.h"

class TestAppIcon : public QObject {
    Q_OBJECT

private slots:
    void everySizeIsEmbedded_data();
    void everySizeIsEmbedded();
};

void TestAppIcon::everySizeIsEmbedded_data() {
    QTest::addColumn<int>("size");
    for (const int size : {16, 24, 32, 48, 64, 128, 256}) {
        QTest::addRow("%d px", size) << size;
    }
}

void TestAppIcon::everySizeIsEmbedded() {
    QFETCH(int, size);
    const QIcon icon = ratelab::applicationIcon();
    QVERIFY(icon.availableSizes().contains(QSize(size, size)));

    const QString file = QStringLiteral(":/icons/hicolor/%1x%1/apps/ratelab.png").arg(size);
    QImage image(file);
    QVERIFY2(!image.isNull(), qPrintable(file));
    QCOMPARE(image.size(), QSize(size, size));
    image = image.convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
    QCOMPARE(qAlpha(image.pixel(size / 2, size / 2)), 255);
}

QTEST_MAIN(TestAppIcon)
#include "tst_app_icon.moc"
