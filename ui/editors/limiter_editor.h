#pragma once

#include <QWidget>
#include <optional>

#include "limiters/limiter_spec.h"

namespace ratelab {

// Form for one limiter of any of the three types. Every edit is validated at once by the same
// parser the command line uses (parseLimiterSpec on the JSON the form stands for); the error is
// shown inline next to the offending field, named by its JSON path.
class LimiterEditor : public QWidget {
    Q_OBJECT

public:
    explicit LimiterEditor(QWidget* parent = nullptr);

    void setSpec(const LimiterSpec& spec);
    std::optional<LimiterSpec> spec() const;  // nullopt while invalid
    bool isValid() const;
    QString errorText() const;  // "$.rate: must be ..." or empty

signals:
    void specChanged();  // after every edit
    void validityChanged(bool valid);
};

// The scenario's limiters: a list with add (by type) and remove, and a LimiterEditor for the
// selected one. Invalid while any limiter is invalid or two share a name.
class LimiterListEditor : public QWidget {
    Q_OBJECT

public:
    explicit LimiterListEditor(QWidget* parent = nullptr);

    void setSpecs(const QVector<LimiterSpec>& specs);
    QVector<LimiterSpec> specs() const;  // the valid ones as edited (all of them when valid)
    bool isValid() const;
    QString errorText() const;  // the first problem, naming the limiter

signals:
    void specsChanged();
    void validityChanged(bool valid);
};

}  // namespace ratelab
