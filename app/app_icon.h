#pragma once

#include <QIcon>

namespace ratelab {

// The application icon in every size rendered from resources/icons/ratelab.svg (embedded by
// resources/icons/ratelab.qrc), the same picture as the installed menu entry's icon.
QIcon applicationIcon();

// The installed desktop entry's name (share/applications/ratelab.desktop, without .desktop).
inline constexpr const char kDesktopFileName[] = "ratelab";

}  // namespace ratelab
