// TrafficEditor's groups (traffic.groups) as a table, one row per group: every shipped scenario
// with groups, and a group of each shape type, loads and writes back the same JSON; each cell's
// edit changes its field and emits edited(); a parser error marks the cell its JSON path names;
// a shape type chosen and left keeps its fields; the fields the table has no column for are
// edited as JSON; Add and Remove group; without rows the shape and clients above apply; the
// table does not widen the scenario dock.

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "editors/groups_section.h"
#include "editors/shape_json_dialog.h"
#include "editors/traffic_editor.h"
#include "scenario/scenario.h"

using namespace ratelab;

namespace {

const char* const kUsersAndAttacker =
    R"([{"name": "users", "clients": 95, "shape": {"type": "poisson", "rate": 40}},
        {"name": "attacker", "clients": 1, "shape": {"type": "constant", "rate": 30}}])";

QByteArray scenarioWith(const QByteArray& groups) {
    return QByteArray(R"({"limiters": [{"type": "token_bucket", "name": "x", "rate": 1,
        "interval_ms": 1000}], "traffic": {"groups": )") +
           groups + R"(, "duration_s": 4, "seed": 5}, "bucket_ms": 250})";
}

// One JSON value in one line, without spaces.
QByteArray compact(const QJsonValue& value) {
    return QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
}

QByteArray compactJson(const QByteArray& json) {
    return compact(QJsonDocument::fromJson("[" + json + "]").array().at(0));
}

GroupsSection* section(TrafficEditor& editor) {
    return editor.findChild<GroupsSection*>();
}

QTableWidget* table(TrafficEditor& editor) {
    return editor.findChild<QTableWidget*>(QStringLiteral("groups"));
}

template <class Cell>
Cell* cell(TrafficEditor& editor, int row, int column) {
    return qobject_cast<Cell*>(table(editor)->cellWidget(row, column));
}

// The group `row` as the editor's traffic writes it.
QByteArray writtenGroup(TrafficEditor& editor, int row) {
    Scenario scenario;
    scenario.traffic = *editor.traffic();
    return compact(scenarioToJson(scenario)
                       .value(QLatin1String("traffic"))
                       .toObject()
                       .value(QLatin1String("groups"))
                       .toArray()
                       .at(row));
}

void load(TrafficEditor& editor, const QByteArray& groups) {
    const Scenario scenario = parseScenarioJson(scenarioWith(groups), QDir::currentPath());
    editor.setTraffic(scenario.traffic, scenario.bucketMs);
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
}

void chooseType(TrafficEditor& editor, int row, const QString& type) {
    QComboBox* box = cell<QComboBox>(editor, row, GroupsSection::kShape);
    box->setCurrentIndex(box->findData(type));
}

}  // namespace

