// A script limiter in the window, driven as a person drives it (offscreen, against the fixture
// Redis): its fields in the limiter editor with every bad value named under its field in the
// parser's own words, a .lua chosen in a file dialog, the shipped script scenarios opened,
// saved and opened again unchanged; a run's disagreements with the reference in the comparison
// table, the client table and as marks on the script's timeline, the script's cost beside its
// reference's, and the Why? window's raw reply beside the reference's reason.
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QJsonDocument>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "editors/limiter_editor.h"
#include "editors/limiter_list_editor.h"
#include "limiters/script_spec.h"
#include "panels/client_table.h"
#include "panels/comparison_cells.h"
#include "panels/comparison_table.h"
#include "panels/comparison_view.h"
#include "panels/explanation_view.h"
#include "panels/redis_cost_view.h"
#include "run/run_controller.h"
#include "run/run_view.h"
#include "scenario/scenario.h"
#include "style/inline_error.h"
#include "support/test_files.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/explanation_dialog.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

const QString kLogs = QStringLiteral("scripts-sliding-logs.json");

LimiterEditor* editorOf(MainWindow& w) {
    return w.findChild<LimiterListEditor*>()->editor();
}

// Chooses the limiter in the list's row `row`, as a click does.
void chooseLimiter(MainWindow& w, int row) {
    auto* list =
        w.findChild<LimiterListEditor*>()->findChild<QListWidget*>(QStringLiteral("limiterList"));
    list->setCurrentRow(row);
}

// Replaces a multi-line field's text as a user types it: each line, Return between them, then
// Tab out of it (which commits it).
void retypeLines(QPlainTextEdit* edit, const QString& text) {
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (i > 0)
            QTest::keyClick(edit, Qt::Key_Return);
        QTest::keyClicks(edit, lines[i]);
    }
    QTest::keyClick(edit, Qt::Key_Tab);
}

// The error shown in `editor` (its label is named "error"), or empty.
QString shownError(LimiterEditor* editor) {
    auto* label = editor->findChild<InlineError*>(QStringLiteral("error"));
    return label != nullptr && label->isVisibleTo(editor) ? label->text() : QString();
}

// A window showing the shipped example `name`, on the fixture.
bool openExample(MainWindow& w, const QString& name) {
    w.resize(1400, 900);
    w.show();
    connectToFixture(w);
    return w.openScenario(exampleScenarioPath(name));
}

// The shipped example with its limiters renamed (other tests run it too).
Scenario renamedExample(const QString& name) {
    Scenario s = loadScenarioFile(exampleScenarioPath(name));
    for (LimiterSpec& spec : s.limiters)
        spec.name = uniqueName(spec.name.left(12));
    return s;
}

// `s` shown at 1400x900 on the fixture, started with F5 and run to its end.
void runToEnd(MainWindow& w, const Scenario& s) {
    w.resize(1400, 900);
    w.show();
    connectToFixture(w);
    w.setScenario(s);
    QSignalSpy finished(w.controller(), &RunController::finished);
    pressKey(w, Qt::Key_F5);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
}

void forget(const Scenario& s) {
    auto router = routeFixture();
    for (const LimiterSpec& spec : s.limiters)
        makeLimiter(spec)->reset(*router);
}

}  // namespace

