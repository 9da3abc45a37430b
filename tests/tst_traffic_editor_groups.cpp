// TrafficEditor's groups (traffic.groups): typed as the scenario file's JSON array they replace
// the shape and the client count; a bad array is reported at the groups field with the parser's
// message; clearing them brings the shape and the clients back; loaded groups show as JSON.

#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QtTest>

#include "editors/traffic_editor.h"
#include "scenario/scenario.h"

using namespace ratelab;

namespace {

const char* const kGroups =
    R"([{"name": "users", "clients": 95, "shape": {"type": "poisson", "rate": 40}},
        {"name": "attacker", "shape": {"type": "constant", "rate": 30}}])";

QPlainTextEdit* groupsField(TrafficEditor& editor) {
    return editor.findChild<QPlainTextEdit*>(QStringLiteral("groups"));
}

}  // namespace

class TestTrafficEditorGroups : public QObject {
    Q_OBJECT

private slots:
    void typedGroups_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");  // empty: valid
        QTest::newRow("users and an attacker") << QString::fromUtf8(kGroups) << QString();
        QTest::newRow("not JSON") << QStringLiteral("[{\"name\": ")
                                  << QStringLiteral("$.traffic.groups: must be an array");
        QTest::newRow("a duplicate name")
            << QStringLiteral(R"([{"name": "a", "shape": {"type": "constant", "rate": 1}},
                                  {"name": "a", "shape": {"type": "constant", "rate": 1}}])")
            << QStringLiteral("$.traffic.groups[1].name: ");
    }
    void typedGroups() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        TrafficEditor editor;
        QVERIFY(editor.isValid());
        QVERIFY(groupsField(editor));
        QSignalSpy validity(&editor, &TrafficEditor::validityChanged);
        groupsField(editor)->setPlainText(text);
        if (!error.isEmpty()) {
            QVERIFY(!editor.isValid());
            QVERIFY2(editor.errorText().startsWith(error), qPrintable(editor.errorText()));
            QCOMPARE(validity.count(), 1);
            QCOMPARE(validity.last().at(0).toBool(), false);
            return;
        }
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        const TrafficSpec traffic = *editor.traffic();
        QCOMPARE(traffic.groups.size(), 2);
        QCOMPARE(traffic.groups[0].name, QStringLiteral("users"));
        QCOMPARE(traffic.groups[0].clients, 95);
        QCOMPARE(int(traffic.groups[0].shape.type), int(ShapeSpec::Type::Poisson));
        QCOMPARE(traffic.groups[1].shape.rate, 30.0);
        QCOMPARE(traffic.clients, 96);
        QCOMPARE(traffic.durationS, 10.0);  // the duration field's
        // Cleared: the shape and clients of the form again.
        groupsField(editor)->clear();
        QVERIFY(editor.isValid());
        QVERIFY(editor.traffic()->groups.isEmpty());
        QCOMPARE(editor.traffic()->shape.rate, 10.0);
        QCOMPARE(validity.count(), 0);
    }

    // Loaded groups show as the scenario file's JSON and give the same traffic back.
    void loadedGroups() {
        const Scenario scenario = parseScenarioJson(
            QByteArray(R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": 1,
                "interval_ms": 1000}], "traffic": {"groups": )") +
                kGroups + R"(, "duration_s": 4, "seed": 5}})",
            QString());
        TrafficEditor editor;
        editor.setTraffic(scenario.traffic, scenario.bucketMs);
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QVERIFY(groupsField(editor)->toPlainText().contains(QLatin1String("\"attacker\"")));
        const TrafficSpec traffic = *editor.traffic();
        QCOMPARE(traffic.groups.size(), 2);
        QCOMPARE(traffic.groups[1].name, QStringLiteral("attacker"));
        QCOMPARE(traffic.groups[1].clients, 1);
        QCOMPARE(traffic.durationS, 4.0);
        QCOMPARE(traffic.seed, quint64(5));
        // A traffic without groups empties the field.
        editor.setTraffic(TrafficSpec{}, 100);
        QVERIFY(groupsField(editor)->toPlainText().isEmpty());
    }
};

QTEST_MAIN(TestTrafficEditorGroups)
#include "tst_traffic_editor_groups.moc"
