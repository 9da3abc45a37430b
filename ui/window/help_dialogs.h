#pragma once

#include <QString>

class QWidget;

namespace ratelab {

// Help → Glossary: every metric the window shows, with its formula. The text is HTML.
QString glossaryHtml();
// Help → Keyboard shortcuts.
QString shortcutsHtml();
// Help → About: the version, the Qt version and the licence line.
QString aboutHtml();

// Shows one of the texts above in a non-modal, closable dialog named `objectName`.
void showHelpDialog(QWidget* parent, const QString& objectName, const QString& title,
                    const QString& html);

}  // namespace ratelab
