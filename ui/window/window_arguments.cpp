#include "window/window_arguments.h"

#include <QCoreApplication>

#include "window/main_window.h"

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::WindowArguments", text);
}

bool isScenarioFile(const QString& argument) {
    return argument.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

}  // namespace

bool opensWindow(const QString& first) {
    return first.isEmpty() || first == QLatin1String("--presentation") || isScenarioFile(first);
}

WindowArguments parseWindowArguments(const QStringList& arguments) {
    WindowArguments parsed;
    for (const QString& argument : arguments.mid(1)) {
        if (argument == QLatin1String("--presentation")) {
            parsed.presentation = true;
        } else if (isScenarioFile(argument) && parsed.scenario.isEmpty()) {
            parsed.scenario = argument;
        } else {
            parsed.error = isScenarioFile(argument)
                               ? tr("one scenario file at a time, got \"%1\" and \"%2\"")
                                     .arg(parsed.scenario, argument)
                               : tr("unknown argument \"%1\" (the window takes --presentation "
                                    "and a SCENARIO.json)")
                                     .arg(argument);
            break;
        }
    }
    return parsed;
}

bool applyWindowArguments(MainWindow& window, const WindowArguments& arguments, QString* error) {
    if (arguments.presentation)
        window.setPresentation(true);
    if (arguments.scenario.isEmpty())
        return true;
    // The document's message names the file and what is wrong with it (the banner of a window
    // not shown yet says nothing).
    QString failure;
    const QMetaObject::Connection said =
        QObject::connect(window.document(), &ScenarioDocument::failed,
                         [&failure](const QString& message) { failure = message; });
    const bool opened = window.openScenario(arguments.scenario);
    QObject::disconnect(said);
    if (!opened)
        *error = failure;
    return opened;
}

}  // namespace ratelab
