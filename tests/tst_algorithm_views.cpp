// The window's side of each algorithm (ui/algorithms): one view per engine descriptor, in the
// same order; each makes its editor page, says its configuration, and the limiter editor built
// from them shows each type's page and accepts each type's defaults.
#include <QComboBox>
#include <QStackedWidget>
#include <QtTest>

#include "algorithms/algorithm_view.h"
#include "algorithms/limiter_page.h"
#include "editors/limiter_editor.h"

using namespace ratelab;

class TestAlgorithmViews : public QObject {
    Q_OBJECT

private slots:
    void oneViewPerAlgorithm() {
        QCOMPARE(algorithmViews().size(), algorithms().size());
        for (size_t i = 0; i < algorithms().size(); ++i) {
            const AlgorithmView& view = *algorithmViews()[i];
            QCOMPARE(&view.algorithm(), algorithms()[i]);
            QCOMPARE(&algorithmView(view.type()), &view);
            QVERIFY(!view.title().isEmpty());
            QVERIFY(!view.selectorLabel().isEmpty());
            const LimiterSpec spec = view.algorithm().defaults(QStringLiteral("v"));
            QVERIFY(!view.configText(spec).isEmpty());
            QCOMPARE(&algorithmViewOf(limiterSpecToJson(spec)), &view);
            QWidget parent;
            LimiterPage* page = view.makePage(&parent);
            QVERIFY(page != nullptr && page->parent() == &parent);
        }
    }

    // Choosing each type in the editor shows that type's page and a valid default limiter.
    void editorOffersEveryType() {
        LimiterEditor editor;
        auto* type = editor.findChild<QComboBox*>(QStringLiteral("type"));
        auto* pages = editor.findChild<QStackedWidget*>(QStringLiteral("pages"));
        QVERIFY(type != nullptr && pages != nullptr);
        QCOMPARE(type->count(), int(algorithmViews().size()));
        for (int i = 0; i < type->count(); ++i) {
            const AlgorithmView& view = *algorithmViews()[size_t(i)];
            editor.setSpec(view.algorithm().defaults(QStringLiteral("lim")));
            QCOMPARE(type->currentIndex(), i);
            QCOMPARE(type->currentData().toString(), view.algorithm().name());
            QCOMPARE(pages->currentIndex(), i);
            QVERIFY2(editor.isValid(), qPrintable(editor.errorText()));
            QCOMPARE(editor.spec()->type, view.type());
        }
    }

