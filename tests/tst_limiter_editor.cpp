// The limiter editor: every edit is validated by parseLimiterSpec, errors show at their field;
// each type shows its own fields; setSpec fills the form. The list of limiters:
// tst_limiter_list_editor.

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include "editors/limiter_editor.h"
#include "limiters/limiter_spec.h"
#include "support/editor_widgets.h"
#include "support/limiter_spec_documents.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// The rules table as "limit/window_ms" pairs separated by commas ("" = no rules). Rows are added
// and removed with the buttons; only cells whose text differs are set, each in one edit.
void setRules(QWidget& editor, const QString& rules) {
    auto* table = child<QTableWidget>(editor, QStringLiteral("rules"));
    const QStringList wanted = rules.isEmpty() ? QStringList() : rules.split(u',');
    while (table->rowCount() > wanted.size()) {
        table->setCurrentCell(table->rowCount() - 1, 0);
        QTest::mouseClick(child<QPushButton>(editor, QStringLiteral("removeRule")), Qt::LeftButton);
    }
    while (table->rowCount() < wanted.size()) {
        QTest::mouseClick(child<QPushButton>(editor, QStringLiteral("addRule")), Qt::LeftButton);
    }
    for (int row = 0; row < wanted.size(); ++row) {
        const QStringList cells = wanted[row].split(u'/');
        for (int column = 0; column < 2; ++column) {
            const QString text = cells.value(column);
            if (table->item(row, column)->text() != text) {
                table->item(row, column)->setText(text);
            }
        }
    }
}

// Changes one field as a user would. `typed`: key clicks into a cleared line edit (several
// changes); otherwise the text is set in one change. Combo boxes take the JSON name, check
// boxes "true" or "false".
void edit(QWidget& editor, const QString& field, const QString& text, bool typed) {
    if (field == QLatin1String("rules")) {
        setRules(editor, text);
        return;
    }
    QWidget* widget = child<QWidget>(editor, field);
    QVERIFY(widget);
    if (auto* box = qobject_cast<QCheckBox*>(widget)) {
        if (box->isChecked() != (text == QLatin1String("true"))) {
            QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(4, box->height() / 2));
        }
        return;
    }
    auto* combo = qobject_cast<QComboBox*>(widget);
    if (combo && !combo->isEditable()) {
        const int index = combo->findData(text);
        QVERIFY2(index >= 0, qPrintable(text));
        combo->setCurrentIndex(index);
        return;
    }
    QLineEdit* line = combo ? combo->lineEdit() : qobject_cast<QLineEdit*>(widget);
    QVERIFY(line);
    if (typed) {
        line->clear();
        QTest::keyClicks(line, text);
        emit line->editingFinished();
    } else {
        line->setText(text);
    }
}

// "field=text" edits in order.
void applyEdits(QWidget& editor, const QStringList& edits, bool typed) {
    for (const QString& e : edits) {
        const qsizetype equals = e.indexOf(u'=');
        edit(editor, e.left(equals), e.mid(equals + 1), typed);
    }
}

QRect rectIn(const QWidget& root, const QWidget& widget) {
    return QRect(widget.mapTo(&root, QPoint(0, 0)), widget.size());
}

}  // namespace

class TestLimiterEditor : public QObject {
    Q_OBJECT

private slots:
    void typingProducesSpec_data();
    void typingProducesSpec();
    void invalidInput_data();
    void invalidInput();
    void onlySelectedTypeShown();
    void setSpecRoundTrips_data();
    void setSpecRoundTrips();
};

