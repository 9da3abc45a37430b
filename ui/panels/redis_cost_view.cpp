#include "panels/redis_cost_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include "panels/column_fit.h"
#include "panels/table_cells.h"

namespace ratelab {

RedisCostView::RedisCostView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("costSummary"));
    summary_->setWordWrap(true);
    summary_->setToolTip(
        tr("Server time per decision: INFO commandstats (EVALSHA and EVAL: usec / calls) of the "
           "Redis nodes holding these limiters, since the run started. It counts every script "
           "call those nodes ran, every limiter of the run together and other clients' too.\n"
           "Decisions per Redis core: 1,000,000 µs / that time."));
    layout->addWidget(summary_);
    table_ = panel::makeTable(this, QStringLiteral("costTable"),
                              {tr("Limiter"), tr("Key memory"), tr("Keys")});
    panel::fitColumns(
        table_, {tr("The limiter whose keys these are (its name in the scenario)."),
                 tr("MEMORY USAGE summed over the limiter's keys: estimated from 5 samples per "
                    "key while the run goes, every element counted once it is over."),
                 tr("How many keys the limiter holds in Redis.")});
    // The name takes the room left; the two figures keep their width (a stretched "Keys" put
    // its count far from its header's neighbours).
    panel::fitColumnsToContents(table_, 0);
    layout->addWidget(table_);

    scriptNote_ = new QLabel(this);
    scriptNote_->setObjectName(QStringLiteral("scriptCostNote"));
    scriptNote_->setWordWrap(true);
    layout->addWidget(scriptNote_);
    scripts_ = panel::makeTable(
        this, QStringLiteral("scriptCost"),
        {tr("Script limiter"), tr("Script\nµs/decision"), tr("Reference\nµs/decision"),
         tr("Script\ncalls/decision"), tr("Reference\ncalls/decision")});
    panel::fitColumns(
        scripts_,
        {tr("A script limiter with a \"reference\", and the reference's type."),
         tr("Redis's server time per decision of the script alone (INFO commandstats: EVALSHA "
            "and EVAL usec / calls), deciding the run's first requests on keys of its own."),
         tr("The same for its reference alone, deciding the same requests."),
         tr("The Redis commands the script called per decision (ZADD, GET, …)."),
         tr("The Redis commands the reference called per decision.")});
    panel::fitColumnsToContents(scripts_, 0);
    layout->addWidget(scripts_);
    clear();
}

void RedisCostView::clear() {
    summary_->setText(tr("Redis's own cost: shown while a test runs."));
    table_->setRowCount(0);
    scripts_->setRowCount(0);
    scripts_->hide();
    scriptNote_->hide();
    fitTable();
}

QString RedisCostView::formatBytes(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

void RedisCostView::updateCost(const RunCost& cost, const QStringList& names) {
    const QLocale locale;
    if (!cost.scriptsKnown) {
        summary_->setText(tr("Server time per decision: not available (the server refused "
                             "INFO: %1)")
                              .arg(cost.scriptsRefusal));
    } else if (cost.calls <= 0) {
        summary_->setText(tr("Server time per decision: no decision yet."));
    } else {
        summary_->setText(tr("Redis spent %1 µs of server time per decision (%2 script calls "
                             "since the start, all limiters together): one Redis core could "
                             "decide %3 per second.")
                              .arg(locale.toString(cost.usPerDecision, 'f', 2),
                                   locale.toString(cost.calls),
                                   locale.toString(qRound64(cost.decisionsPerCoreSecond))));
    }
    const int rows = int(std::min<qsizetype>(names.size(), cost.bytes.size()));
    table_->setRowCount(rows);
    for (int i = 0; i < rows; ++i) {
        panel::setText(panel::cell(table_, i, 0, false), names[i]);
        QTableWidgetItem* bytes = panel::cell(table_, i, 1, true);
        QTableWidgetItem* keys = panel::cell(table_, i, 2, true);
        if (cost.bytes[i] < 0) {
            panel::setText(bytes, tr("refused"));
            bytes->setToolTip(cost.memoryRefusal);
            panel::setText(keys, panel::dash());
            continue;
        }
        bytes->setData(panel::kValueRole, double(cost.bytes[i]));
        panel::setText(
            bytes, (cost.exact ? QString() : QStringLiteral("≈ ")) + formatBytes(cost.bytes[i]));
        bytes->setToolTip(tr("%1 bytes%2")
                              .arg(locale.toString(cost.bytes[i]),
                                   cost.exact ? QString() : tr(" (sampled estimate)")));
        if (panel::valueChanged(keys, double(cost.keys[i]))) {
            panel::setText(keys, panel::count(cost.keys[i]));
        }
    }
    showScripts(cost, names);
    fitTable();
}

// Each script limiter beside its reference, once measured apart; nothing before.
void RedisCostView::showScripts(const RunCost& cost, const QStringList& names) {
    const QLocale locale;
    const bool shown = !cost.scripts.isEmpty();
    scripts_->setVisible(shown);
    scriptNote_->setVisible(shown);
    scripts_->setRowCount(int(cost.scripts.size()));
    if (!shown)
        return;
    scriptNote_->setText(
        tr("During the run a script limiter and its reference decide in the same round, so the "
           "time above is theirs together. Measured apart once it was over, each deciding the "
           "run's first %1 requests alone on keys of its own:")
            .arg(locale.toString(cost.scriptRequests)));
    const auto figure = [&locale](const std::optional<AloneCost>& c, bool time,
                                  const QString& refusal) {
        if (!c)
            return refusal.isEmpty() ? panel::dash() : tr("refused");
        return locale.toString(time ? c->usPerDecision : c->commandsPerDecision, 'f', 2);
    };
    for (int r = 0; r < cost.scripts.size(); ++r) {
        const RunCost::ScriptAgainstReference& s = cost.scripts[r];
        panel::setText(panel::cell(scripts_, r, 0, false), names.value(s.limiter));
        const QString cells[] = {figure(s.cost.script, true, s.cost.refusal),
                                 figure(s.cost.reference, true, s.cost.refusal),
                                 figure(s.cost.script, false, s.cost.refusal),
                                 figure(s.cost.reference, false, s.cost.refusal)};
        for (int c = 0; c < 4; ++c) {
            QTableWidgetItem* item = panel::cell(scripts_, r, c + 1, true);
            panel::setText(item, cells[c]);
            if (!s.cost.refusal.isEmpty())
                item->setToolTip(s.cost.refusal);
        }
        if (s.cost.script && s.cost.script->failed > 0) {
            scripts_->item(r, 1)->setToolTip(
                tr("%1 of the script's decisions failed (an error reply); their time counts")
                    .arg(locale.toString(s.cost.script->failed)));
        }
    }
}

QStringList RedisCostView::scriptRow(int row) const {
    return row < scripts_->rowCount() ? panel::rowTexts(scripts_, row) : QStringList();
}

int RedisCostView::scriptRows() const {
    return scripts_->isHidden() ? 0 : scripts_->rowCount();
}

// Every row shown (the comparison tab scrolls as a whole), the columns as wide as their texts.
void RedisCostView::fitTable() {
    panel::refitColumns(table_);
    panel::showAllRows(table_);
    panel::refitColumns(scripts_);
    panel::showAllRows(scripts_);
}

QString RedisCostView::summaryText() const {
    return summary_->text();
}

QStringList RedisCostView::row(int limiter) const {
    return panel::rowTexts(table_, limiter);
}

}  // namespace ratelab
