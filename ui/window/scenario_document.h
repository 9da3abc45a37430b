#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

#include "scenario/scenario.h"

namespace ratelab {

// The window's scenario as a document: the file it was opened from or saved to, the name the
// title shows, whether it changed since (the modified flag), the recently used files and the
// scenario the next window starts from (both in QSettings), and the decisions around them: Save
// on a shipped example asks for a new name, and unsaved changes are saved, discarded or kept
// (cancel) before anything replaces them. The scenario itself lives in the editors: the document
// asks its source for it when saving and hands an opened one over through `loaded`.
class ScenarioDocument : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxRecent = 8;

    // The scenario the editors stand for (nullopt while a field is invalid).
    using Source = std::function<std::optional<Scenario>()>;
    // Where Save as asks for a file name: (title, start path, filter) -> path, empty to cancel.
    using PathChooser =
        std::function<QString(const QString& title, const QString& dir, const QString& filter)>;
    // Unsaved changes of the scenario named: Save, Discard or anything else to cancel.
    enum class Keep { Save, Discard, Cancel };
    using ChangesQuestion = std::function<Keep(const QString& scenarioName)>;

    // Questions and dialogs open over `parent` when it is a widget. Reads the recent files.
    explicit ScenarioDocument(QObject* parent = nullptr);

    void setSource(Source source) { source_ = std::move(source); }
    void setPathChooser(PathChooser chooser) { choosePath_ = std::move(chooser); }
    // A message box ("unsavedChanges") unless set.
    void setChangesQuestion(ChangesQuestion question) { ask_ = std::move(question); }

    // The file opened or saved last; empty for a new scenario.
    QString path() const { return path_; }
    QString name() const { return name_; }
    void setName(const QString& name);
    // "<name>[*] — ratelab" ("untitled" without a name); [*] is the window's modified mark.
    QString title() const;
    bool isModified() const { return modified_; }
    void setModified(bool modified);
    QStringList recentFiles() const { return recent_; }

    // Reads `path`: `loaded` hands the scenario over, the document is that file's, unmodified,
    // and the file first of the recent ones. An unreadable file is `failed` with the reason.
    bool open(const QString& path);
    // File → New, Open, Examples and Open recent: first maybeKeepChanges(), then the default
    // scenario without a file, a file asked for in a dialog, or `path`.
    bool newScenario();
    bool openChosen();
    bool replaceWith(const QString& path);
    // File → Save: to the open file, or through Save as when there is none or it is a shipped
    // example (never overwritten without asking for a new name).
    bool save();
    bool saveAs();
    // Writes the source's scenario to `path` (".json" added when it has no suffix): the
    // document's file from now on, unmodified. Errors are `failed`.
    bool saveTo(const QString& path);
    // Unsaved changes: asks to save, discard or cancel; true when it is fine to go on.
    bool maybeKeepChanges();

    // The scenario the last window closed with (or the default one) and remembering it: its
    // file, which the next window opens again (restoredPath, empty when there is none or it is
    // gone), and the scenario itself for one without a file. Changes discarded at the question
    // are not remembered: the file as saved, or the default scenario, comes back.
    Scenario restoredScenario() const;
    QString restoredPath() const;
    void rememberScenario() const;
    static Scenario defaultScenario();

signals:
    void modifiedChanged(bool modified);
    void titleChanged(const QString& title);
    void recentFilesChanged(const QStringList& files);
    // A scenario opened (or File → New): the editors show it.
    void loaded(const ratelab::Scenario& scenario);
    // After `loaded`: the document is now the file at `path`.
    void opened(const QString& path);
    // A file that could not be read or written, or a scenario with errors (the window's banner).
    void failed(const QString& message);

private:
    void addRecent(const QString& path);
    Keep askAboutChanges(const QString& scenarioName) const;

    Source source_;
    PathChooser choosePath_;
    ChangesQuestion ask_;
    QString path_;
    QString name_;
    bool modified_ = false;
    bool discarded_ = false;  // the user discarded the changes since the last open or save
    QStringList recent_;
};

}  // namespace ratelab
