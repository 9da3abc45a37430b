#include "qt_messages.h"

#include <QString>
#include <QtGlobal>
#include <cstdio>

namespace ratelab::cli {
namespace {

void commandLineMessage(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg) {
        std::fprintf(stderr, "ratelab: %s\n", message.toLocal8Bit().constData());
        std::fflush(stderr);
    }
}

}  // namespace

void keepQtMessagesOffTheCommandLine() {
    qInstallMessageHandler(commandLineMessage);
}

}  // namespace ratelab::cli
