#pragma once

#include <QJsonObject>
#include <QLatin1String>
#include <QString>
#include <vector>

#include "limiters/script_spec.h"

namespace ratelab {

// The script type's JSON fields (script_spec_parser.cpp), for its descriptor.
const std::vector<QLatin1String>& scriptFieldKeys();
// Reads them into spec.script (the common fields are read already); the .lua is read relative
// to `baseDir`. InputErrors name the JSON path.
void readScriptFields(const QJsonObject& object, const QString& path, const QString& baseDir,
                      LimiterSpec& spec);
void writeScriptFields(const LimiterSpec& spec, QJsonObject& object, SpecFiles files);

}  // namespace ratelab
