// The editors' fields for hold, leaks and gateways: the traffic editor's release and gateways
// sections and the limiter editor's gateway use write the JSON the engine's writer writes (the
// examples round-trip to identical JSON), put the parser's errors at their field, enable what
// their choice uses, and announce every edit.

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QtTest>

#include "algorithms/algorithm_view.h"
#include "editors/gateways_section.h"
#include "editors/limiter_editor.h"
#include "editors/release_section.h"
#include "editors/traffic_editor.h"
#include "input_error.h"
#include "scenario/scenario.h"
#include "support/editor_widgets.h"

using namespace ratelab;

namespace {

QString examplesDir() {
    const QString root = qEnvironmentVariable("RATELAB_SOURCE_DIR");
    if (!root.isEmpty())
        return QDir(root).filePath(QStringLiteral("resources/scenarios"));
    return QFINDTESTDATA("../resources/scenarios");
}

// The traffic part of the scenario JSON the engine writes for `traffic`.
QJsonObject trafficJson(const TrafficSpec& traffic) {
    Scenario scenario;
    scenario.traffic = traffic;
    return scenarioToJson(scenario).value(QLatin1String("traffic")).toObject();
}

QByteArray text(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// Applies "objectName=value" edits as a user makes them: combos by data, spin boxes and line
// edits typed into, check boxes "on"/"off".
void apply(QWidget& editor, const QStringList& edits) {
    for (const QString& edit : edits) {
        const qsizetype equals = edit.indexOf(QLatin1Char('='));
        QVERIFY2(equals > 0, qPrintable(edit));
        const QString name = edit.left(equals);
        const QString value = edit.mid(equals + 1);
        auto* widget = test::child<QWidget>(editor, name);
        QVERIFY2(widget, qPrintable(QStringLiteral("no field ") + name));
        QVERIFY2(widget->isEnabled(), qPrintable(name + QStringLiteral(" is disabled")));
        test::typeInto(widget, value);
        if (QTest::currentTestFailed())
            return;
    }
}

// The shown error names `where`, sits under `field` and marks it.
void checkErrorAt(QWidget& editor, const QString& errorText, const QString& where,
                  const QString& field) {
    QVERIFY2(errorText.startsWith(where + QStringLiteral(": ")), qPrintable(errorText));
    auto* widget = test::child<QWidget>(editor, field);
    auto* label = test::child<QLabel>(editor, QStringLiteral("error"));
    QVERIFY(widget && label);
    QCOMPARE(label->text(), errorText);
    QVERIFY(label->isVisible());
    QVERIFY2(test::isRightUnder(label, widget), qPrintable(field));
    QVERIFY(widget->property("invalid").toBool());
}

const QLatin1String kHold("hold"), kLeakPct("leak_pct"), kGateways("gateways"), kGateway("gateway");

// The current row of a release_data or gateways_data table: its edits made in the section
// `Section` (each announced by the section's edited() and the editor's trafficChanged()), then
// the written traffic's `keys` compared with `json`, or the error with its place.
template <typename Section>
void checkSectionEdits(std::initializer_list<QLatin1String> keys) {
    QFETCH(QStringList, edits);
    QFETCH(QString, json);
    QFETCH(QString, where);
    QFETCH(QString, field);
    TrafficEditor editor;
    editor.resize(480, 1800);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto* section = editor.findChild<Section*>();
    QVERIFY(section);
    QSignalSpy sectionEdits(section, &TrafficSection::edited);
    QSignalSpy changed(&editor, &TrafficEditor::trafficChanged);
    apply(editor, edits);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(!sectionEdits.isEmpty());
    QCOMPARE(changed.count(), sectionEdits.count());
    if (json.isEmpty()) {
        QVERIFY(!editor.isValid());
        checkErrorAt(editor, editor.errorText(), where, field);
        return;
    }
    QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
    const QJsonObject written = trafficJson(*editor.traffic());
    QJsonObject part;
    for (const QLatin1String key : keys) {
        if (written.contains(key))
            part.insert(key, written.value(key));
    }
    QCOMPARE(QString::fromUtf8(text(part)), json);
}

}  // namespace

class TestGatewayEditors : public QObject {
    Q_OBJECT

private slots:
    // Every example scenario: its traffic and each of its limiters come back from the editors
    // as the very JSON the engine writes.
    void examplesRoundTrip_data() {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(examplesDir()).entryList({QStringLiteral("*.json")});
        QVERIFY2(!files.isEmpty(), qPrintable(examplesDir()));
        for (const QString& file : files)
            QTest::newRow(qPrintable(file)) << file;
        // Those that use what these fields edit are among them.
        for (const char* uses : {"concurrency-leaks.json", "gateways-batched-and-skewed.json",
                                 "gateways-local-and-cached.json"})
            QVERIFY2(files.contains(QLatin1String(uses)), uses);
    }
    void examplesRoundTrip() {
        QFETCH(QString, file);
        Scenario scenario;
        try {
            scenario = loadScenarioFile(QDir(examplesDir()).filePath(file));
        } catch (const InputError& error) {
            QFAIL(qPrintable(error.message()));
        }
        TrafficEditor traffic;
        // Start elsewhere, so that every field has to be filled.
        apply(traffic, {QStringLiteral("holdType=exponential"), QStringLiteral("holdMs=7"),
                        QStringLiteral("leakPct=3"), QStringLiteral("gatewayCount=4"),
                        QStringLiteral("balance=sticky"), QStringLiteral("gatewaySkews=1,2,3,4")});
        QVERIFY2(traffic.isValid(), qPrintable(traffic.errorText()));
        traffic.setTraffic(scenario.traffic, scenario.bucketMs);
        QVERIFY2(traffic.isValid(), qPrintable(traffic.errorText()));
        QCOMPARE(text(trafficJson(*traffic.traffic())), text(trafficJson(scenario.traffic)));

        LimiterEditor limiter;
        for (const LimiterSpec& spec : scenario.limiters) {
            limiter.setSpec(spec);
            QVERIFY2(limiter.isValid(), qPrintable(limiter.errorText()));
            // (A script limiter's file is named by its absolute path in the window.)
            QCOMPARE(text(limiterSpecToJson(*limiter.spec(), SpecFiles::Resolved)),
                     text(limiterSpecToJson(spec, SpecFiles::Resolved)));
            // The form writes "gateway" as gatewayUseToJson does, and only when not the default.
            const QJsonObject form = limiter.formJson();
            QCOMPARE(form.contains(kGateway), !spec.gateway.isDefault());
            if (!spec.gateway.isDefault())
                QCOMPARE(text(form.value(kGateway).toObject()),
                         text(gatewayUseToJson(spec.gateway)));
        }
    }