void TestLimiterEditor::typingProducesSpec_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<QStringList>("edits");
    QTest::addColumn<LimiterSpec>("expected");

    QTest::newRow("token bucket") << QStringLiteral("token_bucket")
                                  << QStringList{QStringLiteral("name=api"),
                                                 QStringLiteral("scope=per_client"),
                                                 QStringLiteral("rate=25"),
                                                 QStringLiteral("intervalMs=2000")}
                                  << tokenBucket(QStringLiteral("api"), Scope::PerClient, 25, 2000);
    QTest::newRow("token bucket at the limits")
        << QStringLiteral("token_bucket")
        << QStringList{QStringLiteral("name=bulk"), QStringLiteral("rate=1000000000"),
                       QStringLiteral("intervalMs=31622400000")}
        << tokenBucket(QStringLiteral("bulk"), Scope::Global, 1000000000, 31622400000);
    QTest::newRow("fixed window") << QStringLiteral("fixed_window")
                                  << QStringList{QStringLiteral("name=quota"),
                                                 QStringLiteral("scope=per_client"),
                                                 QStringLiteral("rate=5"),
                                                 QStringLiteral("unit=minutes"),
                                                 QStringLiteral("interval=2"),
                                                 QStringLiteral("timezone=Asia/Shanghai")}
                                  << fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 2,
                                                 CalendarUnit::Minutes, "Asia/Shanghai");
    QTest::newRow("fixed window, system zone")
        << QStringLiteral("fixed_window")
        << QStringList{QStringLiteral("name=monthly"), QStringLiteral("rate=100000"),
                       QStringLiteral("unit=months"), QStringLiteral("interval=3"),
                       QStringLiteral("timezone=")}
        << fixedWindow(QStringLiteral("monthly"), Scope::Global, 100000, 3, CalendarUnit::Months,
                       QByteArray());
    QTest::newRow("fixed window, milliseconds")
        << QStringLiteral("fixed_window")
        << QStringList{QStringLiteral("name=burst"), QStringLiteral("rate=3"),
                       QStringLiteral("unit=milliseconds"), QStringLiteral("interval=250"),
                       QStringLiteral("timezone=UTC")}
        << fixedWindow(QStringLiteral("burst"), Scope::Global, 3, 250, CalendarUnit::Milliseconds,
                       "UTC");
    QTest::newRow("sliding window")
        << QStringLiteral("sliding_window")
        << QStringList{QStringLiteral("name=login"), QStringLiteral("scope=per_client"),
                       QStringLiteral("rules=5/1000,20/60000")}
        << slidingWindow(QStringLiteral("login"), Scope::PerClient, {{5, 1000}, {20, 60000}});
    QTest::newRow("sliding window, one rule")
        << QStringLiteral("sliding_window")
        << QStringList{QStringLiteral("name=hourly"), QStringLiteral("rules=100/3600000")}
        << slidingWindow(QStringLiteral("hourly"), Scope::Global, {{100, 3600000}});
    QTest::newRow("sliding window, three rules")
        << QStringLiteral("sliding_window")
        << QStringList{QStringLiteral("name=search"),
                       QStringLiteral("rules=2/100,30/10000,500/86400000")}
        << slidingWindow(QStringLiteral("search"), Scope::Global,
                         {{2, 100}, {30, 10000}, {500, 86400000}});
    // The on_error combo: the spec gets the policy the user picked.
    QTest::newRow("token bucket, fail open")
        << QStringLiteral("token_bucket")
        << QStringList{QStringLiteral("name=api"), QStringLiteral("onError=open"),
                       QStringLiteral("rate=25"), QStringLiteral("intervalMs=2000")}
        << withPolicy(tokenBucket(QStringLiteral("api"), Scope::Global, 25, 2000),
                      FailurePolicy::Open);
    QTest::newRow("fixed window, fail closed")
        << QStringLiteral("fixed_window")
        << QStringList{QStringLiteral("name=quota"), QStringLiteral("onError=closed"),
                       QStringLiteral("rate=5"),     QStringLiteral("unit=minutes"),
                       QStringLiteral("interval=2"), QStringLiteral("timezone=UTC")}
        << withPolicy(fixedWindow(QStringLiteral("quota"), Scope::Global, 5, 2,
                                  CalendarUnit::Minutes, "UTC"),
                      FailurePolicy::Closed);
    QTest::newRow("sliding window, closed then back to error")
        << QStringLiteral("sliding_window")
        << QStringList{QStringLiteral("name=login"), QStringLiteral("onError=closed"),
                       QStringLiteral("rules=5/1000"), QStringLiteral("onError=error")}
        << slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}});
    QTest::newRow("gcra") << QStringLiteral("gcra")
                          << QStringList{QStringLiteral("name=api"),
                                         QStringLiteral("scope=per_client"),
                                         QStringLiteral("rate=7"), QStringLiteral("periodMs=60000"),
                                         QStringLiteral("burst=3")}
                          << gcra(QStringLiteral("api"), Scope::PerClient, 7, 60000, 3);
    QTest::newRow("sliding counter")
        << QStringLiteral("sliding_counter")
        << QStringList{QStringLiteral("name=search"), QStringLiteral("limit=100"),
                       QStringLiteral("windowMs=60000")}
        << slidingCounter(QStringLiteral("search"), Scope::Global, 100, 60000);
    QTest::newRow("leaky bucket, queued")
        << QStringLiteral("leaky_bucket")
        << QStringList{QStringLiteral("name=nginx"), QStringLiteral("rate=2"),
                       QStringLiteral("periodMs=1000"), QStringLiteral("burst=0")}
        << leakyBucket(QStringLiteral("nginx"), Scope::Global, 2, 1000, 0, false);
    QTest::newRow("leaky bucket, nodelay")
        << QStringLiteral("leaky_bucket")
        << QStringList{QStringLiteral("name=nginx"), QStringLiteral("burst=20"),
                       QStringLiteral("nodelay=true")}
        << leakyBucket(QStringLiteral("nginx"), Scope::Global, 10, 1000, 20, true);
}

