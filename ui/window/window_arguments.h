#pragma once

#include <QString>
#include <QStringList>

namespace ratelab {

class MainWindow;

// The window's command line: `ratelab [--presentation] [SCENARIO.json]`.
struct WindowArguments {
    bool presentation = false;
    QString scenario;  // a scenario file to open, empty for none
    QString error;     // what is wrong with the arguments, empty when nothing is
};

// True when `ratelab FIRST …` opens the window: no arguments, --presentation, or a scenario
// file (a name ending in .json) first.
bool opensWindow(const QString& first);

// The window's arguments (`arguments` are the application's, program name first). Anything but
// --presentation and one .json file is an error naming it.
WindowArguments parseWindowArguments(const QStringList& arguments);

// Applies them to a new window: presentation mode, and the scenario opened in it. False with
// `*error` naming the file and what is wrong with it when it cannot be opened.
bool applyWindowArguments(MainWindow& window, const WindowArguments& arguments, QString* error);

}  // namespace ratelab