    // Typed into the release section: the "hold" and "leak_pct" written, or the parser's error
    // at its field.
    void release_data() {
        QTest::addColumn<QStringList>("edits");
        QTest::addColumn<QString>("json");  // {"hold": …, "leak_pct": …} written; "" if invalid
        QTest::addColumn<QString>("where");  // the error's path
        QTest::addColumn<QString>("field");  // the field it is shown at
        const auto row = [](const char* name, QStringList edits, const char* json,
                            const char* where = "", const char* field = "") {
            QTest::newRow(name) << edits << QString::fromUtf8(json) << QString::fromUtf8(where)
                                << QString::fromUtf8(field);
        };
        row("back to none", {QStringLiteral("holdType=constant"), QStringLiteral("holdType=none")},
            "{}");
        row("constant", {QStringLiteral("holdType=constant"), QStringLiteral("holdMs=250")},
            R"({"hold":{"ms":250,"type":"constant"}})");
        row("constant 0 ms", {QStringLiteral("holdType=constant"), QStringLiteral("holdMs=0")},
            R"({"hold":{"ms":0,"type":"constant"}})");
        row("exponential with leaks",
            {QStringLiteral("holdType=exponential"), QStringLiteral("holdMs=200"),
             QStringLiteral("leakPct=5")},
            R"({"hold":{"mean_ms":200,"type":"exponential"},"leak_pct":5})");
        row("a fraction of a percent",
            {QStringLiteral("holdType=exponential"), QStringLiteral("holdMs=30"),
             QStringLiteral("leakPct=0.25")},
            R"({"hold":{"mean_ms":30,"type":"exponential"},"leak_pct":0.25})");
        row("exponential mean 0",
            {QStringLiteral("holdType=exponential"), QStringLiteral("holdMs=0")}, "",
            "$.traffic.hold.mean_ms", "holdMs");
    }
    void release() { checkSectionEdits<ReleaseSection>({kHold, kLeakPct}); }