void TestLimiterEditor::typingProducesSpec() {
    QFETCH(QString, type);
    QFETCH(QStringList, edits);
    QFETCH(LimiterSpec, expected);

    LimiterEditor editor;
    editor.show();
    QSignalSpy changed(&editor, &LimiterEditor::specChanged);
    selectType(editor, type);
    applyEdits(editor, edits, true);

    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QVERIFY(editor.errorText().isEmpty());
    QCOMPARE(editor.spec().value(), expected);
    QVERIFY(changed.count() >= edits.size());
    QVERIFY(!editor.findChild<QLabel*>(QStringLiteral("error")));
}

void TestLimiterEditor::invalidInput_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<QStringList>("setup");  // "field=text" edits before, all valid
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("bad");
    QTest::addColumn<QString>("good");
    QTest::addColumn<QString>("message");  // errorText() exactly, as the parser says it
    QTest::addColumn<QPoint>("cell");      // the highlighted rules cell (column, row)

    const QString tb = QStringLiteral("token_bucket");
    const QString fw = QStringLiteral("fixed_window");
    const QString sw = QStringLiteral("sliding_window");
    const QString rate = QStringLiteral("rate");
    const QPoint none(-1, -1);
    const QString rateRange =
        QStringLiteral("$.rate: must be an integer from 1 to 1000000000, got ");

    QTest::newRow("rate 0") << tb << QStringList() << rate << QStringLiteral("0")
                            << QStringLiteral("10") << rateRange + QStringLiteral("0") << none;
    QTest::newRow("rate -1") << tb << QStringList() << rate << QStringLiteral("-1")
                             << QStringLiteral("10") << rateRange + QStringLiteral("-1") << none;
    QTest::newRow("rate 1.5") << tb << QStringList() << rate << QStringLiteral("1.5")
                              << QStringLiteral("10") << rateRange + QStringLiteral("1.5") << none;
    QTest::newRow("rate abc") << tb << QStringList() << rate << QStringLiteral("abc")
                              << QStringLiteral("10")
                              << QStringLiteral(
                                     "$.rate: must be an integer, got \"abc\" (a string)")
                              << none;
    QTest::newRow("rate empty") << tb << QStringList() << rate << QString() << QStringLiteral("7")
                                << QStringLiteral("$.rate: must be an integer, got \"\" (a string)")
                                << none;
    QTest::newRow("interval_ms 0")
        << tb << QStringList() << QStringLiteral("intervalMs") << QStringLiteral("0")
        << QStringLiteral("1000")
        << QStringLiteral("$.interval_ms: must be an integer from 1 to 31622400000, got 0") << none;
    QTest::newRow("empty name") << tb << QStringList() << QStringLiteral("name") << QString()
                                << QStringLiteral("api")
                                << QStringLiteral("$.name: must not be empty") << none;
    QTest::newRow("name with {")
        << sw << QStringList() << QStringLiteral("name") << QStringLiteral("api{1}")
        << QStringLiteral("api-1")
        << QStringLiteral(
               "$.name: must not contain '{' or '}': they would change the Redis "
               "Cluster hash tag of the limiter's keys")
        << none;
    QTest::newRow("fixed window rate abc")
        << fw << QStringList() << rate << QStringLiteral("abc") << QStringLiteral("5")
        << QStringLiteral("$.rate: must be an integer, got \"abc\" (a string)") << none;
    QTest::newRow("interval 90 minutes")
        << fw << QStringList{QStringLiteral("unit=minutes")} << QStringLiteral("interval")
        << QStringLiteral("90") << QStringLiteral("30")
        << QStringLiteral(
               "$.interval: interval 90 exceeds the 60 minutes in an hour; use a "
               "larger unit")
        << none;
    QTest::newRow("unknown zone")
        << fw << QStringList() << QStringLiteral("timezone") << QStringLiteral("Mars/Olympus")
        << QStringLiteral("Europe/Berlin")
        << QStringLiteral(
               "$.timezone: unknown time zone \"Mars/Olympus\"; expected an IANA id "
               "such as \"Europe/Berlin\"")
        << none;
    QTest::newRow("rule limit 0")
        << sw << QStringList() << QStringLiteral("rules") << QStringLiteral("5/1000,0/60000")
        << QStringLiteral("5/1000,20/60000")
        << QStringLiteral("$.rules[1].limit: must be an integer from 1 to 1000000, got 0")
        << QPoint(0, 1);
    QTest::newRow("rule window abc")
        << sw << QStringList() << QStringLiteral("rules") << QStringLiteral("5/abc")
        << QStringLiteral("5/1000")
        << QStringLiteral("$.rules[0].window_ms: must be an integer, got \"abc\" (a string)")
        << QPoint(1, 0);
    QTest::newRow("no rules") << sw << QStringList() << QStringLiteral("rules") << QString()
                              << QStringLiteral("5/1000")
                              << QStringLiteral("$.rules: must hold at least one rule") << none;
    QTest::newRow("gcra burst 0") << QStringLiteral("gcra") << QStringList()
                                  << QStringLiteral("burst") << QStringLiteral("0")
                                  << QStringLiteral("5")
                                  << QStringLiteral(
                                         "$.burst: must be an integer from 1 to 100000, got 0")
                                  << none;
    QTest::newRow("gcra rate above 1e6")
        << QStringLiteral("gcra") << QStringList() << rate << QStringLiteral("1000001")
        << QStringLiteral("10")
        << QStringLiteral("$.rate: must be an integer from 1 to 1000000, got 1000001") << none;
    QTest::newRow("leaky period above a day")
        << QStringLiteral("leaky_bucket") << QStringList() << QStringLiteral("periodMs")
        << QStringLiteral("86400001") << QStringLiteral("1000")
        << QStringLiteral("$.period_ms: must be an integer from 1 to 86400000, got 86400001")
        << none;
    QTest::newRow("leaky burst -1")
        << QStringLiteral("leaky_bucket") << QStringList() << QStringLiteral("burst")
        << QStringLiteral("-1") << QStringLiteral("0")
        << QStringLiteral("$.burst: must be an integer from 0 to 100000, got -1") << none;
    QTest::newRow("counter window abc")
        << QStringLiteral("sliding_counter") << QStringList() << QStringLiteral("windowMs")
        << QStringLiteral("abc") << QStringLiteral("1000")
        << QStringLiteral("$.window_ms: must be an integer, got \"abc\" (a string)") << none;
    QTest::newRow("counter limit 0")
        << QStringLiteral("sliding_counter") << QStringList() << QStringLiteral("limit")
        << QStringLiteral("0") << QStringLiteral("10")
        << QStringLiteral("$.limit: must be an integer from 1 to 1000000, got 0") << none;
}

