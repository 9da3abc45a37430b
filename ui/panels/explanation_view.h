#pragma once

#include <QWidget>
#include <optional>

#include "explain/explanation.h"

QT_BEGIN_NAMESPACE
class QTextBrowser;
QT_END_NAMESPACE

namespace ratelab {

// One decision explained, for a teacher in front of a class: the request and the outcome, why
// (the reason with its numbers, large), a script limiter's raw reply beside its reference's
// decision and reason (whether they agree), the limiter's keys in Redis just before and just after
// it, the HTTP headers a server would send, and what would have let it through (the time it
// passes, the smallest change of each setting, each found by deciding again on Redis). Shown by
// the Step panel for the selected decision and by a timeline's click-to-explain.
class ExplanationView : public QWidget {
    Q_OBJECT

public:
    explicit ExplanationView(QWidget* parent = nullptr);

    void show(const std::optional<Explanation>& explanation, const QString& placeholder = {});
    // The text shown (for tests).
    QString plainText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void render();
    QString html(const Explanation& e) const;
    QString scriptAndReference(const Explanation& e) const;

    QTextBrowser* text_ = nullptr;
    std::optional<Explanation> shown_;
    QString placeholder_;
};

}  // namespace ratelab
