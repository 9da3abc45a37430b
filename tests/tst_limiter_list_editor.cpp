// The list of limiters: new limiters with their type's defaults, names unique across the list,
// an invalid limiter kept and named, removal, setSpecs. One limiter's form: tst_limiter_editor.

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "editors/limiter_editor.h"
#include "editors/limiter_list_editor.h"
#include "limiters/limiter_spec.h"
#include "support/editor_widgets.h"
#include "support/limiter_spec_documents.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// The defaults of a new limiter in the list editor.
LimiterSpec defaultSpec(const QString& type, const QString& name) {
    if (type == QLatin1String("token_bucket")) {
        return tokenBucket(name, Scope::Global, 10, 1000);
    }
    if (type == QLatin1String("fixed_window")) {
        return fixedWindow(name, Scope::Global, 10, 1, CalendarUnit::Seconds, "UTC");
    }
    if (type == QLatin1String("gcra")) {
        return gcra(name, Scope::Global, 10, 1000, 5);
    }
    if (type == QLatin1String("sliding_counter")) {
        return slidingCounter(name, Scope::Global, 10, 1000);
    }
    if (type == QLatin1String("leaky_bucket")) {
        return leakyBucket(name, Scope::Global, 10, 1000, 4, false);
    }
    return slidingWindow(name, Scope::Global, {{5, 1000}, {20, 60000}});
}

}  // namespace

class TestLimiterListEditor : public QObject {
    Q_OBJECT

private slots:
    void listAddsDefaults_data();
    void listAddsDefaults();
    void listAddsOneOfEach();
    void listDuplicateNames();
    void listKeepsInvalidLimiter();
    void listEditUpdatesText();
    void listRemove();
    void listSetSpecs();
};

void TestLimiterListEditor::listAddsDefaults_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("title");
    QTest::newRow("token bucket") << QStringLiteral("token_bucket")
                                  << QStringLiteral("addTokenBucket")
                                  << QStringLiteral("token bucket");
    QTest::newRow("fixed window") << QStringLiteral("fixed_window")
                                  << QStringLiteral("addFixedWindow")
                                  << QStringLiteral("fixed window");
    QTest::newRow("sliding window")
        << QStringLiteral("sliding_window") << QStringLiteral("addSlidingWindow")
        << QStringLiteral("sliding window");
    QTest::newRow("gcra") << QStringLiteral("gcra") << QStringLiteral("addGcra")
                          << QStringLiteral("GCRA");
    QTest::newRow("sliding counter")
        << QStringLiteral("sliding_counter") << QStringLiteral("addSlidingCounter")
        << QStringLiteral("sliding counter");
    QTest::newRow("leaky bucket") << QStringLiteral("leaky_bucket")
                                  << QStringLiteral("addLeakyBucket")
                                  << QStringLiteral("leaky bucket");
}

void TestLimiterListEditor::listAddsDefaults() {
    QFETCH(QString, type);
    QFETCH(QString, action);
    QFETCH(QString, title);

    LimiterListEditor editor;
    editor.show();
    QVERIFY(!editor.isValid());  // no limiters yet
    QSignalSpy changed(&editor, &LimiterListEditor::specsChanged);
    QSignalSpy validity(&editor, &LimiterListEditor::validityChanged);
    for (int i = 0; i < 3; ++i) {
        editor.findChild<QAction*>(action)->trigger();
    }
    QCOMPARE(changed.count(), 3);
    QCOMPARE(validity.count(), 1);
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QVector<LimiterSpec> expected;
    auto* list = child<QListWidget>(editor, QStringLiteral("limiterList"));
    QCOMPARE(list->count(), 3);
    for (int i = 0; i < 3; ++i) {
        const QString name = QStringLiteral("limiter-%1").arg(i + 1);
        expected << defaultSpec(type, name);
        QCOMPARE(list->item(i)->text(), name + QStringLiteral(" — ") + title);
    }
    QCOMPARE(editor.specs(), expected);
    // The new one is selected.
    QCOMPARE(list->currentRow(), 2);
    QCOMPARE(child<LimiterEditor>(editor, QStringLiteral("limiterEditor"))->spec().value(),
             expected.last());
}