class TestWindowScript : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-script-window"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
    }

    // The example's script limiter shows its fields, each as the file has it.
    void editorShowsTheScriptsFields() {
        MainWindow w;
        QVERIFY(openExample(w, kLogs));
        chooseLimiter(w, 1);  // log-by-time
        LimiterEditor* editor = editorOf(w);
        QCOMPARE(editor->findChild<QComboBox*>(QStringLiteral("type"))->currentData().toString(),
                 QStringLiteral("script"));
        const auto* file = editor->findChild<QLineEdit*>(QStringLiteral("scriptFile"));
        QVERIFY(file->isVisibleTo(editor));
        QVERIFY2(file->text().endsWith(QStringLiteral("/scripts/sliding_log_by_time.lua")),
                 qPrintable(file->text()));
        QCOMPARE(editor->findChild<QPlainTextEdit*>(QStringLiteral("keys"))->toPlainText(),
                 QStringLiteral("{{{name}}}:log:{client}"));
        QCOMPARE(editor->findChild<QPlainTextEdit*>(QStringLiteral("args"))->toPlainText(),
                 QStringLiteral("{now_ms}\n10\n1000"));
        QCOMPARE(editor->findChild<QLineEdit*>(QStringLiteral("replyIndex"))->text(),
                 QStringLiteral("0"));
        QCOMPARE(editor->findChild<QLineEdit*>(QStringLiteral("replyRetry"))->text(),
                 QStringLiteral("2"));
        QCOMPARE(editor->findChild<QComboBox*>(QStringLiteral("referenceType"))
                     ->currentData()
                     .toString(),
                 QStringLiteral("sliding_window"));
        QCOMPARE(
            editor->findChild<QPlainTextEdit*>(QStringLiteral("referenceFields"))->toPlainText(),
            QStringLiteral(R"({"rules":[{"limit":10,"window_ms":1000}]})"));
        QCOMPARE(editor->findChild<QComboBox*>(QStringLiteral("stateRead"))->currentData(),
                 QVariant(QStringLiteral("zcount_window")));
        QVERIFY(editor->isValid());
        QVERIFY(!w.isWindowModified());  // showing it is no edit
    }

    // Every bad value is refused under its own field, in the parser's words, naming the line
    // of a list or the reference's own field; never replaced by a default.
    void badValuesAreNamedAtTheirField_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("key placeholder")
            << "keys"
            << "{mine}:{client}"
            << "$.keys[0] (line 1): {mine}:{client}: unknown placeholder {mine}";
        QTest::newRow("second argument")
            << "args"
            << "{now_ms}\n{bogus}"
            << "$.args[1] (line 2): {bogus}: unknown placeholder {bogus}";
        QTest::newRow("no key") << "keys"
                                << ""
                                << "must hold 1 to 16 templates, got 0";
        QTest::newRow("reply element") << "replyIndex"
                                       << "first"
                                       << "must be an integer from 0 to 63, got \"first\"";
        QTest::newRow("reply wait") << "replyRetry"
                                    << "later"
                                    << "must be an element index or \"reply\", got \"later\"";
        QTest::newRow("reference field") << "referenceFields"
                                         << R"({"rules": [{"limit": 0, "window_ms": 1000}]})"
                                         << "$.reference.rules[0].limit: must be";
        QTest::newRow("reference not JSON") << "referenceFields"
                                            << R"({"rules": [)"
                                            << "its fields are not JSON";
        QTest::newRow("missing file") << "scriptFile"
                                      << "/nonexistent/nothing.lua"
                                      << "/nonexistent/nothing.lua";
        QTest::newRow("state window") << "stateWindowMs"
                                      << "0"
                                      << "must be an integer from 1";
        QTest::newRow("reset per request")
            << "reset"
            << "{now_ms}:x"
            << "$.reset[0] (line 1): {now_ms}:x: a reset pattern names only";
    }
    void badValuesAreNamedAtTheirField() {
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(QString, message);
        MainWindow w;
        QVERIFY(openExample(w, kLogs));
        chooseLimiter(w, 1);
        LimiterEditor* editor = editorOf(w);
        QWidget* widget = editor->findChild<QWidget*>(field);
        QVERIFY2(widget != nullptr, qPrintable(field));
        if (auto* lines = qobject_cast<QPlainTextEdit*>(widget))
            retypeLines(lines, text);
        else
            retype(qobject_cast<QLineEdit*>(widget), text);
        QVERIFY(!editor->isValid());
        QVERIFY2(shownError(editor).contains(message), qPrintable(shownError(editor)));
        QVERIFY2(widget->property("invalid").toBool(), "the field is marked");
        // The message is the parser's: the same words the command line prints for the path.
        QVERIFY2(editor->errorText().contains(message.section(QStringLiteral(": "), -1)) ||
                     message.startsWith(QStringLiteral("its fields")),
                 qPrintable(editor->errorText()));
        QVERIFY(!w.startAction()->isEnabled());
        w.setWindowModified(false);
    }

    // A new limiter of type Script starts from a working sliding log; a .lua chosen in the file
    // dialog replaces its inline source, and the file's Lua is what it runs.
    void scriptTypeWithAChosenFile() {
        MainWindow w;
        QVERIFY(openExample(w, QStringLiteral("fixed-window-boundary-burst.json")));
        chooseLimiter(w, 0);
        LimiterEditor* editor = editorOf(w);
        auto* type = editor->findChild<QComboBox*>(QStringLiteral("type"));
        type->setCurrentIndex(type->findData(QStringLiteral("script")));
        QVERIFY2(editor->isValid(), qPrintable(editor->errorText()));
        auto* from = editor->findChild<QComboBox*>(QStringLiteral("scriptFrom"));
        QCOMPARE(from->currentData().toString(), QStringLiteral("inline"));
        from->setCurrentIndex(from->findData(QStringLiteral("file")));
        QVERIFY(!editor->isValid());  // no file yet: said, not defaulted
        QVERIFY2(shownError(editor).contains(QStringLiteral("must not be empty")),
                 qPrintable(shownError(editor)));

        const QString lua = QFileInfo(exampleScenarioPath(kLogs))
                                .dir()
                                .filePath(QStringLiteral("../scripts/sliding_log.lua"));
        QTimer::singleShot(0, [lua] {
            // The dialog is modal: answer it once it shows.
            QTRY_VERIFY(qobject_cast<QFileDialog*>(QApplication::activeModalWidget()) != nullptr);
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            dialog->selectFile(QFileInfo(lua).absoluteFilePath());
            static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept is protected
        });
        QTest::mouseClick(editor->findChild<QPushButton*>(QStringLiteral("chooseScript")),
                          Qt::LeftButton);
        QTRY_VERIFY2(editor->isValid(), qPrintable(editor->errorText()));
        const std::optional<LimiterSpec> spec = editor->spec();
        QVERIFY(spec && spec->script);
        QCOMPARE(spec->script->resolved, QFileInfo(lua).absoluteFilePath());
        w.setWindowModified(false);
    }

    // Each shipped script scenario opened, saved and opened again is the same scenario.
    void shippedScriptScenariosRoundTrip_data() {
        QTest::addColumn<QString>("name");
        for (const QString& name : {kLogs, QStringLiteral("scripts-float-token-bucket.json"),
                                    QStringLiteral("scripts-incr-window-real-clock.json")})
            QTest::newRow(qPrintable(name)) << name;
    }
    void shippedScriptScenariosRoundTrip() {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const Scenario shipped = loadScenarioFile(exampleScenarioPath(name));
        MainWindow w;
        QVERIFY(openExample(w, name));
        const QByteArray opened =
            QJsonDocument(scenarioToJson(w.currentScenario().value())).toJson();
        const QString saved = dir.filePath(QStringLiteral("saved.json"));
        QVERIFY(w.saveScenario(saved));
        QVERIFY(w.openScenario(saved));
        const Scenario reopened = w.currentScenario().value();
        QCOMPARE(QJsonDocument(scenarioToJson(reopened)).toJson(), opened);
        QCOMPARE(reopened.limiters.size(), shipped.limiters.size());
        for (int i = 0; i < shipped.limiters.size(); ++i)
            QVERIFY2(reopened.limiters[i] == shipped.limiters[i],
                     qPrintable(shipped.limiters[i].name));
        QCOMPARE(reopened.expectations.size(), shipped.expectations.size());
    }

    // A run of the sliding logs: the log keyed by time disagrees with its reference 118 times
    // (as `ratelab run` prints it), the log done right never; the comparison table, the client
    // table and the script's timeline show them, the cost table the script beside its reference.
    void runShowsDisagreementsAndCost() {
        MainWindow w;
        const Scenario s = renamedExample(kLogs);
        runToEnd(w, s);
        if (QTest::currentTestFailed())
            return;

        ComparisonTable* table = w.comparison();
        QCOMPARE(table->row(0).value(comparison::kReference), QStringLiteral("\u2014"));
        QCOMPARE(table->row(1).value(comparison::kReference), QStringLiteral("118"));
        QVERIFY(table->alerted(1, comparison::kReference));
        const QString share = table->findChild<QTableWidget*>(QStringLiteral("comparison"))
                                  ->item(1, comparison::kReference)
                                  ->toolTip();
        QVERIFY2(share.contains(QStringLiteral("of 480 decisions both made")) &&
                     share.contains(QStringLiteral("(24.6 %")),
                 qPrintable(share));
        QCOMPARE(table->row(2).value(comparison::kReference), QStringLiteral("0"));
        QVERIFY(!table->alerted(2, comparison::kReference));

        ClientTable* clients = w.findChild<ComparisonView*>()->clients();
        auto* limiter = clients->findChild<QComboBox*>(QStringLiteral("limiter"));
        limiter->setCurrentIndex(1);
        QCOMPARE(clients->rowCount(), 2);
        qint64 perClient = 0;
        for (int r = 0; r < clients->rowCount(); ++r)
            perClient += clients->row(r).constLast().toLongLong();
        QCOMPARE(perClient, 118);

        // The marks: one per bucket that has any, the counts those of the run, named.
        TimelineChart* chart = w.timelines().value(1);
        QTRY_VERIFY(chart->disagreementSeries()->isVisible());
        QVERIFY2(chart->disagreementSeries()->name().contains(QStringLiteral("its reference")),
                 qPrintable(chart->disagreementSeries()->name()));
        qint64 marked = 0;
        for (const qint64 n : w.lastSnapshot().limiters[1].bucketDisagreed)
            marked += n;
        QCOMPARE(marked, 118);
        QVERIFY(chart->disagreementSeries()->count() > 0);
        // The log done right never disagreed: nothing marked, no legend entry for it.
        QVERIFY(!w.timelines().value(2)->disagreementSeries()->isVisible());
        QVERIFY(!w.timelines().value(0)->disagreementSeries()->isVisible());

        // The cost, each measured apart once the run is over.
        RedisCostView* cost = w.findChild<ComparisonView*>()->cost();
        QTRY_COMPARE_WITH_TIMEOUT(cost->scriptRows(), 2, 20000);
        for (int r = 0; r < 2; ++r) {
            const QStringList row = cost->scriptRow(r);
            QCOMPARE(row.value(0), s.limiters[r + 1].name);
            for (int c = 1; c <= 4; ++c) {
                bool ok = false;
                const double figure = QLocale().toDouble(row.value(c), &ok);
                QVERIFY2(ok && figure > 0, qPrintable(row.join(QStringLiteral(" | "))));
            }
        }
        // The log keyed by time calls ZREMRANGEBYSCORE, ZCARD, ZADD and PEXPIRE for a grant:
        // more than one command per decision, as its reference's.
        QVERIFY(QLocale().toDouble(cost->scriptRow(0).value(3)) > 1.0);
        forget(s);
        w.setWindowModified(false);
    }

    // A click on the script's timeline where it disagreed: the Why? window shows the script's
    // raw reply beside the reference's decision and reason.
    void whyShowsTheRawReplyBesideTheReference() {
        MainWindow w;
        const Scenario s = renamedExample(kLogs);
        runToEnd(w, s);
        if (QTest::currentTestFailed())
            return;
        const QVector<qint64>& perBucket = w.lastSnapshot().limiters[1].bucketDisagreed;
        int bucket = 0;
        while (bucket < perBucket.size() && perBucket[bucket] == 0)
            ++bucket;
        QVERIFY(bucket < perBucket.size());
        TimelineChart* chart = w.timelines().value(1);
        const double seconds = (bucket + 0.5) * double(s.bucketMs) / 1000.0;
        QSignalSpy explained(w.controller(), &RunController::explained);
        const QPointF scene = chart->chart()->mapToPosition(QPointF(seconds, 1.0));
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, chart->mapFromScene(scene));
        QTRY_COMPARE_WITH_TIMEOUT(explained.count(), 1, 30000);
        const QString text = w.findChild<ExplanationDialog*>()->view()->plainText();
        QVERIFY2(text.contains(QStringLiteral("Your script and its reference")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Your script's reply")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("The reference, sliding window")), qPrintable(text));
        const Explanation e = explained.first().first().value<Explanation>();
        QVERIFY(!e.scriptReply.isEmpty() && e.reference);
        QVERIFY2(text.contains(e.scriptReply), qPrintable(text));
        QVERIFY2(text.contains(e.reference->reason), qPrintable(text));
        QVERIFY2(text.contains(e.decision.allowed == e.reference->decision.allowed
                                   ? QStringLiteral("They agree")
                                   : QStringLiteral("They disagree")),
                 qPrintable(text));
        forget(s);
        w.setWindowModified(false);
    }

    // A disagreement says so in words (not only in colour), whichever way it goes.
    void disagreementSaidInWords() {
        Explanation e;
        e.spec.name = QStringLiteral("mine");
        e.decision.allowed = true;
        e.scriptReply = QStringLiteral("[1, 0, 0]");
        ReferenceDecision r;
        r.spec.type = LimiterType::SlidingWindow;
        r.spec.rules = {{10, 1000}};
        r.decision.allowed = false;
        r.reason = QStringLiteral("10 per 1000 ms held 10 of 10");
        e.reference = r;
        ExplanationView view;
        view.show(e);
        const QString text = view.plainText();
        QVERIFY2(text.contains(QStringLiteral(
                     "They disagree: your script granted it; the reference refuses it.")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[1, 0, 0]")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("10 per 1000 ms held 10 of 10")), qPrintable(text));
    }
};

QTEST_MAIN(TestWindowScript)
#include "tst_window_script.moc"
