#pragma once

#include <QGroupBox>
#include <QJsonObject>
#include <QLatin1String>
#include <initializer_list>

QT_BEGIN_NAMESPACE
class QComboBox;
class QFormLayout;
class QLineEdit;
QT_END_NAMESPACE

namespace ratelab {

// One group of the traffic editor's form (shape, clients, acquire, clock, run): its fields in a
// QFormLayout, `edited()` on every change of one of them. The editor asks each section for its
// part of the scenario JSON and for the field a parser error names.
class TrafficSection : public QGroupBox {
    Q_OBJECT

public:
    TrafficSection(const QString& title, QWidget* parent);

    // The field an error's JSON path names, if it is one of this section's.
    virtual QWidget* fieldFor(const QString& where) const = 0;
    // Every form layout of the section (for lining up the labels of all sections).
    virtual QList<QFormLayout*> forms() const;

signals:
    void edited();

protected:
    // A line edit whose changes are edits.
    QLineEdit* lineEdit(const QString& name, const QString& placeholder, QWidget* parent);
    // The field of the first path `where` starts with (a whole path component); null if none.
    static QWidget* matchField(const QString& where,
                               std::initializer_list<std::pair<const char*, QWidget*>> fields);

    QFormLayout* form_ = nullptr;
};

// Helpers for the sections' fields and JSON.
namespace traffic_form {
QFormLayout* formLayout(QWidget* widget);
// A choice whose long titles do not set the form's least width: the box shows what fits, its
// list the whole titles.
void letNarrow(QComboBox* box);
// A row holding several widgets side by side.
QWidget* rowOf(QWidget* parent, std::initializer_list<QWidget*> widgets);
// Buttons side by side at the row's start, at their own width.
QWidget* buttonRow(QWidget* parent, std::initializer_list<QWidget*> buttons);
// Numbers as the scenario writer prints them, so that values round-trip exactly.
QString numberText(double value);
// A field's text as a JSON value: a number when it reads as one, else the text itself, so that
// the parser says what is wrong with it ("abc" → must be a number, got "abc" (a string)).
QJsonValue numberValue(const QString& text);
// A field the format requires: left out while empty, which the parser reports as missing.
void insertRequired(QJsonObject& object, QLatin1String key, const QString& text);
}  // namespace traffic_form

}  // namespace ratelab