    // The hold time and the leak share only with a hold.
    void releaseEnabled() {
        TrafficEditor editor;
        auto* ms = editor.findChild<QSpinBox*>(QStringLiteral("holdMs"));
        auto* leak = editor.findChild<QDoubleSpinBox*>(QStringLiteral("leakPct"));
        QVERIFY(ms && leak);
        QVERIFY(!ms->isEnabled() && !leak->isEnabled());
        apply(editor, {QStringLiteral("holdType=constant")});
        QVERIFY(ms->isEnabled() && leak->isEnabled());
        apply(editor, {QStringLiteral("leakPct=10"), QStringLiteral("holdType=none")});
        QVERIFY(!ms->isEnabled() && !leak->isEnabled());
        // A leak share without a hold is not written (the parser would refuse it).
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QCOMPARE(editor.traffic()->leakPct, 0.0);
    }

    void gateways_data() {
        QTest::addColumn<QStringList>("edits");
        QTest::addColumn<QString>("json");  // {"gateways": …} written; "" if invalid
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("field");
        const auto row = [](const char* name, QStringList edits, const char* json,
                            const char* where = "", const char* field = "") {
            QTest::newRow(name) << edits << QString::fromUtf8(json) << QString::fromUtf8(where)
                                << QString::fromUtf8(field);
        };
        row("back to one gateway",
            {QStringLiteral("gatewayCount=2"), QStringLiteral("gatewayCount=1")}, "{}");
        row("three, round robin", {QStringLiteral("gatewayCount=3")},
            R"({"gateways":{"balance":"round_robin","count":3}})");
        row("sticky with skews",
            {QStringLiteral("gatewayCount=3"), QStringLiteral("balance=sticky"),
             QStringLiteral("gatewaySkews=0, 40,-30")},
            R"({"gateways":{"balance":"sticky","clock_skew_ms":[0,40,-30],"count":3}})");
        row("one skewed gateway", {QStringLiteral("gatewaySkews=25")},
            R"({"gateways":{"balance":"round_robin","clock_skew_ms":[25],"count":1}})");
        row("too few skews", {QStringLiteral("gatewayCount=3"), QStringLiteral("gatewaySkews=1,2")},
            "", "$.traffic.gateways.clock_skew_ms", "gatewaySkews");
        row("a skew not a number",
            {QStringLiteral("gatewayCount=2"), QStringLiteral("gatewaySkews=5, soon")}, "",
            "$.traffic.gateways.clock_skew_ms[1]", "gatewaySkews");
        row("a skew beyond a day",
            {QStringLiteral("gatewayCount=2"), QStringLiteral("gatewaySkews=0, 86400001")}, "",
            "$.traffic.gateways.clock_skew_ms[1]", "gatewaySkews");
    }
    void gateways() { checkSectionEdits<GatewaysSection>({kGateways}); }

    // The balance only matters with more than one gateway.
    void balanceEnabled() {
        TrafficEditor editor;
        auto* balance = editor.findChild<QComboBox*>(QStringLiteral("balance"));
        QVERIFY(balance);
        QVERIFY(!balance->isEnabled());
        apply(editor, {QStringLiteral("gatewayCount=2")});
        QVERIFY(balance->isEnabled());
    }