void TestLimiterListEditor::listAddsOneOfEach() {
    LimiterListEditor editor;
    editor.show();
    editor.findChild<QAction*>(QStringLiteral("addSlidingWindow"))->trigger();
    editor.findChild<QAction*>(QStringLiteral("addTokenBucket"))->trigger();
    editor.findChild<QAction*>(QStringLiteral("addFixedWindow"))->trigger();
    const QVector<LimiterSpec> expected{
        defaultSpec(QStringLiteral("sliding_window"), QStringLiteral("limiter-1")),
        defaultSpec(QStringLiteral("token_bucket"), QStringLiteral("limiter-2")),
        defaultSpec(QStringLiteral("fixed_window"), QStringLiteral("limiter-3"))};
    QCOMPARE(editor.specs(), expected);
    QVERIFY(editor.isValid());
}

void TestLimiterListEditor::listDuplicateNames() {
    LimiterListEditor editor;
    editor.show();
    const QVector<LimiterSpec> specs{
        tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000),
        fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 2, CalendarUnit::Minutes, "UTC"),
        slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}})};
    editor.setSpecs(specs);
    QVERIFY(editor.isValid());
    QSignalSpy validity(&editor, &LimiterListEditor::validityChanged);

    auto* list = child<QListWidget>(editor, QStringLiteral("limiterList"));
    list->setCurrentRow(1);
    auto* name = child<QLineEdit>(editor, QStringLiteral("name"));
    QCOMPARE(name->text(), QStringLiteral("quota"));
    name->setText(QStringLiteral("api"));
    settle();
    QVERIFY(!editor.isValid());
    const QString message = QStringLiteral("limiter 2: name \"api\" is used by limiter 1");
    QCOMPARE(editor.errorText(), message);
    QCOMPARE(validity.count(), 1);
    QCOMPARE(validity.at(0).at(0).toBool(), false);
    auto* label = child<QLabel>(editor, QStringLiteral("listError"));
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), message);
    QVERIFY(!list->item(1)->icon().isNull());
    QVERIFY(list->item(0)->icon().isNull());
    QCOMPARE(editor.specs().size(), 3);  // each limiter is valid on its own

    name->setText(QStringLiteral("quota-2"));
    settle();
    QVERIFY(editor.isValid());
    QVERIFY(editor.errorText().isEmpty());
    QCOMPARE(validity.count(), 2);
    QCOMPARE(validity.at(1).at(0).toBool(), true);
    QVERIFY(!label->isVisible());
    QVERIFY(list->item(1)->icon().isNull());
    QCOMPARE(editor.specs().at(1).name, QStringLiteral("quota-2"));
}

void TestLimiterListEditor::listKeepsInvalidLimiter() {
    LimiterListEditor editor;
    editor.show();
    editor.setSpecs({tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000),
                     slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}})});
    auto* list = child<QListWidget>(editor, QStringLiteral("limiterList"));
    auto* rate = child<QLineEdit>(editor, QStringLiteral("rate"));
    rate->setText(QStringLiteral("abc"));
    const QString message =
        QStringLiteral("limiter 1: $.rate: must be an integer, got \"abc\" (a string)");
    QCOMPARE(editor.errorText(), message);
    QCOMPARE(editor.specs().size(), 1);  // only the valid one
    QCOMPARE(editor.specs().at(0).name, QStringLiteral("login"));

    // Another limiter selected: the list stays invalid and says why.
    list->setCurrentRow(1);
    settle();
    QVERIFY(!editor.isValid());
    QCOMPARE(editor.errorText(), message);
    auto* label = child<QLabel>(editor, QStringLiteral("listError"));
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), message);

    // Back to it: the bad text is still there, shown at its field.
    list->setCurrentRow(0);
    settle();
    QCOMPARE(rate->text(), QStringLiteral("abc"));
    QVERIFY(editor.findChild<QLabel*>(QStringLiteral("error"))->isVisible());
    rate->setText(QStringLiteral("12"));
    QVERIFY(editor.isValid());
    QCOMPARE(editor.specs().at(0), tokenBucket(QStringLiteral("api"), Scope::Global, 12, 1000));
}

