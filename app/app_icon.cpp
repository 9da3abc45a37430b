#include "app_icon.h"

namespace ratelab {

QIcon applicationIcon() {
    QIcon icon;
    for (const int size : {16, 24, 32, 48, 64, 128, 256}) {
        icon.addFile(QStringLiteral(":/icons/hicolor/%1x%1/apps/ratelab.png").arg(size),
                     QSize(size, size));
    }
    return icon;
}

}  // namespace ratelab
