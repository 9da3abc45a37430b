#pragma once

#include <QStringList>

#include "style/series_style.h"

namespace ratelab {

class MainWindow;

// The font scale of presentation mode (for a projector): the charts' own.
constexpr double kPresentationFontScale = style::kPresentationScale;

// `ratelab --presentation`: opens the window in presentation mode. Returns whether the flag was
// among `arguments` (the application's, program name first).
bool applyPresentationFlag(MainWindow& window, const QStringList& arguments);

}  // namespace ratelab
