#include "editors/limiter_list_editor.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSet>
#include <QSignalBlocker>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

#include "algorithms/algorithm_view.h"
#include "editors/field_help.h"
#include "editors/limiter_editor.h"
#include "input_error.h"
#include "style/inline_error.h"

namespace ratelab {

LimiterListEditor::LimiterListEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("limiterList"));
    list_->setMaximumHeight(list_->fontMetrics().height() * 8);
    const int iconSize = list_->style()->pixelMetric(QStyle::PM_SmallIconSize);
    list_->setIconSize(QSize(iconSize, iconSize));
    connect(list_, &QListWidget::currentRowChanged, this, &LimiterListEditor::select);
    layout->addWidget(list_);

    auto* addButton = new QPushButton(tr("Add"), this);
    addButton->setObjectName(QStringLiteral("addLimiter"));
    auto* menu = new QMenu(addButton);
    for (const AlgorithmView* view : algorithmViews()) {
        QAction* action = menu->addAction(view->title());
        // "addTokenBucket" for "token_bucket"
        QString objectName = QStringLiteral("add");
        for (const QString& word : view->algorithm().name().split(QLatin1Char('_')))
            objectName += word.left(1).toUpper() + word.mid(1);
        action->setObjectName(objectName);
        const LimiterType type = view->type();
        connect(action, &QAction::triggered, this, [this, type] { add(type); });
    }
    addButton->setMenu(menu);
    remove_ = new QPushButton(tr("Remove"), this);
    remove_->setObjectName(QStringLiteral("removeLimiter"));
    connect(remove_, &QPushButton::clicked, this, &LimiterListEditor::removeCurrent);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addButton);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    errorLabel_ = new InlineError(this);
    errorLabel_->setObjectName(QStringLiteral("listError"));
    layout->addWidget(errorLabel_);

    editor_ = new LimiterEditor(this);
    editor_->setObjectName(QStringLiteral("limiterEditor"));
    connect(editor_, &LimiterEditor::specChanged, this, [this] { edited(false); });
    connect(editor_, &LimiterEditor::specCommitted, this, [this] { edited(true); });
    layout->addWidget(editor_, 1);

    applyFieldHelp(this);
    select(-1);
    revalidate(false);
}

void LimiterListEditor::setSpecs(const QVector<LimiterSpec>& specs) {
    forms_.clear();
    {
        const QSignalBlocker blocker(list_);
        list_->clear();
        for (const LimiterSpec& spec : specs) {
            // A script limiter's file by its absolute path: read wherever the scenario is saved.
            forms_.append(limiterSpecToJson(spec, SpecFiles::Resolved));
            list_->addItem(QString());  // revalidate writes the text
        }
    }
    select(forms_.isEmpty() ? -1 : 0);
    revalidate(false);
}

QVector<LimiterSpec> LimiterListEditor::specs() const {
    QVector<LimiterSpec> valid;
    for (const QJsonObject& form : forms_) {
        try {
            valid.append(parseLimiterSpec(form));
        } catch (const InputError&) {
            // Left out: errorText() names it.
        }
    }
    return valid;
}

bool LimiterListEditor::isValid() const {
    return error_.isEmpty();
}

QString LimiterListEditor::errorText() const {
    return error_;
}

void LimiterListEditor::add(LimiterType type) {
    forms_.append(limiterSpecToJson(algorithmOf(type).defaults(unusedName())));
    {
        const QSignalBlocker blocker(list_);
        list_->addItem(QString());
    }
    select(forms_.size() - 1);
    revalidate(true);
}

void LimiterListEditor::removeCurrent() {
    const int row = list_->currentRow();
    if (row < 0)
        return;
    forms_.remove(row);
    {
        const QSignalBlocker blocker(list_);
        delete list_->takeItem(row);
    }
    select(std::min(row, int(forms_.size()) - 1));
    revalidate(true);
}

// Shows limiter `row` (-1: none) in the editor.
void LimiterListEditor::select(int row) {
    {
        const QSignalBlocker blocker(list_);
        list_->setCurrentRow(row);
    }
    if (row >= 0)
        editor_->setFormJson(forms_[row]);
    editor_->setEnabled(row >= 0);
    remove_->setEnabled(row >= 0);
    showError();
}

// Under the list unless the editor already shows it at its field.
void LimiterListEditor::showError() {
    errorLabel_->setText(error_);
    errorLabel_->setVisible(!error_.isEmpty() &&
                            !(errorAtField_ && errorRow_ == list_->currentRow()));
}

void LimiterListEditor::edited(bool committed) {
    const int row = list_->currentRow();
    if (row < 0)
        return;
    forms_[row] = editor_->formJson();
    revalidate(committed);
}

void LimiterListEditor::replaceSpec(int row, const LimiterSpec& spec) {
    if (row < 0 || row >= forms_.size())
        return;
    forms_[row] = limiterSpecToJson(spec);
    if (row == list_->currentRow())
        editor_->setFormJson(forms_[row]);
    revalidate(false);
}

void LimiterListEditor::revalidate(bool announce) {
    const QString before = error_;
    error_.clear();
    errorRow_ = -1;
    errorAtField_ = false;
    QStringList names;
    for (int row = 0; row < forms_.size(); ++row) {
        const QJsonObject& form = forms_[row];
        const QString name = form.value(QLatin1String("name")).toString();
        QString problem;
        bool parseError = false;
        try {
            parseLimiterSpec(form);
        } catch (const InputError& e) {
            problem = e.message();
            parseError = true;
        }
        const int earlier = int(names.indexOf(name));
        if (problem.isEmpty() && earlier >= 0) {
            problem =
                tr("name \"%1\" is used by limiter %2").arg(name, QString::number(earlier + 1));
        }
        names << name;

        QListWidgetItem* item = list_->item(row);
        item->setText(tr("%1 — %2").arg(name.isEmpty() ? tr("(no name)") : name,
                                        algorithmViewOf(form).title()));
        item->setToolTip(problem);
        item->setIcon(problem.isEmpty()
                          ? QIcon()
                          : list_->style()->standardIcon(QStyle::SP_MessageBoxWarning));
        if (error_.isEmpty() && !problem.isEmpty()) {
            error_ = tr("limiter %1: %2").arg(QString::number(row + 1), problem);
            errorRow_ = row;
            errorAtField_ = parseError;
        }
    }
    if (forms_.isEmpty())
        error_ = tr("no limiters: add one");
    showError();

    const bool valid = error_.isEmpty();
    const bool flipped = valid != valid_;
    valid_ = valid;
    if (flipped)
        emit validityChanged(valid);
    if (error_ != before)
        emit errorChanged(error_);
    if (announce)
        emit specsChanged();
}

// "limiter-N" for the smallest N from the list's size + 1 on that no limiter uses.
QString LimiterListEditor::unusedName() const {
    QSet<QString> used;
    for (const QJsonObject& form : forms_)
        used.insert(form.value(QLatin1String("name")).toString());
    for (qsizetype n = forms_.size() + 1;; ++n) {
        const QString name = QStringLiteral("limiter-%1").arg(n);
        if (!used.contains(name))
            return name;
    }
}

}  // namespace ratelab
