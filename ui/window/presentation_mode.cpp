// MainWindow's presentation mode: the same window for a projector. Larger fonts everywhere,
// thicker chart lines and fewer chart labels (TimelineChart::setPresentation), the editors dock
// and the connection row hidden so the charts get the room; the checked toolbar button switches
// back in one click.
#include "window/presentation_mode.h"

#include <QAction>
#include <QDockWidget>
#include <QToolBar>

#include "run/run_view.h"
#include "window/main_window.h"

namespace ratelab {

void MainWindow::setPresentation(bool on) {
    if (on == presentation_)
        return;
    presentation_ = on;
    if (on)
        normalFont_ = font();
    QFont f = normalFont_;
    if (on) {
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * kPresentationFontScale);
        else
            f.setPixelSize(int(f.pixelSize() * kPresentationFontScale));
    }
    setFont(f);
    runView_->setPresentation(on);
    editorsDock_->setVisible(!on);
    connectionRow_->setVisible(!on);  // the audience needs the charts, not the URL
    presentationAction_->setChecked(on);
    presentationAction_->setText(on ? tr("Exit &presentation") : tr("&Presentation mode"));
}

bool applyPresentationFlag(MainWindow& window, const QStringList& arguments) {
    if (!arguments.mid(1).contains(QStringLiteral("--presentation")))
        return false;
    window.setPresentation(true);
    return true;
}

}  // namespace ratelab
