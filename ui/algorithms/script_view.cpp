#include <QCoreApplication>
#include <QFileInfo>

#include "algorithms/algorithm_view.h"
#include "algorithms/script_page.h"
#include "algorithms/view_list.h"
#include "limiters/script_spec.h"

namespace ratelab {
namespace {

class ScriptView final : public AlgorithmView {
    Q_DECLARE_TR_FUNCTIONS(ratelab::ScriptView)

public:
    ScriptView() : AlgorithmView(algorithmOf(LimiterType::Script)) {}
    QString title() const override { return tr("script"); }
    QString selectorLabel() const override { return tr("Script: your own Lua"); }
    bool usesCommonRate() const override { return false; }
    LimiterPage* makePage(QWidget* parent) const override { return new ScriptPage(parent); }
    // "my_log.lua, reference 10 per 1000 ms" (the reference's own configuration text).
    QString configText(const LimiterSpec& spec) const override {
        if (!spec.script) {
            return tr("script");
        }
        const QString source = spec.script->file.isEmpty()
                                   ? tr("inline script")
                                   : QFileInfo(spec.script->file).fileName();
        const std::optional<LimiterSpec> reference = referenceSpecOf(spec);
        if (!reference) {
            return source;
        }
        return tr("%1, reference %2").arg(source, algorithmView(*reference).configText(*reference));
    }
};

}  // namespace

const AlgorithmView& scriptView() {
    static const ScriptView view;
    return view;
}

}  // namespace ratelab
