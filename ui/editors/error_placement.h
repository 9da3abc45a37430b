#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ratelab {

// Moves `error` into its own row right under the form row holding `field` (its own row, or that
// of the row widget around it). It spans the row and is indented to the field column by
// `labelWidth`: QFormLayout gives a wrapped label in the field column the height of its size
// hint (four short lines) rather than that of its width.
void placeErrorUnder(QWidget* error, QWidget* field, int labelWidth);

}  // namespace ratelab
