// GroupsSection (editors/groups_section.h). Each row keeps its group as the JSON object the
// scenario file holds; a cell's edit changes its field in that object and nothing else, so the
// fields the table does not show are written back untouched.

#include "editors/groups_section.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QToolButton>

#include "editors/field_help.h"
#include "editors/group_shape.h"
#include "editors/shape_json_dialog.h"

namespace ratelab {
namespace {

using group_shape::valueText;

constexpr int kMostRowsShown = 6;  // more scroll inside the table

const QLatin1String kNameKey("name"), kClientsKey("clients"), kShapeKey("shape");
const QLatin1String kTypeKey("type"), kRateKey("rate");

QString typeOf(const QJsonObject& group) {
    return group.value(kShapeKey).toObject().value(kTypeKey).toString();
}

QComboBox* typeBox(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->setObjectName(QStringLiteral("groupShape"));
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(7);
    for (const QString& name : group_shape::typeNames())
        box->addItem(name, name);
    return box;
}

// Shows `type` in the box, added when the parser does not know it (it then says so).
void showType(QComboBox* box, const QString& type) {
    const QSignalBlocker blocker(box);
    if (box->findData(type) < 0)
        box->addItem(type, type);
    box->setCurrentIndex(box->findData(type));
}

// A Rate cell's summary of the shape, a button that edits it as JSON: its text elided to the
// cell's width (a tool button clips it).
class SummaryButton : public QToolButton {
public:
    SummaryButton(const QString& summary, QWidget* parent)
        : QToolButton(parent), summary_(summary) {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        setText(summary_);
    }

protected:
    void resizeEvent(QResizeEvent* event) override {
        const int room = width() - fontMetrics().horizontalAdvance(QLatin1Char('x')) * 2;
        setText(fontMetrics().elidedText(summary_, Qt::ElideRight, qMax(room, 0)));
        QToolButton::resizeEvent(event);
    }

private:
    QString summary_;
};

}  // namespace

GroupsSection::GroupsSection(QWidget* parent) : TrafficSection(tr("Groups"), parent) {
    hint_ = new QLabel(this);
    hint_->setObjectName(QStringLiteral("groupsHint"));
    hint_->setWordWrap(true);
    form_->addRow(hint_);

    table_ = new QTableWidget(0, kColumns, this);
    table_->setObjectName(QStringLiteral("groups"));
    const std::pair<QString, const char*> headers[] = {{tr("Name"), "groupName"},
                                                       {tr("Clients"), "groupClients"},
                                                       {tr("Shape"), "groupShape"},
                                                       {tr("Rate/s"), "groupRate"}};
    for (int column = 0; column < kColumns; ++column) {
        auto* item = new QTableWidgetItem(headers[column].first);
        item->setToolTip(fieldHelp(QLatin1String(headers[column].second)));
        table_->setHorizontalHeaderItem(column, item);
    }
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The columns share the dock's width: the table never asks for more.
    // Name as wide as a short name ("attacker": a longer one scrolls in its cell), Clients as
    // its header, Shape as its choice, and the Rate cell's summary the rest.
    QHeaderView* header = table_->horizontalHeader();
    const int padding = fontMetrics().horizontalAdvance(QLatin1Char('x')) * 2;
    header->setMinimumSectionSize(padding * 2);
    for (int column = kName; column < kRate; ++column)
        header->setSectionResizeMode(column, QHeaderView::Fixed);
    header->setSectionResizeMode(kRate, QHeaderView::Stretch);
    header->resizeSection(kName,
                          fontMetrics().horizontalAdvance(QStringLiteral("attacker")) + padding);
    header->resizeSection(kClients, fontMetrics().horizontalAdvance(tr("Clients")) + padding);
    QComboBox* probe = typeBox(this);
    header->resizeSection(kShape, probe->sizeHint().width());
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(probe->sizeHint().height());
    delete probe;
    form_->addRow(table_);

    add_ = new QPushButton(tr("Add group"), this);
    add_->setObjectName(QStringLiteral("addGroup"));
    remove_ = new QPushButton(tr("Remove group"), this);
    remove_->setObjectName(QStringLiteral("removeGroup"));
    form_->addRow(traffic_form::buttonRow(this, {add_, remove_}));
    connect(add_, &QPushButton::clicked, this, &GroupsSection::addGroup);
    connect(remove_, &QPushButton::clicked, this, &GroupsSection::removeGroup);
    rowsChanged();
}

void GroupsSection::load(const TrafficSpec& traffic) {
    table_->setRowCount(0);
    rows_.clear();
    if (!traffic.groups.isEmpty()) {
        // The scenario writer's own JSON for them, so that they round-trip exactly.
        Scenario scenario;
        scenario.traffic = traffic;
        const QJsonArray groups = scenarioToJson(scenario)
                                      .value(QLatin1String("traffic"))
                                      .toObject()
                                      .value(QLatin1String("groups"))
                                      .toArray();
        for (const QJsonValue& group : groups)
            appendRow(group.toObject());
    }
    rowsChanged();
}

bool GroupsSection::hasGroups() const {
    return !rows_.isEmpty();
}

void GroupsSection::writeJson(QJsonObject& traffic) const {
    QJsonArray groups;
    for (const Row& row : rows_)
        groups.append(row.group);
    traffic.insert(QLatin1String("groups"), groups);
}

QWidget* GroupsSection::fieldFor(const QString& where) const {
    static const QRegularExpression kGroup(QStringLiteral(R"(^\$\.traffic\.groups\[(\d+)\])"));
    const QRegularExpressionMatch match = kGroup.match(where);
    const int row = match.hasMatch() ? match.captured(1).toInt() : -1;
    if (row < 0 || row >= table_->rowCount())
        return matchField(where, {{"$.traffic.groups", table_}});
    const QString rest = where.mid(match.capturedLength());
    const QString shape = QStringLiteral(".shape");
    if (rest == QLatin1String(".clients"))
        return table_->cellWidget(row, kClients);
    if (rest == shape + QLatin1String(".type"))
        return table_->cellWidget(row, kShape);
    if (rest == shape || rest.startsWith(shape + QLatin1Char('.')))
        return table_->cellWidget(row, kRate);
    return table_->cellWidget(row, kName);  // its name, or the group as a whole
}

void GroupsSection::addGroup() {
    QString name;
    for (int n = rows_.size() + 1; name.isEmpty(); ++n) {
        name = QStringLiteral("group%1").arg(n);
        for (const Row& row : rows_) {
            if (row.group.value(kNameKey).toString() == name)
                name.clear();
        }
    }
    appendRow({{kNameKey, name},
               {kClientsKey, 1},
               {kShapeKey, group_shape::defaultShape(QStringLiteral("constant"), 10)}});
    rowsChanged();
    const int row = table_->rowCount() - 1;
    table_->setCurrentCell(row, kName);
    table_->cellWidget(row, kName)->setFocus();
    emit edited();
}

void GroupsSection::removeGroup() {
    const int current = table_->currentRow();
    const int row = current >= 0 ? current : table_->rowCount() - 1;
    if (row < 0)
        return;
    table_->removeRow(row);
    rows_.remove(row);
    rowsChanged();
    emit edited();
}

void GroupsSection::editShape(int row) {
    if (row < 0 || row >= rows_.size())
        return;
    auto* dialog = new ShapeJsonDialog(rows_[row].group.value(kNameKey).toString(),
                                       rows_[row].group.value(kShapeKey).toObject(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QPointer<QWidget> cell = table_->cellWidget(row, kName);
    connect(dialog, &QDialog::accepted, this, [this, dialog, cell] {
        const int at = rowOf(cell);
        if (at >= 0)
            setShape(at, dialog->shape());
    });
    dialog->open();
}

bool GroupsSection::eventFilter(QObject* watched, QEvent* event) {
    // A cell's field taking the focus makes its row the current one (Remove group's).
    if (event->type() == QEvent::FocusIn) {
        const int row = rowOf(qobject_cast<QWidget*>(watched));
        if (row >= 0 && row != table_->currentRow())
            table_->selectRow(row);
    }
    return TrafficSection::eventFilter(watched, event);
}

void GroupsSection::appendRow(const QJsonObject& group) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    Row added;
    added.group = group;
    added.clients = valueText(group.value(kClientsKey));
    rows_.append(added);

    const auto cellEdit = [this](const char* name, const QString& text) {
        auto* edit = new QLineEdit(text, table_);
        edit->setObjectName(QLatin1String(name));
        edit->setFrame(false);
        edit->setToolTip(fieldHelp(edit->objectName()));
        edit->installEventFilter(this);
        return edit;
    };
    QLineEdit* name = cellEdit("groupName", valueText(group.value(kNameKey)));
    name->setPlaceholderText(tr("name"));
    connect(name, &QLineEdit::textChanged, this,
            [this, name](const QString& text) { setName(name, text); });
    table_->setCellWidget(row, kName, name);
    QLineEdit* clients = cellEdit("groupClients", added.clients);
    connect(clients, &QLineEdit::textChanged, this,
            [this, clients](const QString& text) { setClients(clients, text); });
    table_->setCellWidget(row, kClients, clients);
    QComboBox* type = typeBox(table_);
    type->setToolTip(fieldHelp(type->objectName()));
    type->installEventFilter(this);
    showType(type, typeOf(group));
    connect(type, &QComboBox::currentIndexChanged, this,
            [this, type] { chooseType(type, type->currentData().toString()); });
    table_->setCellWidget(row, kShape, type);
    showShape(row);
}

// The Rate cell for the row's shape, and its Clients cell (a replay's come from its trace).
void GroupsSection::showShape(int row) {
    const QJsonObject shape = rows_[row].group.value(kShapeKey).toObject();
    showType(qobject_cast<QComboBox*>(table_->cellWidget(row, kShape)), typeOf(rows_[row].group));
    QWidget* rate = nullptr;
    if (group_shape::isSimple(shape)) {
        auto* edit = new QLineEdit(valueText(shape.value(kRateKey)), table_);
        edit->setObjectName(QStringLiteral("groupRate"));
        edit->setFrame(false);
        edit->setPlaceholderText(tr("requests/s"));
        connect(edit, &QLineEdit::textChanged, this,
                [this, edit](const QString& text) { setRate(edit, text); });
        rate = edit;
    } else {
        auto* button = new SummaryButton(group_shape::summary(shape), table_);
        button->setObjectName(QStringLiteral("groupShapeJson"));
        connect(button, &QToolButton::clicked, this, [this, button] { editShape(rowOf(button)); });
        rate = button;
    }
    rate->setToolTip(fieldHelp(rate->objectName()) + QStringLiteral("\n") +
                     QString::fromUtf8(QJsonDocument(shape).toJson(QJsonDocument::Compact)));
    rate->installEventFilter(this);
    table_->setCellWidget(row, kRate, rate);

    auto* clients = qobject_cast<QLineEdit*>(table_->cellWidget(row, kClients));
    const bool replay = typeOf(rows_[row].group) == QLatin1String("replay");
    const QSignalBlocker blocker(clients);
    clients->setEnabled(!replay);
    clients->setText(replay ? QString() : rows_[row].clients);
    clients->setPlaceholderText(replay ? tr("trace") : QStringLiteral("1"));
}

void GroupsSection::setName(QWidget* cell, const QString& text) {
    rows_[rowOf(cell)].group.insert(kNameKey, text);
    emit edited();
}

void GroupsSection::setClients(QWidget* cell, const QString& text) {
    Row& row = rows_[rowOf(cell)];
    row.clients = text;
    if (text.trimmed().isEmpty())
        row.group.remove(kClientsKey);  // the parser's default, 1
    else
        row.group.insert(kClientsKey, traffic_form::numberValue(text));
    emit edited();
}

void GroupsSection::setRate(QWidget* cell, const QString& text) {
    Row& row = rows_[rowOf(cell)];
    QJsonObject shape = row.group.value(kShapeKey).toObject();
    if (text.trimmed().isEmpty())
        shape.remove(kRateKey);  // the parser says it is missing
    else
        shape.insert(kRateKey, traffic_form::numberValue(text));
    row.group.insert(kShapeKey, shape);
    emit edited();
}

// The shape left keeps its fields for a later return to its type; the one chosen gets its own
// back, or a start derived from the rate.
void GroupsSection::chooseType(QWidget* cell, const QString& type) {
    const int row = rowOf(cell);
    const QJsonObject shape = rows_[row].group.value(kShapeKey).toObject();
    setShape(row, rows_[row].shapes.value(
                      type, group_shape::defaultShape(type, group_shape::rateOf(shape))));
}

void GroupsSection::setShape(int row, const QJsonObject& shape) {
    Row& at = rows_[row];
    const QJsonObject old = at.group.value(kShapeKey).toObject();
    const QString oldType = old.value(kTypeKey).toString();
    if (oldType != shape.value(kTypeKey).toString())
        at.shapes.insert(oldType, old);
    at.group.insert(kShapeKey, shape);
    if (shape.value(kTypeKey).toString() == QLatin1String("replay"))
        at.group.remove(kClientsKey);  // refused beside a trace
    else if (!at.clients.trimmed().isEmpty())
        at.group.insert(kClientsKey, traffic_form::numberValue(at.clients));
    showShape(row);
    emit edited();
}

int GroupsSection::rowOf(const QWidget* cell) const {
    for (int row = 0; cell && row < table_->rowCount(); ++row) {
        for (int column = 0; column < kColumns; ++column) {
            if (table_->cellWidget(row, column) == cell)
                return row;
        }
    }
    return -1;
}

// The table as tall as its rows (up to kMostRowsShown), hidden without any; the hint says what
// the groups replace.
void GroupsSection::rowsChanged() {
    const int rows = table_->rowCount();
    const int shown = qBound(1, rows, kMostRowsShown);
    table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() +
                           shown * table_->verticalHeader()->defaultSectionSize() +
                           2 * table_->frameWidth());
    form_->setRowVisible(table_, rows > 0);
    remove_->setEnabled(rows > 0);
    hint_->setText(rows == 0 ? tr("No groups: the shape and clients above make the traffic. Add "
                                  "groups to give clients roles (users beside an attacker).")
                             : tr("Each group sends its own shape from its own clients; together "
                                  "they replace the shape and clients above."));
}

}  // namespace ratelab
