// The window's scenario document without a window: its modified flag and title, saving and
// opening files, the recent files, and the unsaved-changes question (answered by the test).
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <optional>

#include "scenario/scenario.h"
#include "support/test_files.h"
#include "window/scenario_document.h"

using ratelab::Scenario;
using ratelab::ScenarioDocument;
using Keep = ratelab::ScenarioDocument::Keep;

Q_DECLARE_METATYPE(ratelab::ScenarioDocument::Keep)

namespace {

Scenario named(const QString& name) {
    Scenario s = ScenarioDocument::defaultScenario();
    s.name = name;
    s.traffic.durationS = 17;
    return s;
}

}  // namespace

class TestScenarioDocument : public QObject {
    Q_OBJECT

    std::optional<Scenario> scenario_;  // what the "editors" hold

    void bind(ScenarioDocument& document) {
        document.setSource([this] { return scenario_; });
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-document"));
    }
    void init() {
        QSettings().clear();
        scenario_ = named(QStringLiteral("mine"));
    }

    void modifiedSignalledOnChange() {
        ScenarioDocument document;
        QVERIFY(!document.isModified());
        QSignalSpy modified(&document, &ScenarioDocument::modifiedChanged);
        document.setModified(true);
        document.setModified(true);
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.last().value(0).toBool(), true);
        document.setModified(false);
        QCOMPARE(modified.count(), 2);
        QCOMPARE(modified.last().value(0).toBool(), false);
    }

    void titleFromName_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("title");
        QTest::newRow("a name") << "burst test"
                                << "burst test[*] — ratelab";
        QTest::newRow("spaces around") << "  burst  "
                                       << "burst[*] — ratelab";
        QTest::newRow("none") << ""
                              << "untitled[*] — ratelab";
        QTest::newRow("blank") << "   "
                               << "untitled[*] — ratelab";
    }
    void titleFromName() {
        QFETCH(QString, name);
        QFETCH(QString, title);
        ScenarioDocument document;
        document.setName(QStringLiteral("before"));
        QSignalSpy changed(&document, &ScenarioDocument::titleChanged);
        document.setName(name);
        QCOMPARE(document.title(), title);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().value(0).toString(), title);
        document.setName(name);
        QCOMPARE(changed.count(), 1);  // the same title: no signal
    }

    void saveToWritesTheScenario_data() {
        QTest::addColumn<QString>("requested");
        QTest::addColumn<QString>("written");
        QTest::newRow("no suffix") << "mine"
                                   << "mine.json";
        QTest::newRow(".json") << "mine.json"
                               << "mine.json";
        QTest::newRow("another suffix") << "mine.txt"
                                        << "mine.txt";
    }
    void saveToWritesTheScenario() {
        QFETCH(QString, requested);
        QFETCH(QString, written);
        QTemporaryDir dir;
        ScenarioDocument document;
        bind(document);
        document.setModified(true);
        QSignalSpy recent(&document, &ScenarioDocument::recentFilesChanged);
        QSignalSpy failed(&document, &ScenarioDocument::failed);
        QVERIFY(document.saveTo(dir.filePath(requested)));
        const QString path = dir.filePath(written);
        QCOMPARE(document.path(), path);
        QVERIFY(!document.isModified());
        QCOMPARE(failed.count(), 0);
        QCOMPARE(recent.count(), 1);
        QCOMPARE(document.recentFiles().value(0), path);
        const Scenario back = ratelab::loadScenarioFile(path);
        QCOMPARE(back.name, QStringLiteral("mine"));
        QCOMPARE(back.limiters, scenario_->limiters);
        QCOMPARE(back.traffic.durationS, 17.0);
    }

    // A scenario with errors, or a file that cannot be written: failed, still modified.
    void saveFailures_data() {
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("scenario with errors") << false << "ok.json"
                                              << "Cannot save: the scenario has errors";
        QTest::newRow("no such folder") << true << "missing/x.json"
                                        << "Cannot write";
    }
    void saveFailures() {
        QFETCH(bool, valid);
        QFETCH(QString, file);
        QFETCH(QString, message);
        if (!valid)
            scenario_.reset();
        QTemporaryDir dir;
        ScenarioDocument document;
        bind(document);
        document.setModified(true);
        QSignalSpy failed(&document, &ScenarioDocument::failed);
        QVERIFY(!document.saveTo(dir.filePath(file)));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.first().value(0).toString().startsWith(message),
                 qPrintable(failed.first().value(0).toString()));
        QVERIFY(document.isModified());
        QVERIFY(document.path().isEmpty());
        QVERIFY(document.recentFiles().isEmpty());
    }

    void openHandsTheScenarioOver() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("saved.json"));
        {
            ScenarioDocument writer;
            bind(writer);
            QVERIFY(writer.saveTo(path));
        }
        ScenarioDocument document;
        document.setModified(true);
        QSignalSpy loaded(&document, &ScenarioDocument::loaded);
        QSignalSpy opened(&document, &ScenarioDocument::opened);
        QSignalSpy title(&document, &ScenarioDocument::titleChanged);
        QVERIFY(document.open(path));
        QCOMPARE(loaded.count(), 1);
        const auto scenario = loaded.first().value(0).value<Scenario>();
        QCOMPARE(scenario.name, QStringLiteral("mine"));
        QCOMPARE(scenario.limiters, scenario_->limiters);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().value(0).toString(), path);
        QCOMPARE(title.count(), 1);
        QCOMPARE(document.title(), QStringLiteral("mine[*] — ratelab"));
        QCOMPARE(document.path(), path);
        QVERIFY(!document.isModified());
        QCOMPARE(document.recentFiles(), QStringList{path});
    }

    void openBadFileFails() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        ratelab::test::writeTestFile(path, R"({"limiters": [], "traffic": {}})");
        ScenarioDocument document;
        QSignalSpy loaded(&document, &ScenarioDocument::loaded);
        QSignalSpy failed(&document, &ScenarioDocument::failed);
        QVERIFY(!document.open(path));
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.first().value(0).toString().contains(QStringLiteral("broken.json")),
                 qPrintable(failed.first().value(0).toString()));
        QVERIFY(document.path().isEmpty());
        QVERIFY(document.recentFiles().isEmpty());
    }

    // The newest first, each once, at most kMaxRecent; the next document reads the same list.
    void recentFilesNewestFirst() {
        QTemporaryDir dir;
        ScenarioDocument document;
        bind(document);
        QStringList saved;
        for (int i = 0; i < ScenarioDocument::kMaxRecent + 2; ++i) {
            saved.prepend(dir.filePath(QStringLiteral("s%1.json").arg(i)));
            QVERIFY(document.saveTo(saved.first()));
        }
        QCOMPARE(document.recentFiles(), saved.mid(0, ScenarioDocument::kMaxRecent));
        QVERIFY(document.open(saved[3]));
        QCOMPARE(document.recentFiles().value(0), saved[3]);
        QCOMPARE(document.recentFiles().count(saved[3]), 1);
        QCOMPARE(document.recentFiles().size(), ScenarioDocument::kMaxRecent);
        QCOMPARE(ScenarioDocument().recentFiles(), document.recentFiles());
    }

    // Save asks for a name without a file; with one it writes there without asking.
    void saveAsksOnlyWithoutAFile() {
        QTemporaryDir dir;
        ScenarioDocument document;
        bind(document);
        int asked = 0;
        document.setPathChooser([&](const QString&, const QString& start, const QString&) {
            ++asked;
            // No file yet: offered the user's documents folder.
            return start.endsWith(QStringLiteral("scenario.json"))
                       ? dir.filePath(QStringLiteral("chosen"))
                       : QString();
        });
        QVERIFY(document.save());
        QCOMPARE(asked, 1);
        QCOMPARE(document.path(), dir.filePath(QStringLiteral("chosen.json")));
        document.setModified(true);
        QVERIFY(document.save());
        QCOMPARE(asked, 1);
        QVERIFY(!document.isModified());
    }

    // Before unsaved changes are replaced: Save (through Save as), Discard or Cancel.
    void keepChangesAsks_data() {
        QTest::addColumn<bool>("modified");
        QTest::addColumn<Keep>("answer");
        QTest::addColumn<bool>("chooserGivesAPath");
        QTest::addColumn<bool>("goesOn");
        QTest::addColumn<int>("questions");
        QTest::addColumn<bool>("saved");
        QTest::newRow("unmodified") << false << Keep::Cancel << true << true << 0 << false;
        QTest::newRow("discard") << true << Keep::Discard << true << true << 1 << false;
        QTest::newRow("cancel") << true << Keep::Cancel << true << false << 1 << false;
        QTest::newRow("save") << true << Keep::Save << true << true << 1 << true;
        QTest::newRow("save, name dialog cancelled")
            << true << Keep::Save << false << false << 1 << false;
    }
    void keepChangesAsks() {
        QFETCH(bool, modified);
        QFETCH(Keep, answer);
        QFETCH(bool, chooserGivesAPath);
        QFETCH(bool, goesOn);
        QFETCH(int, questions);
        QFETCH(bool, saved);
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("kept.json"));
        ScenarioDocument document;
        bind(document);
        document.setPathChooser([&](const QString&, const QString&, const QString&) {
            return chooserGivesAPath ? target : QString();
        });
        QStringList askedAbout;
        document.setChangesQuestion([&](const QString& name) {
            askedAbout << name;
            return answer;
        });
        document.setModified(modified);
        QCOMPARE(document.maybeKeepChanges(), goesOn);
        QCOMPARE(askedAbout.size(), questions);
        if (questions > 0)
            QCOMPARE(askedAbout.first(), QStringLiteral("mine"));
        QCOMPARE(QFile::exists(target), saved);
        QCOMPARE(document.isModified(), modified && !saved);

        // File → New goes on exactly when the question lets it.
        QSignalSpy loaded(&document, &ScenarioDocument::loaded);
        QCOMPARE(document.newScenario(), goesOn);
        QCOMPARE(loaded.count(), goesOn ? 1 : 0);
        if (goesOn) {
            QVERIFY(document.path().isEmpty());
            QVERIFY(!document.isModified());
            QCOMPARE(loaded.first().value(0).value<Scenario>().name, QStringLiteral("untitled"));
        }
    }

    // The scenario a window closed with is the next one's; a damaged one gives the default.
    void remembersTheLastScenario() {
        ScenarioDocument document;
        bind(document);
        document.rememberScenario();
        const Scenario restored = ScenarioDocument().restoredScenario();
        QCOMPARE(restored.name, QStringLiteral("mine"));
        QCOMPARE(restored.traffic.durationS, 17.0);
        QSettings().setValue(QStringLiteral("lastScenario"), QByteArray("{not json"));
        QCOMPARE(ScenarioDocument().restoredScenario().name, QStringLiteral("untitled"));
        QCOMPARE(ScenarioDocument().restoredScenario().limiters,
                 ScenarioDocument::defaultScenario().limiters);
    }

    // "Discard" at the unsaved-changes question discards: the edited example came back at the
    // next start, unmarked, under the example's title. The next window opens the file as
    // saved; a scenario without a file gives way to the default one.
    void discardedChangesStayDiscarded() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("example.json"));
        {
            ScenarioDocument writer;
            bind(writer);
            QVERIFY(writer.saveTo(path));
        }
        ScenarioDocument document;
        bind(document);
        QVERIFY(document.open(path));
        scenario_->traffic.durationS = 99;  // edited in the "editors"
        document.setModified(true);
        document.setChangesQuestion([](const QString&) { return Keep::Discard; });
        QVERIFY(document.maybeKeepChanges());
        document.rememberScenario();
        ScenarioDocument next;
        QCOMPARE(next.restoredPath(), path);  // the file is opened again, as saved
        QVERIFY(next.restoredScenario().traffic.durationS != 99.0);

        // Kept (saved or unmodified), the file and the scenario are remembered.
        QVERIFY(document.open(path));
        document.rememberScenario();
        QCOMPARE(ScenarioDocument().restoredPath(), path);
        QCOMPARE(ScenarioDocument().restoredScenario().traffic.durationS, 99.0);

        // Without a file, discarded changes give the default scenario.
        ScenarioDocument untitled;
        bind(untitled);
        QVERIFY(untitled.newScenario());
        untitled.setModified(true);
        untitled.setChangesQuestion([](const QString&) { return Keep::Discard; });
        QVERIFY(untitled.maybeKeepChanges());
        untitled.rememberScenario();
        QCOMPARE(ScenarioDocument().restoredPath(), QString());
        QCOMPARE(ScenarioDocument().restoredScenario().limiters,
                 ScenarioDocument::defaultScenario().limiters);
        QVERIFY(ScenarioDocument().restoredScenario().traffic.durationS != 99.0);
        QFile::remove(path);
        QCOMPARE(ScenarioDocument().restoredPath(), QString());  // a file gone is not opened
    }
};

QTEST_MAIN(TestScenarioDocument)
#include "tst_scenario_document.moc"
