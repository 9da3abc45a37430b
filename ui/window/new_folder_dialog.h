#pragma once

#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ratelab {

// Asks for a folder to write into: an existing one, or a new name typed into the dialog, which
// is made on OK (a plain folder dialog refuses a name that does not exist yet). Empty when
// cancelled or when the folder cannot be made (the dialog says why and stays open).
QString chooseNewFolder(QWidget* parent, const QString& title, const QString& dir);

}  // namespace ratelab