    // The new sections do not widen the form: their long choice titles show whole in the list
    // only. The hold's field is called the mean for an exponential hold.
    void releaseAndGatewaysStayNarrow() {
        TrafficEditor editor;
        int widest = 0;
        QList<TrafficSection*> mine;
        for (TrafficSection* section : editor.findChildren<TrafficSection*>()) {
            if (qobject_cast<ReleaseSection*>(section) || qobject_cast<GatewaysSection*>(section))
                mine << section;
            else
                widest = std::max(widest, section->minimumSizeHint().width());
        }
        QCOMPARE(mine.size(), 2);
        for (const TrafficSection* section : mine)
            QVERIFY2(section->minimumSizeHint().width() <= widest * 11 / 10,
                     qPrintable(QStringLiteral("%1: %2 px, the others at most %3")
                                    .arg(section->title())
                                    .arg(section->minimumSizeHint().width())
                                    .arg(widest)));
        auto* ms = editor.findChild<QSpinBox*>(QStringLiteral("holdMs"));
        auto* form = qobject_cast<QFormLayout*>(ms->parentWidget()->layout());
        QVERIFY(form);
        auto* label = qobject_cast<QLabel*>(form->labelForField(ms));
        QVERIFY(label);
        apply(editor, {QStringLiteral("holdType=exponential")});
        QCOMPARE(label->text(), QStringLiteral("Mean hold"));
        apply(editor, {QStringLiteral("holdType=constant")});
        QCOMPARE(label->text(), QStringLiteral("Hold time"));
    }

    // The gateway use's fields start and end where the limiter editor's other fields do.
    void gatewayUseLinesUp() {
        LimiterEditor editor;
        editor.resize(420, 900);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        test::settle();
        auto* name = test::child<QWidget>(editor, QStringLiteral("name"));
        auto* mode = test::child<QWidget>(editor, QStringLiteral("gatewayMode"));
        QVERIFY(name && mode);
        const QRect nameRect(name->mapTo(&editor, QPoint(0, 0)), name->size());
        const QRect modeRect(mode->mapTo(&editor, QPoint(0, 0)), mode->size());
        QCOMPARE(modeRect.left(), nameRect.left());
        QCOMPARE(modeRect.right(), nameRect.right());
    }

    // Every new field explains itself.
    void fieldHelp() {
        TrafficEditor traffic;
        LimiterEditor limiter;
        for (const char* name :
             {"holdType", "holdMs", "leakPct", "gatewayCount", "balance", "gatewaySkews"}) {
            auto* field = traffic.findChild<QWidget*>(QLatin1String(name));
            QVERIFY2(field && !field->toolTip().isEmpty(), name);
        }
        for (const char* name : {"gatewayMode", "cacheRefusals", "syncMs"}) {
            auto* field = limiter.findChild<QWidget*>(QLatin1String(name));
            QVERIFY2(field && !field->toolTip().isEmpty(), name);
        }
    }

