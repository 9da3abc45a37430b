#include "window/scenario_document.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QWidget>

#include "input_error.h"
#include "window/example_scenarios.h"

namespace ratelab {
namespace {

const QString kRecentKey = QStringLiteral("recentFiles");
const QString kLastKey = QStringLiteral("lastScenario");
const QString kLastPathKey = QStringLiteral("lastScenarioFile");

}  // namespace

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent) {
    recent_ = QSettings().value(kRecentKey).toStringList();
}

Scenario ScenarioDocument::defaultScenario() {
    Scenario s;
    s.name = QStringLiteral("untitled");
    LimiterSpec fixed;
    fixed.type = LimiterType::FixedWindow;
    fixed.name = QStringLiteral("fixed-10-per-s");
    fixed.rate = 10;
    fixed.interval = 1;
    fixed.unit = CalendarUnit::Seconds;
    fixed.timezone = "UTC";
    LimiterSpec sliding;
    sliding.type = LimiterType::SlidingWindow;
    sliding.name = QStringLiteral("sliding-10-per-s");
    sliding.rules = {{10, 1000}};
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = QStringLiteral("bucket-10-per-s");
    bucket.rate = 10;
    bucket.intervalMs = 1000;
    s.limiters = {fixed, sliding, bucket};
    s.traffic.shape.type = ShapeSpec::Type::Poisson;
    s.traffic.shape.rate = 25;
    s.traffic.durationS = 60;
    s.traffic.clients = 4;
    s.traffic.threads = 2;
    return s;
}

void ScenarioDocument::setName(const QString& name) {
    const QString before = title();
    name_ = name;
    if (title() != before)
        emit titleChanged(title());
}

QString ScenarioDocument::title() const {
    const QString name = name_.trimmed();
    return tr("%1[*] — ratelab").arg(name.isEmpty() ? tr("untitled") : name);
}

void ScenarioDocument::setModified(bool modified) {
    if (modified == modified_)
        return;
    modified_ = modified;
    emit modifiedChanged(modified);
}

bool ScenarioDocument::open(const QString& path) {
    Scenario scenario;
    try {
        scenario = loadScenarioFile(path);
    } catch (const InputError& e) {
        emit failed(e.message());
        return false;
    }
    // A replay's trace is read relative to the scenario's file, and the editors read it again
    // from wherever the window runs: they get its absolute path.
    const QDir folder = QFileInfo(path).absoluteDir();
    if (!scenario.traffic.tracePath.isEmpty()) {
        scenario.traffic.tracePath = folder.absoluteFilePath(scenario.traffic.tracePath);
    }
    for (ClientGroup& group : scenario.traffic.groups) {
        if (!group.tracePath.isEmpty()) {
            group.tracePath = folder.absoluteFilePath(group.tracePath);
        }
    }
    setName(scenario.name);
    emit loaded(scenario);
    setModified(false);
    discarded_ = false;
    path_ = path;
    addRecent(path);
    emit opened(path);
    return true;
}

bool ScenarioDocument::newScenario() {
    if (!maybeKeepChanges())
        return false;
    const Scenario scenario = defaultScenario();
    setName(scenario.name);
    emit loaded(scenario);
    setModified(false);
    discarded_ = false;
    path_.clear();
    return true;
}

bool ScenarioDocument::openChosen() {
    if (!maybeKeepChanges())
        return false;
    const QString start = path_.isEmpty() ? examplesDirectory() : path_;
    const QString path = QFileDialog::getOpenFileName(
        qobject_cast<QWidget*>(parent()), tr("Open scenario"), start, tr("Scenarios (*.json)"));
    return !path.isEmpty() && open(path);
}

bool ScenarioDocument::replaceWith(const QString& path) {
    return maybeKeepChanges() && open(path);
}

bool ScenarioDocument::save() {
    if (path_.isEmpty() || isShippedExample(path_))
        return saveAs();
    return saveTo(path_);
}

