#include "support/window_driving.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QtTest>

#include "limiters/limiter.h"
#include "redis/redis_connection.h"
#include "redis/redis_reply.h"
#include "redis/redis_scan.h"
#include "support/test_redis.h"
#include "window/connection_bar.h"
#include "window/main_window.h"

namespace ratelab::test {

void connectToFixture(MainWindow& w) {
    w.connectionBar()->setUseManagedServer(false);
    w.connectionBar()->setUrlText(qEnvironmentVariable("REDIS_URL"));
    w.connectionBar()->connectToRedis();
    QTRY_VERIFY_WITH_TIMEOUT(w.connectionBar()->connected(), 10000);
}

void answerMessageBox(const QString& objectName, QMessageBox::StandardButton button) {
    QTimer::singleShot(0, qApp, [objectName, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box == nullptr || box->objectName() != objectName) {
            answerMessageBox(objectName, button);  // not shown yet: look again
            return;
        }
        box->button(button)->click();
    });
}

void retype(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

void clickToolButton(MainWindow& w, QAction* action) {
    QWidget* button = nullptr;
    for (QToolBar* bar : w.findChildren<QToolBar*>()) {
        if (QWidget* b = bar->widgetForAction(action); b != nullptr && b->isVisible())
            button = b;
    }
    QVERIFY2(button != nullptr, qPrintable(action->text()));
    QTest::mouseClick(button, Qt::LeftButton);
}

void clickTab(QTabWidget* tabs, QWidget* page) {
    const int index = tabs->indexOf(page);
    QVERIFY(index >= 0);
    QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(index).center());
    QCOMPARE(tabs->currentWidget(), page);
}

void pressKey(MainWindow& w, Qt::Key key) {
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, key);
}

long long keyCount(RedisConnection& c, const LimiterSpec& spec) {
    const std::unique_ptr<Limiter> limiter = makeLimiter(spec);
    long long n = 0;
    for (const std::string& key : limiter->exactKeys())
        n += replyInteger(c.command({"EXISTS", key}).get(), "EXISTS");
    scanEach(c, limiter->scanPattern(),
             [&n](std::vector<std::string>& keys) { n += qint64(keys.size()); });
    return n;
}

Scenario quickBucketScenario(const QString& prefix) {
    Scenario s;
    s.name = prefix;
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = uniqueName(prefix + QStringLiteral("-tb"));
    bucket.rate = 10;
    bucket.intervalMs = 1000;
    s.limiters = {bucket};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 50;
    s.traffic.durationS = 1;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs = QDateTime::currentMSecsSinceEpoch();
    return s;
}

}  // namespace ratelab::test
