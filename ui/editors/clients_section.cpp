#include "editors/clients_section.h"

#include "editors/field_help.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLineEdit>

namespace ratelab {

using namespace traffic_form;

ClientsSection::ClientsSection(QWidget* parent)
    : TrafficSection(tr("Clients and requests"), parent) {
    clients_ = lineEdit(QStringLiteral("clients"), tr("c0 … c<N-1>"), this);
    weights_ =
        lineEdit(QStringLiteral("weights"), tr("uniform, or one per client: 1, 1, 2, 4"), this);
    permitsMin_ = lineEdit(QStringLiteral("permitsMin"), tr("permits"), this);
    permitsRange_ = new QCheckBox(tr("up to"), this);
    permitsRange_->setObjectName(QStringLiteral("permitsRange"));
    permitsRange_->setToolTip(tr("Each request asks for a uniformly random number of permits"));
    connect(permitsRange_, &QCheckBox::toggled, this, &TrafficSection::edited);
    permitsMax_ = lineEdit(QStringLiteral("permitsMax"), tr("max"), this);
    threads_ = lineEdit(QStringLiteral("threads"), QString(), this);
    pipeline_ = lineEdit(QStringLiteral("pipeline"), tr("in flight per thread"), this);
    ownRoundTrips_ = new QCheckBox(tr("a round trip per limiter"), this);
    ownRoundTrips_->setObjectName(QStringLiteral("roundTrips"));
    ownRoundTrips_->setToolTip(
        tr("Each limiter's share of a batch goes to Redis on its own, read before the next "
           "limiter's is sent: each limiter's latency is its own round trip. Off: one pipeline "
           "for every limiter, whose latencies are then that one round trip's. Decisions are "
           "the same either way."));
    connect(ownRoundTrips_, &QCheckBox::toggled, this, &TrafficSection::edited);
    clockSkew_ = lineEdit(QStringLiteral("clockSkew"), tr("none; 800; or c2: 800, c3: -250"), this);
    form_->addRow(tr("Clients"), clients_);
    form_->addRow(tr("Weights"), weights_);
    form_->addRow(tr("Permits"), rowOf(this, {permitsMin_, permitsRange_, permitsMax_}));
    form_->addRow(tr("Threads"), threads_);
    form_->addRow(tr("Pipeline"), rowOf(this, {pipeline_, ownRoundTrips_}));
    form_->addRow(tr("Clock skew (ms)"), clockSkew_);

    clients_->setText(QStringLiteral("1"));
    permitsMin_->setText(QStringLiteral("1"));
    permitsMax_->setText(QStringLiteral("1"));
    threads_->setText(QStringLiteral("1"));
    pipeline_->setText(QStringLiteral("1"));
}

void ClientsSection::writeJson(QJsonObject& traffic, bool replay) const {
    if (!replay) {
        if (weights_->text().trimmed().isEmpty()) {
            traffic.insert(QLatin1String("clients"), numberValue(clients_->text()));
        } else {
            QJsonArray weights;
            for (const QString& weight : weights_->text().split(QLatin1Char(',')))
                weights.append(numberValue(weight));
            QJsonObject clients{{QLatin1String("weights"), weights}};
            insertRequired(clients, QLatin1String("count"), clients_->text());
            traffic.insert(QLatin1String("clients"), clients);
        }
        if (permitsRange_->isChecked()) {
            QJsonObject permits;
            insertRequired(permits, QLatin1String("min"), permitsMin_->text());
            insertRequired(permits, QLatin1String("max"), permitsMax_->text());
            traffic.insert(QLatin1String("permits"), permits);
        } else {
            traffic.insert(QLatin1String("permits"), numberValue(permitsMin_->text()));
        }
    }
    // Optional fields go in even when empty: a cleared field is reported, not read as default.
    traffic.insert(QLatin1String("threads"), numberValue(threads_->text()));
    traffic.insert(QLatin1String("pipeline"), numberValue(pipeline_->text()));
    if (ownRoundTrips_->isChecked())
        traffic.insert(QLatin1String("round_trips"), QStringLiteral("per_limiter"));
    // "800" (every client) or "c2: 800, c3: -250" (those clients); empty: none.
    const QString skew = clockSkew_->text().trimmed();
    if (skew.contains(QLatin1Char(':'))) {
        QJsonObject perClient;
        for (const QString& pair : skew.split(QLatin1Char(','))) {
            const qsizetype colon = pair.indexOf(QLatin1Char(':'));
            perClient.insert(pair.left(colon).trimmed(), colon < 0
                                                             ? QJsonValue(pair.trimmed())
                                                             : numberValue(pair.mid(colon + 1)));
        }
        traffic.insert(QLatin1String("clock_skew_ms"), perClient);
    } else if (!skew.isEmpty()) {
        traffic.insert(QLatin1String("clock_skew_ms"), numberValue(skew));
    }
}

void ClientsSection::load(const TrafficSpec& traffic) {
    if (traffic.shape.type != ShapeSpec::Type::Replay) {
        clients_->setText(QString::number(traffic.clients));
        QStringList weights;
        for (const double weight : traffic.clientWeights)
            weights << numberText(weight);
        weights_->setText(weights.join(QStringLiteral(", ")));
        permitsMin_->setText(QString::number(traffic.permitsMin));
        permitsMax_->setText(QString::number(traffic.permitsMax));
        permitsRange_->setChecked(traffic.permitsMin != traffic.permitsMax);
    }
    threads_->setText(QString::number(traffic.threads));
    pipeline_->setText(QString::number(traffic.pipeline));
    ownRoundTrips_->setChecked(traffic.roundTripPerLimiter);
    QStringList skews;
    for (auto it = traffic.clientSkewMs.cbegin(); it != traffic.clientSkewMs.cend(); ++it)
        skews << QStringLiteral("%1: %2").arg(it.key()).arg(it.value());
    clockSkew_->setText(!skews.isEmpty()           ? skews.join(QStringLiteral(", "))
                        : traffic.clockSkewMs != 0 ? QString::number(traffic.clockSkewMs)
                                                   : QString());
}

void ClientsSection::updateEnabled(bool replay, bool grouped) {
    const QString fromTrace = tr("A replay's trace gives each request's client and permits");
    const QString fromGroups = tr("Each group has its own clients (Groups below)");
    for (QLineEdit* edit : {clients_, weights_, permitsMin_, permitsMax_}) {
        const bool clients = edit == clients_ || edit == weights_;
        edit->setEnabled(!replay && !(grouped && clients));
        edit->setToolTip(replay               ? fromTrace
                         : grouped && clients ? fromGroups
                                              : fieldHelp(edit->objectName()));
    }
    permitsRange_->setEnabled(!replay);
    permitsMax_->setEnabled(!replay && permitsRange_->isChecked());
}

QWidget* ClientsSection::fieldFor(const QString& where) const {
    return matchField(where, {
                                 {"$.traffic.clients.weights", weights_},
                                 {"$.traffic.clients", clients_},
                                 {"$.traffic.threads", threads_},
                                 {"$.traffic.pipeline", pipeline_},
                                 {"$.traffic.round_trips", ownRoundTrips_},
                                 {"$.traffic.clock_skew_ms", clockSkew_},
                                 {"$.traffic.permits.max", permitsMax_},
                                 {"$.traffic.permits", permitsMin_},
                             });
}

}  // namespace ratelab