void TestLimiterEditor::invalidInput() {
    QFETCH(QString, type);
    QFETCH(QStringList, setup);
    QFETCH(QString, field);
    QFETCH(QString, bad);
    QFETCH(QString, good);
    QFETCH(QString, message);
    QFETCH(QPoint, cell);

    LimiterEditor editor;
    editor.resize(420, 520);
    editor.show();
    selectType(editor, type);
    applyEdits(editor, setup, false);
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QWidget* widget = child<QWidget>(editor, field);
    QVERIFY(widget);

    QSignalSpy validity(&editor, &LimiterEditor::validityChanged);
    QSignalSpy changed(&editor, &LimiterEditor::specChanged);
    edit(editor, field, bad, false);
    settle();
    QVERIFY(!editor.isValid());
    QVERIFY(!editor.spec().has_value());
    QCOMPARE(editor.errorText(), message);
    QCOMPARE(validity.count(), 1);
    QCOMPARE(validity.at(0).at(0).toBool(), false);
    QVERIFY(changed.count() >= 1);

    // One red label, right under the field, and the field marked.
    auto* label = editor.findChild<QLabel*>(QStringLiteral("error"));
    QVERIFY(label);
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), message);
    QVERIFY(widget->property("invalid").toBool());
    const QRect fieldRect = rectIn(editor, *widget);
    const QRect labelRect = rectIn(editor, *label);
    QVERIFY2(labelRect.top() > fieldRect.bottom() && labelRect.top() - fieldRect.bottom() < 16,
             qPrintable(QStringLiteral("field %1,%2 label %3")
                            .arg(fieldRect.top())
                            .arg(fieldRect.bottom())
                            .arg(labelRect.top())));
    QVERIFY(labelRect.left() < fieldRect.right() && labelRect.right() > fieldRect.left());
    if (cell.x() >= 0) {
        auto* table = qobject_cast<QTableWidget*>(widget);
        QVERIFY(table->item(cell.y(), cell.x())->data(Qt::BackgroundRole).isValid());
        QVERIFY(!table->item(cell.y(), 1 - cell.x())->data(Qt::BackgroundRole).isValid());
    }

    edit(editor, field, good, false);
    settle();
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QVERIFY(editor.errorText().isEmpty());
    QCOMPARE(validity.count(), 2);
    QCOMPARE(validity.at(1).at(0).toBool(), true);
    QVERIFY(!editor.findChild<QLabel*>(QStringLiteral("error")));
    QVERIFY(!label->isVisible());
    QVERIFY(!widget->property("invalid").toBool());
    if (cell.x() >= 0) {
        auto* table = qobject_cast<QTableWidget*>(widget);
        QVERIFY(!table->item(cell.y(), cell.x())->data(Qt::BackgroundRole).isValid());
    }
}

