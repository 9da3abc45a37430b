// Step in the window as a teacher drives it, offscreen against the fixture Redis, with the
// keyboard (F10 Step): requests are numbered from 0 as `ratelab explain --request` numbers them.
#include <QDir>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "editors/limiter_list_editor.h"
#include "explain/explanation_output.h"
#include "panels/explanation_view.h"
#include "run/run_controller.h"
#include "scenario/scenario.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/decision_panel.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A fixed window of `rate` per second under `perSecond` requests/s from one client for
// `seconds`, on a virtual clock at full speed from 2024-01-01T00:00:00Z.
QByteArray fixedWindowJson(const QString& name, int rate, int perSecond, int seconds) {
    return QStringLiteral(
               R"({"name": "stepping", "limiters": [{"type": "fixed_window", "name": "%1",
                   "rate": %2, "interval": 1, "unit": "seconds", "timezone": "UTC"}],
                   "traffic": {"shape": {"type": "constant", "rate": %3}, "duration_s": %4,
                               "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
                                         "speed": 0}}, "bucket_ms": 100})")
        .arg(name)
        .arg(rate)
        .arg(perSecond)
        .arg(seconds)
        .toUtf8();
}

void resetKeys(const Scenario& scenario) {
    auto router = routeFixture();
    for (const LimiterSpec& spec : scenario.limiters)
        makeLimiter(spec)->reset(*router);
}

}  // namespace

class TestWindowStepping : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-stepping"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
        qRegisterMetaType<StepSession::Step>();
    }

    // The window said "Request #4" for what `ratelab explain --request 3` explains. Now both
    // number from 0: the explanation, its mark, Continue's tooltip and the command line name
    // one request alike, and both say the counterfactuals are each setting alone, from the same
    // state.
    void requestsAreNumberedAsTheCommandLineDoes() {
        QTemporaryDir dir;
        const QString name = uniqueName(QStringLiteral("numbered"));
        const QString path = dir.filePath(QStringLiteral("numbered.json"));
        writeTestFile(path, fixedWindowJson(name, 3, 10, 2));
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        connectToFixture(w);
        QVERIFY(w.openScenario(path));
        QSignalSpy decided(w.controller(), &RunController::decided);
        for (int k = 1; k <= 4; ++k) {
            pressKey(w, Qt::Key_F10);
            QTRY_COMPARE_WITH_TIMEOUT(decided.count(), k, 10000);
        }
        const QString shown = w.decisions()->explanation()->plainText();
        QVERIFY2(shown.contains(QStringLiteral("refused")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("Request #3 at 00:00:00.300")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("numbered from 0")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("--limiter %1 --request 3").arg(name)),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("What would have let it through (%1)")
                                    .arg(counterfactualBasisText())),
                 qPrintable(shown));
        QCOMPARE(w.timelines().value(0)->model().markers().last().label.section(
                     QStringLiteral(" · "), -1),
                 QStringLiteral("request #3: rejected"));
        QVERIFY2(w.startAction()->toolTip().contains(QStringLiteral("from request #4")),
                 qPrintable(w.startAction()->toolTip()));

        const CliResult cli =
            runRatelab({QStringLiteral("explain"), path, QStringLiteral("--limiter"), name,
                        QStringLiteral("--request"), QStringLiteral("3"), QStringLiteral("--redis"),
                        qEnvironmentVariable("REDIS_URL")});
        const QString out = QString::fromUtf8(cli.out);
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(out.contains(QStringLiteral("request #3 (0-based, schedule order): 00:00:00.300")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("decision: refused")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("what would have let it through (%1)")
                                  .arg(counterfactualBasisText())),
                 qPrintable(out));
        resetKeys(w.currentScenario().value());
        w.setWindowModified(false);
    }

    // A gateway of mode local explains on its own "<name>@g<g>"; the command line that explains
    // the same request names the scenario's limiter.
    void localGatewayCommandNamesTheScenarioLimiter() {
        Explanation e;
        e.spec.name = QStringLiteral("api@edge@g1");
        e.spec.gateway.mode = GatewayMode::Local;
        e.index = 7;
        ExplanationView view;
        view.show(e, QString());
        QVERIFY2(view.plainText().contains(QStringLiteral("--limiter api@edge --request 7")),
                 qPrintable(view.plainText()));
    }
};

QTEST_MAIN(TestWindowStepping)
#include "tst_window_stepping.moc"
