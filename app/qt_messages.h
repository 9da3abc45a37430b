#pragma once

namespace ratelab::cli {

// The headless commands print only their own messages: Qt's debug, info and warning output
// (`QStandardPaths: XDG_RUNTIME_DIR not set …` from the offscreen platform that renders
// report.png, font notes) is dropped; critical and fatal messages still reach stderr. Installed
// before the application object is made, whose construction prints some of them.
void keepQtMessagesOffTheCommandLine();

}  // namespace ratelab::cli