    // The limiter editor's gateway use, for each type: what the form writes, what is enabled,
    // and the parser's errors at their field.
    void gatewayUse_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QStringList>("edits");
        QTest::addColumn<QString>("json");  // "gateway" written; "{}" none; "" if invalid
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("field");
        for (const AlgorithmView* view : algorithmViews()) {
            const QString type = view->algorithm().name();
            const QByteArray name = type.toUtf8();
            QTest::newRow(name + " shared") << type
                                            << QStringList{QStringLiteral("gatewayMode=local"),
                                                           QStringLiteral("gatewayMode=shared")}
                                            << QStringLiteral("{}") << QString() << QString();
            QTest::newRow(name + " cached refusals")
                << type << QStringList{QStringLiteral("cacheRefusals=on")}
                << QStringLiteral(R"({"cache_refusals":true,"mode":"shared"})") << QString()
                << QString();
            QTest::newRow(name + " local")
                << type << QStringList{QStringLiteral("gatewayMode=local")}
                << QStringLiteral(R"({"mode":"local"})") << QString() << QString();
        }
        QTest::newRow("fixed window batched")
            << QStringLiteral("fixed_window")
            << QStringList{QStringLiteral("gatewayMode=batched"), QStringLiteral("syncMs=250")}
            << QStringLiteral(R"({"mode":"batched","sync_ms":250})") << QString() << QString();
        QTest::newRow("batched every 0 ms")
            << QStringLiteral("fixed_window")
            << QStringList{QStringLiteral("gatewayMode=batched"), QStringLiteral("syncMs=0")}
            << QString() << QStringLiteral("$.gateway.sync_ms") << QStringLiteral("syncMs");
    }
    void gatewayUse() {
        QFETCH(QString, type);
        QFETCH(QStringList, edits);
        QFETCH(QString, json);
        QFETCH(QString, where);
        QFETCH(QString, field);
        LimiterEditor editor;
        editor.resize(480, 900);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        test::selectType(editor, type);
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QSignalSpy changed(&editor, &LimiterEditor::specChanged);
        QSignalSpy committed(&editor, &LimiterEditor::specCommitted);
        apply(editor, edits);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!changed.isEmpty());
        QVERIFY(!committed.isEmpty());
        test::settle();
        if (json.isEmpty()) {
            QVERIFY(!editor.isValid());
            checkErrorAt(editor, editor.errorText(), where, field);
            return;
        }
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        const QJsonObject form = editor.formJson();
        QCOMPARE(QString::fromUtf8(text(form.value(kGateway).toObject())), json);
        // The parsed spec writes the same.
        const QJsonObject spec = limiterSpecToJson(*editor.spec());
        QCOMPARE(spec.value(kGateway), form.value(kGateway));
    }

    // "batched" is offered where the engine takes it (the fixed window); the cache only with
    // shared, the sync interval only with batched.
    void gatewayUseEnabled() {
        LimiterEditor editor;
        auto* mode = editor.findChild<QComboBox*>(QStringLiteral("gatewayMode"));
        auto* cache = editor.findChild<QCheckBox*>(QStringLiteral("cacheRefusals"));
        auto* sync = editor.findChild<QSpinBox*>(QStringLiteral("syncMs"));
        QVERIFY(mode && cache && sync);
        auto* model = qobject_cast<QStandardItemModel*>(mode->model());
        QVERIFY(model);
        const int batched = mode->findData(QStringLiteral("batched"));
        for (const AlgorithmView* view : algorithmViews()) {
            test::selectType(editor, view->algorithm().name());
            QCOMPARE(model->item(batched)->isEnabled(), view->type() == LimiterType::FixedWindow);
        }
        test::selectType(editor, QStringLiteral("fixed_window"));
        QVERIFY(cache->isEnabled() && !sync->isEnabled());
        apply(editor, {QStringLiteral("gatewayMode=batched")});
        QVERIFY(!cache->isEnabled() && sync->isEnabled());
        apply(editor, {QStringLiteral("gatewayMode=local")});
        QVERIFY(!cache->isEnabled() && !sync->isEnabled());

        // Batched, then a type that does not allow it: the parser says so at the mode.
        apply(editor, {QStringLiteral("gatewayMode=batched")});
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        test::selectType(editor, QStringLiteral("token_bucket"));
        QVERIFY(!editor.isValid());
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        checkErrorAt(editor, editor.errorText(), QStringLiteral("$.gateway.mode"),
                     QStringLiteral("gatewayMode"));
    }

    // A loaded limiter's gateway use shows in the fields and survives an edit of another field.
    void gatewayUseLoaded() {
        LimiterSpec spec = algorithmOf(LimiterType::FixedWindow).defaults(QStringLiteral("w"));
        spec.gateway.mode = GatewayMode::Batched;
        spec.gateway.syncMs = 300;
        LimiterEditor editor;
        editor.setSpec(spec);
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("gatewayMode"))->currentData(),
                 QVariant(QStringLiteral("batched")));
        QCOMPARE(editor.findChild<QSpinBox*>(QStringLiteral("syncMs"))->value(), 300);
        apply(editor, {QStringLiteral("name=w2")});
        QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
        QVERIFY(editor.spec()->gateway == spec.gateway);
        // Another limiter without one: back to the default.
        editor.setSpec(algorithmOf(LimiterType::TokenBucket).defaults(QStringLiteral("t")));
        QVERIFY(editor.spec()->gateway.isDefault());
        QVERIFY(!editor.formJson().contains(kGateway));
    }
};

QTEST_MAIN(TestGatewayEditors)
#include "tst_gateway_editors.moc"
