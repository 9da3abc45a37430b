#pragma once

#include <QStringList>

namespace ratelab {

class MainWindow;

// The font scale of presentation mode (for a projector).
constexpr double kPresentationFontScale = 1.5;

// `ratelab --presentation`: opens the window in presentation mode. Returns whether the flag was
// among `arguments` (the application's, program name first).
bool applyPresentationFlag(MainWindow& window, const QStringList& arguments);

}  // namespace ratelab