bool ScenarioDocument::saveAs() {
    // A shipped example is offered a copy in the user's documents, not the examples directory.
    QString dir = path_;
    if (path_.isEmpty() || isShippedExample(path_)) {
        dir = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                  .filePath(path_.isEmpty() ? QStringLiteral("scenario.json")
                                            : QFileInfo(path_).fileName());
    }
    const QString title = tr("Save scenario as");
    const QString filter = tr("Scenarios (*.json)");
    const QString path = choosePath_ ? choosePath_(title, dir, filter)
                                     : QFileDialog::getSaveFileName(
                                           qobject_cast<QWidget*>(parent()), title, dir, filter);
    return !path.isEmpty() && saveTo(path);
}

bool ScenarioDocument::saveTo(const QString& requested) {
    const QString path =
        QFileInfo(requested).suffix().isEmpty() ? requested + QStringLiteral(".json") : requested;
    const std::optional<Scenario> scenario = source_ ? source_() : std::nullopt;
    if (!scenario) {
        emit failed(tr("Cannot save: the scenario has errors"));
        return false;
    }
    // The scenario holds no connection details, so no password can end up in the file.
    QFile file(path);
    const QByteArray json =
        QJsonDocument(scenarioToJson(*scenario)).toJson(QJsonDocument::Indented);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(json) != json.size()) {
        emit failed(tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    path_ = path;
    addRecent(path);
    setModified(false);
    discarded_ = false;
    return true;
}

bool ScenarioDocument::maybeKeepChanges() {
    if (!modified_)
        return true;
    const std::optional<Scenario> scenario = source_ ? source_() : std::nullopt;
    const QString name = scenario ? scenario->name : tr("untitled");
    switch (ask_ ? ask_(name) : askAboutChanges(name)) {
        case Keep::Save:
            return save();
        case Keep::Discard:
            discarded_ = true;  // remembered as such: the next window does not bring them back
            return true;
        case Keep::Cancel:
            break;
    }
    return false;
}

ScenarioDocument::Keep ScenarioDocument::askAboutChanges(const QString& scenarioName) const {
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    tr("The scenario \"%1\" has unsaved changes. Save them?").arg(scenarioName),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                    qobject_cast<QWidget*>(parent()));
    box.setObjectName(QStringLiteral("unsavedChanges"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
        case QMessageBox::Save:
            return Keep::Save;
        case QMessageBox::Discard:
            return Keep::Discard;
        default:
            return Keep::Cancel;
    }
}

void ScenarioDocument::addRecent(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    files = files.mid(0, kMaxRecent);
    settings.setValue(kRecentKey, files);
    recent_ = files;
    emit recentFilesChanged(recent_);
}

Scenario ScenarioDocument::restoredScenario() const {
    const QByteArray last = QSettings().value(kLastKey).toByteArray();
    if (!last.isEmpty()) {
        try {
            return parseScenarioJson(last, QString());
        } catch (const InputError&) {
            // An older or damaged saved scenario: start from the default one.
        }
    }
    return defaultScenario();
}

QString ScenarioDocument::restoredPath() const {
    const QString path = QSettings().value(kLastPathKey).toString();
    return !path.isEmpty() && QFileInfo::exists(path) ? path : QString();
}

void ScenarioDocument::rememberScenario() const {
    QSettings settings;
    settings.setValue(kLastPathKey, path_);
    if (discarded_) {
        // Changes thrown away stay thrown away: the next window opens the file as saved, or
        // starts from the default scenario (it brought the edits back, unmarked, under the
        // file's title).
        settings.remove(kLastKey);
        return;
    }
    if (const std::optional<Scenario> scenario = source_ ? source_() : std::nullopt) {
        settings.setValue(kLastKey,
                          QJsonDocument(scenarioToJson(*scenario)).toJson(QJsonDocument::Compact));
    }
}

}  // namespace ratelab