void TestLimiterListEditor::listEditUpdatesText() {
    LimiterListEditor editor;
    editor.show();
    editor.setSpecs({tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000)});
    QSignalSpy changed(&editor, &LimiterListEditor::specsChanged);
    auto* list = child<QListWidget>(editor, QStringLiteral("limiterList"));
    QCOMPARE(list->item(0)->text(), QStringLiteral("api — token bucket"));
    auto* name = child<QLineEdit>(editor, QStringLiteral("name"));
    QTest::keyClicks(name, QStringLiteral("-v2"));
    QCOMPARE(list->item(0)->text(), QStringLiteral("api-v2 — token bucket"));
    // Typing revalidates and shows the name; only Enter (or focus-out) announces one change.
    QCOMPARE(changed.count(), 0);
    QTest::keyClick(name, Qt::Key_Return);
    QCOMPARE(changed.count(), 1);
    QTest::keyClick(name, Qt::Key_Return);  // nothing changed since
    QCOMPARE(changed.count(), 1);
    selectType(editor, QStringLiteral("sliding_window"));
    QCOMPARE(list->item(0)->text(), QStringLiteral("api-v2 — sliding window"));
    QCOMPARE(editor.specs(), QVector<LimiterSpec>{defaultSpec(QStringLiteral("sliding_window"),
                                                              QStringLiteral("api-v2"))});
}

void TestLimiterListEditor::listRemove() {
    LimiterListEditor editor;
    editor.show();
    const LimiterSpec api = tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000);
    const LimiterSpec quota =
        fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 1, CalendarUnit::Hours, "UTC");
    const LimiterSpec login = slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}});
    editor.setSpecs({api, quota, login});
    auto* list = child<QListWidget>(editor, QStringLiteral("limiterList"));
    auto* remove = child<QPushButton>(editor, QStringLiteral("removeLimiter"));
    auto* limiter = child<LimiterEditor>(editor, QStringLiteral("limiterEditor"));
    QSignalSpy changed(&editor, &LimiterListEditor::specsChanged);
    QSignalSpy validity(&editor, &LimiterListEditor::validityChanged);

    list->setCurrentRow(1);
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(editor.specs(), (QVector<LimiterSpec>{api, login}));
    QCOMPARE(list->count(), 2);
    QCOMPARE(list->currentRow(), 1);
    QCOMPARE(limiter->spec().value(), login);

    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(editor.specs(), QVector<LimiterSpec>{api});
    QCOMPARE(limiter->spec().value(), api);
    QTest::mouseClick(remove, Qt::LeftButton);
    QVERIFY(editor.specs().isEmpty());
    QCOMPARE(changed.count(), 3);
    // No limiter is nothing to run.
    QVERIFY(!editor.isValid());
    QCOMPARE(validity.count(), 1);
    QVERIFY(!remove->isEnabled());
    QVERIFY(!limiter->isEnabled());

    // The names of removed limiters are free again.
    editor.findChild<QAction*>(QStringLiteral("addTokenBucket"))->trigger();
    QVERIFY(editor.isValid());
    QCOMPARE(editor.specs().at(0).name, QStringLiteral("limiter-1"));
    QVERIFY(remove->isEnabled());
    QVERIFY(limiter->isEnabled());
}

void TestLimiterListEditor::listSetSpecs() {
    LimiterListEditor editor;
    editor.show();
    const QVector<LimiterSpec> specs{
        fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 2, CalendarUnit::Minutes,
                    "Asia/Shanghai"),
        slidingWindow(QStringLiteral("login"), Scope::PerClient, {{5, 1000}, {20, 60000}}),
        tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000)};
    QSignalSpy changed(&editor, &LimiterListEditor::specsChanged);
    QSignalSpy validity(&editor, &LimiterListEditor::validityChanged);
    editor.setSpecs(specs);
    QVERIFY(editor.isValid());
    QCOMPARE(validity.count(), 1);
    QCOMPARE(changed.count(), 0);  // not an edit
    QCOMPARE(editor.specs(), specs);
    auto* list = child<QListWidget>(editor, QStringLiteral("limiterList"));
    QCOMPARE(list->item(1)->text(), QStringLiteral("login — sliding window"));
    QCOMPARE(list->currentRow(), 0);
    for (int row = 0; row < specs.size(); ++row) {
        list->setCurrentRow(row);
        QCOMPARE(child<LimiterEditor>(editor, QStringLiteral("limiterEditor"))->spec().value(),
                 specs[row]);
    }
    QCOMPARE(changed.count(), 0);  // selecting is no edit either
    QCOMPARE(editor.specs(), specs);

    // A duplicate already in the specs is reported at once.
    editor.setSpecs({specs[2], specs[2]});
    QVERIFY(!editor.isValid());
    QCOMPARE(editor.errorText(), QStringLiteral("limiter 2: name \"api\" is used by limiter 1"));
}

QTEST_MAIN(TestLimiterListEditor)
#include "tst_limiter_list_editor.moc"