    // The types with library flavors offer them on their page: the choice shows the spec's
    // flavor, and choosing one gives a spec of that flavor (exact written as no field).
    void flavorChoice_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QStringList>("flavors");
        QTest::newRow("gcra") << "gcra"
                              << QStringList{QStringLiteral("exact"), QStringLiteral("redis_rate")};
        QTest::newRow("sliding counter")
            << "sliding_counter" << QStringList{QStringLiteral("exact"), QStringLiteral("upstash")};
        QTest::newRow("token bucket") << "token_bucket" << QStringList();
        QTest::newRow("leaky bucket") << "leaky_bucket" << QStringList();
    }
    void flavorChoice() {
        QFETCH(QString, type);
        QFETCH(QStringList, flavors);
        LimiterEditor editor;
        auto* pages = editor.findChild<QStackedWidget*>(QStringLiteral("pages"));
        LimiterSpec spec = algorithmNamed(type)->defaults(QStringLiteral("lim"));
        editor.setSpec(spec);
        auto* box = pages->currentWidget()->findChild<QComboBox*>(QStringLiteral("flavor"));
        if (flavors.isEmpty()) {
            QVERIFY(box == nullptr);
            return;
        }
        QVERIFY(box != nullptr);
        QStringList offered;
        for (int i = 0; i < box->count(); ++i) {
            offered << box->itemData(i).toString();
        }
        QCOMPARE(offered, flavors);
        QCOMPARE(box->currentIndex(), 0);
        QSignalSpy changed(&editor, &LimiterEditor::specChanged);
        box->setCurrentIndex(1);
        QVERIFY(!changed.isEmpty());
        QCOMPARE(flavorName(editor.spec()->flavor), flavors[1]);
        // A spec of that flavor shows it; back to exact.
        spec.flavor = editor.spec()->flavor;
        editor.setSpec(algorithmNamed(type)->defaults(QStringLiteral("lim")));
        QCOMPARE(box->currentIndex(), 0);
        editor.setSpec(spec);
        QCOMPARE(box->currentIndex(), 1);
        QCOMPARE(editor.spec()->flavor, spec.flavor);
    }

    void configTexts_data() {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("text");
        QTest::newRow("token bucket")
            << QByteArray(R"({"type":"token_bucket","name":"a","rate":10,"interval_ms":1000})")
            << "10 per 1000 ms";
        QTest::newRow("fixed window in a zone")
            << QByteArray(R"({"type":"fixed_window","name":"a","rate":5,"interval":2,)"
                          R"("unit":"minutes","timezone":"Asia/Shanghai"})")
            << "5 per 2 minutes (Asia/Shanghai)";
        QTest::newRow("fixed window in the system zone")
            << QByteArray(R"({"type":"fixed_window","name":"a","rate":5,"interval":1,)"
                          R"("unit":"seconds"})")
            << "5 per second (system zone)";
        QTest::newRow("two rules")
            << QByteArray(R"({"type":"sliding_window","name":"a","rules":[{"limit":5,)"
                          R"("window_ms":1000},{"limit":20,"window_ms":60000}]})")
            << "5 per 1000 ms, 20 per 60000 ms";
        QTest::newRow("gcra")
            << QByteArray(R"({"type":"gcra","name":"a","rate":1,"period_ms":1000,"burst":5})")
            << "1 per 1000 ms, burst 5";
        QTest::newRow("counter")
            << QByteArray(R"({"type":"sliding_counter","name":"a","limit":10,"window_ms":500})")
            << "10 per 500 ms window";
        QTest::newRow("leaky nodelay")
            << QByteArray(R"({"type":"leaky_bucket","name":"a","rate":2,"period_ms":1000,)"
                          R"("burst":0,"nodelay":true})")
            << "2 per 1000 ms, burst 0, nodelay";
        QTest::newRow("concurrency")
            << QByteArray(R"({"type":"concurrency","name":"a","limit":20,"lease_ms":30000})")
            << "20 in flight, leases of 30000 ms";
        QTest::newRow("counter, upstash's")
            << QByteArray(R"({"type":"sliding_counter","name":"a","limit":10,"window_ms":500,)"
                          R"("flavor":"upstash"})")
            << "10 per 500 ms window · upstash's arithmetic";
        QTest::newRow("gcra, redis_rate's")
            << QByteArray(R"({"type":"gcra","name":"a","rate":1,"period_ms":1000,"burst":5,)"
                          R"("flavor":"redis_rate"})")
            << "1 per 1000 ms, burst 5 · redis_rate's arithmetic";
    }
    void configTexts() {
        QFETCH(QByteArray, spec);
        QFETCH(QString, text);
        const LimiterSpec parsed = parseLimiterSpecJson(spec);
        QCOMPARE(algorithmView(parsed).configText(parsed), text);
    }

    // The dashed limit line's legend name: a rate's steady state, the concurrency limiter's
    // in-flight limit (its line is only what it admits while no grant releases).
    void limitLineLabels_data() {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("label");
        QTest::newRow("token bucket")
            << QByteArray(R"({"type":"token_bucket","name":"a","rate":10,"interval_ms":1000})")
            << "limit (steady state)";
        QTest::newRow("gcra")
            << QByteArray(R"({"type":"gcra","name":"a","rate":1,"period_ms":1000,"burst":5})")
            << "limit (steady state)";
        QTest::newRow("concurrency")
            << QByteArray(R"({"type":"concurrency","name":"a","limit":20,"lease_ms":2000})")
            << "limit 20 in flight (20 per 2000 ms if none release)";
    }
    void limitLineLabels() {
        QFETCH(QByteArray, spec);
        QFETCH(QString, label);
        const LimiterSpec parsed = parseLimiterSpecJson(spec);
        QCOMPARE(algorithmView(parsed).limitLineLabel(parsed), label);
    }
};

QTEST_MAIN(TestAlgorithmViews)
#include "tst_algorithm_views.moc"
