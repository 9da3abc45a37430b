#pragma once

#include <QString>
#include <stdexcept>

namespace ratelab {

// Bad input from a user: a spec, scenario, trace, URL or form field. `where` names the place
// (a file and line, a JSON path such as `$.rules[1].limit`, or a URL part); `what` says what is
// wrong with it. The command line maps it to exit code 2, the window to an inline error.
class InputError : public std::runtime_error {
public:
    InputError(QString where, QString what)
        : std::runtime_error(
              (where.isEmpty() ? what : where + QStringLiteral(": ") + what).toStdString()),
          where_(std::move(where)),
          what_(std::move(what)) {}

    const QString& where() const { return where_; }
    const QString& problem() const { return what_; }
    QString message() const { return QString::fromStdString(std::runtime_error::what()); }

    // The same error with a prefix (usually a file name) in front of its place.
    InputError within(const QString& prefix) const {
        return InputError(where_.isEmpty() ? prefix : prefix + QStringLiteral(": ") + where_,
                          what_);
    }

private:
    QString where_;
    QString what_;
};

}  // namespace ratelab
