#include "window/new_folder_dialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace ratelab {
namespace {

// A folder dialog whose OK makes the folder typed when it does not exist yet.
class NewFolderDialog final : public QFileDialog {
public:
    NewFolderDialog(QWidget* parent, const QString& title, const QString& dir)
        : QFileDialog(parent, title, dir) {
        setObjectName(QStringLiteral("newFolderDialog"));
        setFileMode(QFileDialog::Directory);
        setOption(QFileDialog::ShowDirsOnly);
        setOption(QFileDialog::DontUseNativeDialog);  // the typed name reaches accept()
        setAcceptMode(QFileDialog::AcceptSave);
        setLabelText(QFileDialog::FileName, tr("Folder:"));
        setLabelText(QFileDialog::Accept, tr("&Save here"));
    }

    void accept() override {
        const QStringList chosen = selectedFiles();
        if (!chosen.isEmpty() && !QFileInfo::exists(chosen.first()) &&
            !QDir().mkpath(chosen.first())) {
            QMessageBox::warning(this, windowTitle(),
                                 tr("Cannot make the folder %1").arg(chosen.first()));
            return;
        }
        QFileDialog::accept();
    }
};

}  // namespace

QString chooseNewFolder(QWidget* parent, const QString& title, const QString& dir) {
    NewFolderDialog dialog(parent, title, dir);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return QString();
    return dialog.selectedFiles().first();
}

}  // namespace ratelab