void TestLimiterEditor::onlySelectedTypeShown() {
    LimiterEditor editor;
    editor.show();
    // GCRA's and the leaky bucket's pages both have a periodMs and a burst: the visible ones.
    const QStringList names{
        QStringLiteral("rate"),     QStringLiteral("intervalMs"), QStringLiteral("interval"),
        QStringLiteral("unit"),     QStringLiteral("timezone"),   QStringLiteral("rules"),
        QStringLiteral("periodMs"), QStringLiteral("burst"),      QStringLiteral("nodelay"),
        QStringLiteral("limit"),    QStringLiteral("windowMs")};
    // One character per name: '1' visible.
    const QVector<QPair<QString, QByteArray>> expected{
        {QStringLiteral("token_bucket"), "11000000000"},
        {QStringLiteral("fixed_window"), "10111000000"},
        {QStringLiteral("sliding_window"), "00000100000"},
        {QStringLiteral("gcra"), "10000011000"},
        {QStringLiteral("sliding_counter"), "00000000011"},
        {QStringLiteral("leaky_bucket"), "10000011100"},
        {QStringLiteral("token_bucket"), "11000000000"}};
    for (const auto& [type, visible] : expected) {
        selectType(editor, type);
        settle();
        for (int i = 0; i < names.size(); ++i) {
            bool shown = false;
            for (const QWidget* widget : editor.findChildren<QWidget*>(names[i])) {
                shown = shown || widget->isVisible();
            }
            QVERIFY2(shown == (visible[i] == '1'), qPrintable(type + QLatin1Char(' ') + names[i]));
        }
        QVERIFY(editor.isValid());  // a new type starts from its defaults
    }
}

