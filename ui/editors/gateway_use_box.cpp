#include "editors/gateway_use_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>

#include "editors/field_help.h"
#include "input_error.h"
#include "input_limits.h"

namespace ratelab {
namespace {

const QLatin1String kGateway("gateway"), kMode("mode"), kCacheRefusals("cache_refusals"),
    kSyncMs("sync_ms");
constexpr GatewayMode kModes[] = {GatewayMode::Shared, GatewayMode::Local, GatewayMode::Batched};
constexpr int kDefaultSyncMs = 1000;

// Whether the engine takes the mode "batched" for a limiter of `type` (readGatewayUse decides,
// so the window offers exactly what a scenario file may say).
bool batchedAllowed(LimiterType type) {
    try {
        readGatewayUse(QJsonObject{{kMode, gatewayModeName(GatewayMode::Batched)}, {kSyncMs, 1}},
                       QStringLiteral("$.gateway"), type);
        return true;
    } catch (const InputError&) {
        return false;
    }
}

}  // namespace

GatewayUseBox::GatewayUseBox(QWidget* parent) : QWidget(parent), form_(new QFormLayout(this)) {
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A heading row rather than a group box, whose frame would indent the fields: they line up
    // with the editor's other forms.
    form_->setContentsMargins(0, 0, 0, 0);
    auto* heading = new QLabel(tr("Gateway use"), this);
    heading->setObjectName(QStringLiteral("gatewayUseTitle"));
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    form_->addRow(heading);
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("gatewayMode"));
    // Its long titles do not widen the editor: the list shows them whole.
    mode_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mode_->setMinimumContentsLength(16);
    for (const GatewayMode mode : kModes) {
        QString title;
        switch (mode) {
            case GatewayMode::Shared:
                title = tr("shared (every decision in Redis)");
                break;
            case GatewayMode::Local:
                title = tr("local (each gateway its own limiter)");
                break;
            case GatewayMode::Batched:
                title = tr("batched (grants added to Redis in batches)");
                break;
        }
        mode_->addItem(title, gatewayModeName(mode));
    }
    cacheRefusals_ = new QCheckBox(tr("cache refusals"), this);
    cacheRefusals_->setObjectName(QStringLiteral("cacheRefusals"));
    syncMs_ = new QSpinBox(this);
    syncMs_->setObjectName(QStringLiteral("syncMs"));
    // From 0: the parser, not the box, says that a batch needs at least 1 ms.
    syncMs_->setRange(0, int(spec_limits::kMaxAlgoPeriodMs));
    syncMs_->setSuffix(tr(" ms"));
    syncMs_->setValue(kDefaultSyncMs);
    for (QWidget* field : {static_cast<QWidget*>(mode_), static_cast<QWidget*>(cacheRefusals_),
                           static_cast<QWidget*>(syncMs_)})
        field->setToolTip(fieldHelp(field->objectName()));

    form_->addRow(tr("&Mode"), mode_);
    errors_.add(form_, this, QStringLiteral("$.gateway.mode"), mode_,
                QStringLiteral("gatewayMode"));
    form_->addRow(QString(), cacheRefusals_);
    errors_.add(form_, this, QStringLiteral("$.gateway.cache_refusals"), cacheRefusals_,
                QStringLiteral("cacheRefusals"));
    form_->addRow(tr("S&ync every"), syncMs_);
    errors_.add(form_, this, QStringLiteral("$.gateway.sync_ms"), syncMs_,
                QStringLiteral("syncMs"));
    // The object itself (no field marked: the mode's own row would be unmarked again).
    errors_.add(form_, this, QStringLiteral("$.gateway"), nullptr, QStringLiteral("gateway"));

    connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emit edited();
        emit committed();  // a choice
    });
    connect(cacheRefusals_, &QCheckBox::toggled, this, [this] {
        emit edited();
        emit committed();
    });
    connect(syncMs_, &QSpinBox::valueChanged, this, &GatewayUseBox::edited);
    connect(syncMs_, &QSpinBox::editingFinished, this, &GatewayUseBox::committed);
    updateEnabled();
}

GatewayMode GatewayUseBox::mode() const {
    return kModes[std::max(0, mode_->currentIndex())];
}

void GatewayUseBox::setType(LimiterType type) {
    // A batched limiter whose type no longer allows it keeps the choice: the parser's error
    // says why it is wrong, at the mode.
    auto* model = qobject_cast<QStandardItemModel*>(mode_->model());
    if (QStandardItem* item = model ? model->item(int(GatewayMode::Batched)) : nullptr)
        item->setEnabled(batchedAllowed(type));
}

void GatewayUseBox::writeJson(QJsonObject& json) const {
    const GatewayMode current = mode();
    const bool cached = current == GatewayMode::Shared && cacheRefusals_->isChecked();
    if (current == GatewayMode::Shared && !cached)
        return;  // the default
    QJsonObject gateway{{kMode, gatewayModeName(current)}};
    if (cached)
        gateway.insert(kCacheRefusals, true);
    if (current == GatewayMode::Batched)
        gateway.insert(kSyncMs, syncMs_->value());
    json.insert(kGateway, gateway);
}

void GatewayUseBox::fill(const QJsonObject& values) {
    const QSignalBlocker quietMode(mode_);
    const QSignalBlocker quietCache(cacheRefusals_);
    const QSignalBlocker quietSync(syncMs_);
    const QJsonObject gateway = values.value(kGateway).toObject();
    const int index =
        mode_->findData(gateway.value(kMode).toString(gatewayModeName(GatewayMode::Shared)));
    mode_->setCurrentIndex(std::max(0, index));
    cacheRefusals_->setChecked(gateway.value(kCacheRefusals).toBool(false));
    syncMs_->setValue(gateway.value(kSyncMs).toInt(kDefaultSyncMs));
    updateEnabled();
}

void GatewayUseBox::updateEnabled() {
    cacheRefusals_->setEnabled(mode() == GatewayMode::Shared);
    syncMs_->setEnabled(mode() == GatewayMode::Batched);
}

bool GatewayUseBox::showProblem(const QString& where, const QString& message) {
    return errors_.show(where, message);
}

void GatewayUseBox::repaintProblem(const QPalette& palette) {
    errors_.repaint(palette);
}

}  // namespace ratelab