class TestTrafficEditorGroups : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QFile trace(tracePath());
        QVERIFY(trace.open(QIODevice::WriteOnly));
        trace.write("t_ms,client,permits\n0,bot-a,1\n250,bot-b,2\n2000,bot-a,1\n");
    }

    void roundTrip_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("rateCell");  // the class of group 0's Rate cell; empty: any
        const QString source = qEnvironmentVariable("RATELAB_SOURCE_DIR");
        QVERIFY2(!source.isEmpty(), "RATELAB_SOURCE_DIR is not set (run through ctest)");
        const QDir examples(source + QStringLiteral("/resources/scenarios"));
        int withGroups = 0;
        for (const QString& name : examples.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            QFile file(examples.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray json = file.readAll();
            if (json.contains("\"groups\"")) {
                QTest::newRow(qPrintable(name)) << json << QString();
                ++withGroups;
            }
        }
        QVERIFY(withGroups >= 2);
        const QByteArray attacker =
            R"(, {"name": "attacker", "clients": 2, "shape": {"type": "constant", "rate": 3}}])";
        const auto shapeRow = [&](const char* name, const QByteArray& shape, const char* rateCell) {
            QTest::newRow(name) << scenarioWith(R"([{"name": "g", "clients": 7, "shape": )" +
                                                shape + "}" + attacker)
                                << QString::fromLatin1(rateCell);
        };
        shapeRow("constant", R"({"type": "constant", "rate": 12.5})", "QLineEdit");
        shapeRow("poisson", R"({"type": "poisson", "rate": 0.3})", "QLineEdit");
        shapeRow("linear", R"({"type": "linear", "from": 0, "to": 20})", "QToolButton");
        shapeRow("sine", R"({"type": "sine", "mean": 10, "amplitude": 2.5, "period_s": 4})",
                 "QToolButton");
        shapeRow("burst", R"({"type": "burst", "rate": 5, "burst": 30, "every_s": 2})",
                 "QToolButton");
        shapeRow("step", R"({"type": "step", "stages": [{"rate": 4, "duration_s": 1},
                             {"rate": 0, "duration_s": 0.5}, {"rate": 9, "duration_s": 2}]})",
                 "QToolButton");
        QTest::newRow("replay")
            << scenarioWith("[" +
                            compact(QJsonObject{
                                {QLatin1String("name"), QStringLiteral("bots")},
                                {QLatin1String("shape"),
                                 QJsonObject{{QLatin1String("type"), QStringLiteral("replay")},
                                             {QLatin1String("trace"), tracePath()}}}}) +
                            attacker)
            << QStringLiteral("QToolButton");
    }
    void roundTrip() {
        QFETCH(QByteArray, json);
        QFETCH(QString, rateCell);
        const Scenario scenario = parseScenarioJson(json, QDir::currentPath());
        TrafficEditor editor;
        QSignalSpy edited(section(editor), &GroupsSection::edited);
        editor.setTraffic(scenario.traffic, scenario.bucketMs);
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QCOMPARE(table(editor)->rowCount(), scenario.traffic.groups.size());
        if (!rateCell.isEmpty()) {
            QWidget* rate = table(editor)->cellWidget(0, GroupsSection::kRate);
            QCOMPARE(QString::fromLatin1(rate->metaObject()->className()), rateCell);
        }
        Scenario back = scenario;
        back.traffic = *editor.traffic();
        back.bucketMs = editor.bucketMs();
        QCOMPARE(QJsonDocument(scenarioToJson(back)).toJson(),
                 QJsonDocument(scenarioToJson(scenario)).toJson());
        QCOMPARE(edited.count(), 0);  // loading is no edit
    }

    void cellEdits_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("group");  // the row's group written; empty: invalid
        QTest::addColumn<QString>("error");     // the editor's error (its start)
        const int name = GroupsSection::kName, clients = GroupsSection::kClients;
        const int rate = GroupsSection::kRate;
        QTest::newRow("name") << 1 << name << "bot" << compactJson(R"({"name": "bot", "clients": 1,
                                             "shape": {"type": "constant", "rate": 30}})")
                              << QString();
        QTest::newRow("clients") << 0 << clients << "50"
                                 << compactJson(R"({"name": "users", "clients": 50,
                                                "shape": {"type": "poisson", "rate": 40}})")
                                 << QString();
        QTest::newRow("no clients: 1")
            << 1 << clients << "" << compactJson(R"({"name": "attacker", "clients": 1,
                                                 "shape": {"type": "constant", "rate": 30}})")
            << QString();
        QTest::newRow("rate") << 0 << rate << "12.5"
                              << compactJson(R"({"name": "users", "clients": 95,
                                             "shape": {"type": "poisson", "rate": 12.5}})")
                              << QString();
        QTest::newRow("0 clients") << 1 << clients << "0" << QByteArray()
                                   << QStringLiteral("$.traffic.groups[1].clients: ");
        QTest::newRow("clients not a number") << 1 << clients << "abc" << QByteArray()
                                              << QStringLiteral("$.traffic.groups[1].clients: ");
        QTest::newRow("no rate") << 0 << rate << "" << QByteArray()
                                 << QStringLiteral("$.traffic.groups[0].shape.rate: missing");
        QTest::newRow("duplicate name") << 1 << name << "users" << QByteArray()
                                        << QStringLiteral("$.traffic.groups[1].name: duplicate");
        QTest::newRow("bad name") << 0 << name << "a b" << QByteArray()
                                  << QStringLiteral("$.traffic.groups[0].name: ");
    }
    void cellEdits() {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        QFETCH(QByteArray, group);
        QFETCH(QString, error);
        TrafficEditor editor;
        load(editor, kUsersAndAttacker);
        QSignalSpy edited(section(editor), &GroupsSection::edited);
        QLineEdit* field = cell<QLineEdit>(editor, row, column);
        QVERIFY(field);
        field->setText(text);
        QCOMPARE(edited.count(), 1);
        if (group.isEmpty()) {
            QVERIFY(!editor.isValid());
            QVERIFY2(editor.errorText().startsWith(error), qPrintable(editor.errorText()));
            QVERIFY(field->property("invalid").toBool());
            // The message right under the table, in the groups' section.
            QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("error"))->parentWidget(),
                     section(editor));
            return;
        }
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QCOMPARE(writtenGroup(editor, row), group);
        QCOMPARE(editor.traffic()->groups.size(), 2);
    }

    // A type chosen starts from the rate; the type left gets its fields back when chosen again.
    void shapeTypes_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QByteArray>("shape");  // the attacker's written shape
        QTest::addColumn<QString>("error");
        QTest::newRow("poisson") << "poisson" << compactJson(R"({"type": "poisson", "rate": 30})")
                                 << QString();
        QTest::newRow("linear") << "linear"
                                << compactJson(R"({"type": "linear", "from": 0, "to": 30})")
                                << QString();
        QTest::newRow("sine") << "sine"
                              << compactJson(R"({"type": "sine", "mean": 30, "amplitude": 15,
                                             "period_s": 10})")
                              << QString();
        QTest::newRow("burst") << "burst"
                               << compactJson(R"({"type": "burst", "rate": 30, "burst": 10,
                                              "every_s": 1})")
                               << QString();
        QTest::newRow("step") << "step" << compactJson(R"({"type": "step",
                                             "stages": [{"rate": 30, "duration_s": 5}]})")
                              << QString();
        QTest::newRow("replay: no trace yet")
            << "replay" << QByteArray()
            << QStringLiteral("$.traffic.groups[1].shape.trace: must not be empty");
    }
    void shapeTypes() {
        QFETCH(QString, type);
        QFETCH(QByteArray, shape);
        QFETCH(QString, error);
        TrafficEditor editor;
        load(editor, kUsersAndAttacker);
        const QByteArray attacker = writtenGroup(editor, 1);
        QSignalSpy edited(section(editor), &GroupsSection::edited);
        chooseType(editor, 1, type);
        QCOMPARE(edited.count(), 1);
        QWidget* rate = table(editor)->cellWidget(1, GroupsSection::kRate);
        if (shape.isEmpty()) {
            QVERIFY2(editor.errorText().startsWith(error), qPrintable(editor.errorText()));
            QVERIFY(rate->property("invalid").toBool());
            QVERIFY(!cell<QLineEdit>(editor, 1, GroupsSection::kClients)->isEnabled());
        } else {
            QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
            QVERIFY(writtenGroup(editor, 1).contains(compactJson(shape)));
        }
        // Edited while poisson: back at constant, then at poisson again, each keeps its own.
        if (type == QLatin1String("poisson"))
            cell<QLineEdit>(editor, 1, GroupsSection::kRate)->setText(QStringLiteral("7"));
        chooseType(editor, 1, QStringLiteral("constant"));
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QCOMPARE(writtenGroup(editor, 1), attacker);
        QVERIFY(cell<QLineEdit>(editor, 1, GroupsSection::kClients)->isEnabled());
        chooseType(editor, 1, type);
        if (type == QLatin1String("poisson"))
            QCOMPARE(cell<QLineEdit>(editor, 1, GroupsSection::kRate)->text(), QStringLiteral("7"));
        else if (!shape.isEmpty())
            QVERIFY(writtenGroup(editor, 1).contains(compactJson(shape)));
    }

    // The Rate cell's button edits the shape as JSON; OK takes only a JSON object.
    void shapeJson_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("dialogError");  // the dialog stays open
        QTest::addColumn<QString>("summary");      // the Rate cell after OK
        QTest::addColumn<QString>("error");        // the editor's, after OK
        QTest::newRow("not JSON") << "{\"type\": "
                                  << "Not JSON: " << QString() << QString();
        QTest::newRow("not an object") << "[1]"
                                       << "Expected one JSON object" << QString() << QString();
        QTest::newRow("three stages")
            << R"({"type": "step", "stages": [{"rate": 1, "duration_s": 1},
                  {"rate": 2, "duration_s": 1}, {"rate": 3, "duration_s": 1}]})"
            << QString() << "3 stages" << QString();
        QTest::newRow("a ramp") << R"({"type": "linear", "from": 2, "to": 8})" << QString()
                                << "2→8/s" << QString();
        QTest::newRow("unknown field")
            << R"({"type": "step", "stages": [{"rate": 1, "duration_s": 1}], "every": 2})"
            << QString() << "1 stage"
            << "$.traffic.groups[0].shape.every: unknown field";
        QTest::newRow("unknown type: at the Shape cell")
            << R"({"type": "poison", "rate": 5})" << QString() << R"({"rate":5})"
            << "$.traffic.groups[0].shape.type: ";
    }
    void shapeJson() {
        QFETCH(QString, text);
        QFETCH(QString, dialogError);
        QFETCH(QString, summary);
        QFETCH(QString, error);
        TrafficEditor editor;
        load(editor, R"([{"name": "ramp", "clients": 3, "shape": {"type": "step", "stages":
                         [{"rate": 5, "duration_s": 1}, {"rate": 9, "duration_s": 2}]}}])");
        auto* button = cell<QToolButton>(editor, 0, GroupsSection::kRate);
        QVERIFY(button);
        QCOMPARE(button->text(), QStringLiteral("2 stages"));
        QSignalSpy edited(section(editor), &GroupsSection::edited);
        button->click();
        QPointer<ShapeJsonDialog> dialog = editor.findChild<ShapeJsonDialog*>();
        QVERIFY(dialog);
        auto* json = dialog->findChild<QPlainTextEdit*>(QStringLiteral("shapeJson"));
        QVERIFY(json->toPlainText().contains(QLatin1String("\"stages\"")));
        json->setPlainText(text);
        dialog->accept();
        if (!dialogError.isEmpty()) {
            QVERIFY(dialog->isVisible());
            const auto* message = dialog->findChild<QLabel*>(QStringLiteral("shapeJsonError"));
            QVERIFY2(message->text().startsWith(dialogError), qPrintable(message->text()));
            QCOMPARE(edited.count(), 0);
            dialog->reject();
            return;
        }
        QCOMPARE(edited.count(), 1);
        QWidget* rate = table(editor)->cellWidget(0, GroupsSection::kRate);
        QCOMPARE(qobject_cast<QToolButton*>(rate)->text(), summary);
        if (!error.isEmpty()) {
            QVERIFY2(editor.errorText().startsWith(error), qPrintable(editor.errorText()));
            const int marked = error.endsWith(QLatin1String(".type: ")) ? GroupsSection::kShape
                                                                        : GroupsSection::kRate;
            QVERIFY(table(editor)->cellWidget(0, marked)->property("invalid").toBool());
            return;
        }
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QCOMPARE(writtenGroup(editor, 0),
                 compactJson(R"({"name": "ramp", "clients": 3, "shape": )" + text.toUtf8() + "}"));
    }

    // Remove group takes the current row, or the last; without rows the form's shape applies.
    void addAndRemove_data() {
        QTest::addColumn<int>("current");  // the row current at the first removal; -1: none
        QTest::addColumn<QString>("left");
        QTest::newRow("none current: the last") << -1 << "group1";
        QTest::newRow("the first") << 0 << "group2";
    }
    void addAndRemove() {
        QFETCH(int, current);
        QFETCH(QString, left);
        TrafficEditor editor;
        auto* add = editor.findChild<QPushButton*>(QStringLiteral("addGroup"));
        auto* remove = editor.findChild<QPushButton*>(QStringLiteral("removeGroup"));
        auto* hint = editor.findChild<QLabel*>(QStringLiteral("groupsHint"));
        const QString noGroups = hint->text();
        QVERIFY(!remove->isEnabled());
        QSignalSpy edited(section(editor), &GroupsSection::edited);
        add->click();
        add->click();
        QCOMPARE(edited.count(), 2);
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QCOMPARE(editor.traffic()->groups.size(), 2);
        QCOMPARE(writtenGroup(editor, 1), compactJson(R"({"name": "group2", "clients": 1,
                             "shape": {"type": "constant", "rate": 10}})"));
        QCOMPARE(editor.traffic()->clients, 2);
        QVERIFY(hint->text() != noGroups);
        table(editor)->setCurrentCell(current, GroupsSection::kName);
        remove->click();
        QCOMPARE(edited.count(), 3);
        QCOMPARE(editor.traffic()->groups.size(), 1);
        QCOMPARE(editor.traffic()->groups[0].name, left);
        table(editor)->setCurrentCell(-1, 0);
        remove->click();
        QCOMPARE(edited.count(), 4);
        QVERIFY(!remove->isEnabled());
        QCOMPARE(hint->text(), noGroups);
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QVERIFY(editor.traffic()->groups.isEmpty());
        QCOMPARE(editor.traffic()->shape.rate, 10.0);  // the shape field's
        QCOMPARE(editor.traffic()->clients, 1);
    }

    // Loaded groups leave the shape and clients fields to the first group that lasts as long as
    // the run, disabled while there are groups; removing them all gives that group's traffic.
    void removingLoadedGroups_data() {
        QTest::addColumn<QByteArray>("groups");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("clients");
        QTest::addColumn<double>("rate");
        QTest::newRow("users and an attacker")
            << QByteArray(kUsersAndAttacker) << "poisson" << 95 << 40.0;
        QTest::newRow("a step first")
            << QByteArray(R"([{"name": "s", "clients": 3, "shape": {"type": "step", "stages":
                             [{"rate": 5, "duration_s": 1}]}}, {"name": "b", "clients": 4,
                             "shape": {"type": "burst", "rate": 2, "burst": 5, "every_s": 1}}])")
            << "burst" << 4 << 2.0;
        QTest::newRow("only a step")
            << QByteArray(R"([{"name": "s", "clients": 3, "shape": {"type": "step", "stages":
                             [{"rate": 5, "duration_s": 1}]}}])")
            << "constant" << 1 << 10.0;
    }
    void removingLoadedGroups() {
        QFETCH(QByteArray, groups);
        QFETCH(QString, shape);
        QFETCH(int, clients);
        QFETCH(double, rate);
        TrafficEditor editor;
        load(editor, groups);
        auto* type = editor.findChild<QComboBox*>(QStringLiteral("shape"));
        auto* count = editor.findChild<QLineEdit*>(QStringLiteral("clients"));
        QVERIFY(!type->isEnabled());
        QVERIFY(!count->isEnabled());
        QCOMPARE(type->currentText(), shape);
        while (table(editor)->rowCount() > 0)
            section(editor)->removeGroup();
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QVERIFY(type->isEnabled());
        QVERIFY(count->isEnabled());
        QCOMPARE(editor.traffic()->clients, clients);
        QCOMPARE(editor.traffic()->shape.rate, rate);
        QCOMPARE(editor.traffic()->durationS, 4.0);
    }

    // The table shares the dock's width: loading groups (a long summary among them) asks for no
    // more width than the form without them.
    void narrow() {
        TrafficEditor editor;
        QWidget* content = editor.findChild<QScrollArea*>()->widget();
        const int minimum = content->minimumSizeHint().width();
        const int preferred = content->sizeHint().width();
        load(editor, R"([{"name": "a-rather-long-group-name", "clients": 9999, "shape":
                         {"type": "sine", "mean": 1234.5, "amplitude": 1000.25,
                          "period_s": 3600}}, {"name": "b", "shape": {"type": "poisson",
                          "rate": 40}}])");
        QCOMPARE(content->minimumSizeHint().width(), minimum);
        QCOMPARE(content->sizeHint().width(), preferred);
        QVERIFY(minimum <= 390);
    }

private:
    QString tracePath() const { return dir_.filePath(QStringLiteral("bots.csv")); }

    QTemporaryDir dir_;
};

QTEST_MAIN(TestTrafficEditorGroups)
#include "tst_traffic_editor_groups.moc"
