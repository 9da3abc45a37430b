// Where the window finds the example scenarios (engine/scenario/example_paths.h): the installed
// layout <prefix>/share/ratelab beside <prefix>/bin, else the source tree's resources/.

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include "scenario/example_paths.h"

using namespace ratelab;

class TestExamplePaths : public QObject {
    Q_OBJECT

private slots:
    void fakeLayouts_data();
    void fakeLayouts();
    void thisBuildTreeFindsTheSourceExamples();
};

void TestExamplePaths::fakeLayouts_data() {
    // Folders are relative to a fresh temporary folder; "-" means no folder given.
    QTest::addColumn<QStringList>("folders");
    QTest::addColumn<QString>("executableDir");
    QTest::addColumn<QString>("sourceResources");
    QTest::addColumn<QStringList>("expected");

    const QStringList installed{QStringLiteral("usr/bin"),
                                QStringLiteral("usr/share/ratelab/scenarios"),
                                QStringLiteral("usr/share/ratelab/examples")};
    const QStringList source{QStringLiteral("src/resources/scenarios"),
                             QStringLiteral("src/resources/examples")};
    const QStringList buildTree{QStringLiteral("src/build/bin")};

    QTest::newRow("installed under /usr")
        << installed << QStringLiteral("usr/bin") << QStringLiteral("-")
        << QStringList{QStringLiteral("usr/share/ratelab/scenarios"),
                       QStringLiteral("usr/share/ratelab/examples")};
    QTest::newRow("installed wins over a source tree that still exists")
        << installed + source << QStringLiteral("usr/bin") << QStringLiteral("src/resources")
        << QStringList{QStringLiteral("usr/share/ratelab/scenarios"),
                       QStringLiteral("usr/share/ratelab/examples")};
    QTest::newRow("installed with scenarios only")
        << QStringList{QStringLiteral("opt/rl/bin"),
                       QStringLiteral("opt/rl/share/ratelab/scenarios")}
        << QStringLiteral("opt/rl/bin") << QStringLiteral("src/resources")
        << QStringList{QStringLiteral("opt/rl/share/ratelab/scenarios")};
    QTest::newRow("build tree falls back to the source tree")
        << buildTree + source << QStringLiteral("src/build/bin") << QStringLiteral("src/resources")
        << QStringList{QStringLiteral("src/resources/scenarios"),
                       QStringLiteral("src/resources/examples")};
    QTest::newRow("empty share/ratelab does not hide the source tree")
        << buildTree + source + QStringList{QStringLiteral("src/build/share/ratelab")}
        << QStringLiteral("src/build/bin") << QStringLiteral("src/resources")
        << QStringList{QStringLiteral("src/resources/scenarios"),
                       QStringLiteral("src/resources/examples")};
    QTest::newRow("source tree moved away") << buildTree << QStringLiteral("src/build/bin")
                                            << QStringLiteral("src/resources") << QStringList{};
    QTest::newRow("no source tree known") << buildTree + source << QStringLiteral("src/build/bin")
                                          << QStringLiteral("-") << QStringList{};
    QTest::newRow("no executable folder known")
        << source << QStringLiteral("-") << QStringLiteral("src/resources")
        << QStringList{QStringLiteral("src/resources/scenarios"),
                       QStringLiteral("src/resources/examples")};
}

void TestExamplePaths::fakeLayouts() {
    QFETCH(QStringList, folders);
    QFETCH(QString, executableDir);
    QFETCH(QString, sourceResources);
    QFETCH(QStringList, expected);

    QTemporaryDir root;
    QVERIFY(root.isValid());
    for (const QString& folder : folders) {
        QVERIFY2(QDir(root.path()).mkpath(folder), qPrintable(folder));
    }
    const auto under = [&root](const QString& relative) {
        return relative == QLatin1String("-") ? QString() : root.filePath(relative);
    };
    QStringList expectedPaths;
    for (const QString& dir : expected) {
        expectedPaths << QDir::cleanPath(root.filePath(dir));
    }
    QCOMPARE(exampleScenarioDirs(under(executableDir), under(sourceResources)), expectedPaths);
}

void TestExamplePaths::thisBuildTreeFindsTheSourceExamples() {
    // This test runs from <build>/bin, which has no share/ratelab beside it.
    const QString source = qEnvironmentVariable("RATELAB_SOURCE_DIR");
    if (source.isEmpty()) {
        QSKIP("RATELAB_SOURCE_DIR is not set (run through ctest)");
    }
    const QString resources = QDir(source).filePath(QStringLiteral("resources"));
    QCOMPARE(exampleScenarioDirs(),
             (QStringList{QDir::cleanPath(resources + QLatin1String("/scenarios")),
                          QDir::cleanPath(resources + QLatin1String("/examples"))}));
}

QTEST_GUILESS_MAIN(TestExamplePaths)
#include "tst_example_paths.moc"
