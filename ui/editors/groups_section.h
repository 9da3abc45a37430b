#pragma once

#include <QHash>
#include <QVector>

#include "editors/traffic_section.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTableWidget;
QT_END_NAMESPACE

namespace ratelab {

// Traffic groups (the scenario's "traffic.groups"): named client groups, each with its own
// clients and shape, one table row each — Name, Clients, Shape (its type) and Rate. Constant and
// poisson say their rate in the Rate cell; any other shape keeps its fields exactly as loaded,
// summed up in a Rate cell button that edits them as JSON (ShapeJsonDialog). A type chosen and
// left again gets its fields back. No rows: no groups, the shape and clients above make the
// traffic. With groups, they replace the shape and the client count (the duration, permits and
// the rest still apply).
class GroupsSection : public TrafficSection {
    Q_OBJECT

public:
    enum Column { kName, kClients, kShape, kRate, kColumns };

    explicit GroupsSection(QWidget* parent = nullptr);

    // One row per group, as the scenario writer writes them, so that they round-trip exactly.
    void load(const TrafficSpec& traffic);
    bool hasGroups() const;
    // Writes "groups": the rows' objects, each field as typed (the parser says what is wrong).
    void writeJson(QJsonObject& traffic) const;
    // "$.traffic.groups[1].clients" → that row's Clients cell; its shape's fields → its Rate
    // cell; the whole list → the table.
    QWidget* fieldFor(const QString& where) const override;

    void addGroup();
    // Removes the current row's group (none current: the last one).
    void removeGroup();
    // Edits row `row`'s shape as JSON in a window-modal dialog.
    void editShape(int row);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row {
        QJsonObject group;                   // {"name", "clients", "shape"} as written
        QHash<QString, QJsonObject> shapes;  // the shapes of the types chosen and left, by type
        QString clients;                     // the Clients cell's text, kept through a replay
    };

    void appendRow(const QJsonObject& group);
    void showShape(int row);
    void setName(QWidget* cell, const QString& text);
    void setClients(QWidget* cell, const QString& text);
    void setRate(QWidget* cell, const QString& text);
    void chooseType(QWidget* cell, const QString& type);
    void setShape(int row, const QJsonObject& shape);
    int rowOf(const QWidget* cell) const;
    void rowsChanged();

    QLabel* hint_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
    QVector<Row> rows_;
};

}  // namespace ratelab