void TestLimiterEditor::setSpecRoundTrips_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::newRow("token bucket") << tokenBucket(QStringLiteral("api"), Scope::PerClient, 250,
                                                 60000);
    QTest::newRow("fixed window") << fixedWindow(QStringLiteral("quota"), Scope::PerClient, 5, 15,
                                                 CalendarUnit::Minutes, "Asia/Kolkata");
    QTest::newRow("fixed window, system zone") << fixedWindow(
        QStringLiteral("daily"), Scope::Global, 1000, 1, CalendarUnit::Days, QByteArray());
    QTest::newRow("sliding window")
        << slidingWindow(QStringLiteral("login"), Scope::Global, {{5, 1000}, {20, 60000}});
    QTest::newRow("gcra") << gcra(QStringLiteral("g"), Scope::PerClient, 3, 7, 2);
    QTest::newRow("sliding counter")
        << slidingCounter(QStringLiteral("c"), Scope::Global, 1, 86400000);
    QTest::newRow("leaky bucket") << leakyBucket(QStringLiteral("l"), Scope::Global, 10, 1000, 4,
                                                 false);
    QTest::newRow("leaky bucket, nodelay")
        << leakyBucket(QStringLiteral("l"), Scope::PerClient, 1, 1, 0, true);
    QTest::newRow("odd name") << tokenBucket(QStringLiteral("<b>%1 é"), Scope::Global, 1, 1);
    QTest::newRow("fail open") << withPolicy(
        tokenBucket(QStringLiteral("api"), Scope::Global, 10, 1000), FailurePolicy::Open);
    QTest::newRow("fail closed") << withPolicy(
        slidingWindow(QStringLiteral("login"), Scope::PerClient, {{5, 1000}}),
        FailurePolicy::Closed);
}

void TestLimiterEditor::setSpecRoundTrips() {
    QFETCH(LimiterSpec, spec);
    LimiterEditor editor;
    editor.show();
    // From an invalid form: one validityChanged(true), never a passing invalid state.
    child<QLineEdit>(editor, QStringLiteral("name"))->clear();
    QVERIFY(!editor.isValid());
    QSignalSpy validity(&editor, &LimiterEditor::validityChanged);
    editor.setSpec(spec);
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    QCOMPARE(editor.spec().value(), spec);
    QCOMPARE(validity.count(), 1);
    QCOMPARE(validity.at(0).at(0).toBool(), true);
    QCOMPARE(child<QLineEdit>(editor, QStringLiteral("name"))->text(), spec.name);
    QCOMPARE(child<QComboBox>(editor, QStringLiteral("onError"))->currentData().toString(),
             failurePolicyName(spec.onError));

    // From a valid form: no validity signal at all.
    editor.setSpec(tokenBucket(QStringLiteral("other"), Scope::Global, 1, 1));
    editor.setSpec(spec);
    QCOMPARE(validity.count(), 1);
    QCOMPARE(editor.spec().value(), spec);
}

QTEST_MAIN(TestLimiterEditor)
#include "tst_limiter_editor.moc"
