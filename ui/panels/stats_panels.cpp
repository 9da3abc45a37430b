#include "panels/stats_panels.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace ratelab {

namespace {

const QString kDash = QStringLiteral("\u2014");  // a value that does not exist yet

// Numeric cells keep their value here: for sorting, and to skip formatting unchanged values.
constexpr int kValueRole = Qt::UserRole;

constexpr int kMaxClientRows = 1000;
constexpr int kMaxBars = 40;

// The widgets' headers declare no members (their API is fixed), so each widget keeps its
// state in one private child object found by object name. It also watches the owner for
// palette changes, since colours that are not plain palette roles are computed from it.
class PanelPrivate : public QObject {
public:
    PanelPrivate(QWidget* owner, const QString& name) : QObject(owner), owner_(owner) {
        setObjectName(name);
        owner->installEventFilter(this);
    }

protected:
    virtual void paletteChanged() {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == owner_ && event->type() == QEvent::PaletteChange)
            paletteChanged();
        return false;
    }

    QWidget* owner_;
};

template <typename P>
P* privateOf(const QWidget* owner) {
    P* d = dynamic_cast<P*>(owner->findChild<QObject*>(P::name(), Qt::FindDirectChildrenOnly));
    Q_ASSERT(d);
    return d;
}

QString count(qint64 value) {
    return QLocale().toString(value);
}

// Milliseconds from microseconds with about four significant digits.
QString formatMs(qint64 us) {
    const double ms = double(us) / 1000.0;
    const int decimals = ms < 10 ? 3 : ms < 100 ? 2 : ms < 1000 ? 1 : 0;
    return QLocale().toString(ms, 'f', decimals);
}

// A bar's label: the start of its first histogram bucket in ms. Above 10 ms buckets are at
// least 128 us wide (above 100 ms, 1024 us), so these precisions never give two bars one label.
QString barLabel(qint64 us) {
    const double ms = double(us) / 1000.0;
    return QLocale().toString(ms, 'f', ms < 10 ? 3 : ms < 100 ? 2 : 0);
}

// A red readable on the palette's base colour (light or dark).
QColor errorColor(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b)
                                                           : QColor(0xc6, 0x28, 0x28);
}

QTableWidget* makeTable(QWidget* parent, const QString& name, const QStringList& headers) {
    auto* table = new QTableWidget(0, int(headers.size()), parent);
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    // Fixed row heights and column widths: measuring contents of 1000 rows on each update
    // would cost more than the update itself.
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    QHeaderView* header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    const int numberWidth = table->fontMetrics().horizontalAdvance(QStringLiteral("10,000,000"));
    for (int c = 0; c < headers.size(); ++c) {
        const int headerWidth = table->fontMetrics().horizontalAdvance(headers[c]);
        table->setColumnWidth(c, std::max(headerWidth, numberWidth) + 20);
    }
    header->setStretchLastSection(true);
    return table;
}

// Creates the cell on first use; later updates only touch cells whose text changes.
template <typename Item = QTableWidgetItem>
QTableWidgetItem* cell(QTableWidget* table, int row, int column, bool number) {
    QTableWidgetItem* item = table->item(row, column);
    if (!item) {
        table->setItem(row, column, new Item);
        item = table->item(row, column);
        if (number)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    return item;
}

void setText(QTableWidgetItem* item, const QString& text) {
    if (item->text() != text)
        item->setText(text);
}

void setText(QLabel* label, const QString& text) {
    if (label->text() != text)
        label->setText(text);
}

// Stores `value`; true when it differs from the stored one (the text then needs formatting).
bool valueChanged(QTableWidgetItem* item, double value) {
    const QVariant old = item->data(kValueRole);
    if (old.isValid() && old.toDouble() == value)
        return false;
    item->setData(kValueRole, value);
    return true;
}

QStringList rowTexts(const QTableWidget* table, int row) {
    QStringList texts;
    if (row < 0 || row >= table->rowCount())
        return texts;
    for (int c = 0; c < table->columnCount(); ++c) {
        const QTableWidgetItem* item = table->item(row, c);
        texts.append(item ? item->text() : QString());
    }
    return texts;
}

// Keeps the combo's items equal to the run's limiter names, and the selection on the same name.
void syncLimiterCombo(QComboBox* combo, const RunSnapshot& run) {
    bool same = combo->count() == run.limiters.size();
    for (int i = 0; same && i < combo->count(); ++i)
        same = combo->itemText(i) == run.limiters[i].spec.name;
    if (same)
        return;
    const QString current = combo->currentText();
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (const LimiterSnapshot& limiter : run.limiters)
        combo->addItem(limiter.spec.name);
    combo->setCurrentIndex(std::max(0, combo->findText(current)));
}

QComboBox* addLimiterRow(QWidget* owner, QVBoxLayout* layout, QLabel* note = nullptr) {
    auto* row = new QHBoxLayout;
    layout->addLayout(row);
    auto* label = new QLabel(QStringLiteral("Limiter:"), owner);
    auto* combo = new QComboBox(owner);
    combo->setObjectName(QStringLiteral("limiter"));
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    label->setBuddy(combo);
    row->addWidget(label);
    row->addWidget(combo);
    row->addStretch(1);
    if (note)
        row->addWidget(note);
    return combo;
}

// ---- ComparisonTable ----

enum ComparisonColumn {
    kCmpLimiter,
    kCmpType,
    kCmpFired,
    kCmpAccepted,
    kCmpRejected,
    kCmpErrors,
    kCmpErrorsOpen,
    kCmpErrorsClosed,
    kCmpAcceptedPct,
    kCmpP50,
    kCmpP99,
    kCmpFairness,
};

class ComparisonPrivate : public PanelPrivate {
public:
    static QString name() { return QStringLiteral("ratelab-comparison-private"); }

    explicit ComparisonPrivate(ComparisonTable* owner) : PanelPrivate(owner, name()) {}

    QLabel* accounting = nullptr;
    QTableWidget* table = nullptr;
    QString plainText;  // accountingText()
    // A limiter whose identity failed once stays red for the rest of its run: a transient
    // failure is still a bug worth seeing.
    QString runId;
    QVector<bool> everBroken;
    QStringList lines;
    QVector<bool> red;

    void renderAccounting() {
        QStringList html;
        const QString color = errorColor(owner_->palette()).name();
        for (int i = 0; i < lines.size(); ++i) {
            const QString line = lines[i].toHtmlEscaped();
            html.append(red[i]
                            ? QStringLiteral("<span style=\"color:%1\">%2</span>").arg(color, line)
                            : line);
        }
        setText(accounting, html.join(QStringLiteral("<br>")));
    }

protected:
    void paletteChanged() override { renderAccounting(); }
};

QString runIdOf(const RunSnapshot& run) {
    QString id = run.scenarioName + QLatin1Char('\n') + QString::number(run.startEpochMs);
    for (const LimiterSnapshot& limiter : run.limiters)
        id += QLatin1Char('\n') + limiter.spec.name;
    return id;
}

// ---- ClientTable ----

enum ClientColumn {
    kCliClient,
    kCliFired,
    kCliAccepted,
    kCliRejected,
    kCliErrors,
    kCliWaited,
    kCliMeanWait,
};

// Sorts by the stored number, not by the formatted text ("1,000" < "999" as text).
class NumberItem : public QTableWidgetItem {
public:
    bool operator<(const QTableWidgetItem& other) const override {
        return data(kValueRole).toDouble() < other.data(kValueRole).toDouble();
    }
};

class ClientPrivate : public PanelPrivate {
public:
    static QString name() { return QStringLiteral("ratelab-clients-private"); }

    explicit ClientPrivate(ClientTable* owner) : PanelPrivate(owner, name()) {}

    QComboBox* combo = nullptr;
    QTableWidget* table = nullptr;
    QLabel* note = nullptr;
    RunSnapshot run;  // the last one, for switching limiters between updates

    void render();
};

void ClientPrivate::render() {
    const int index = combo->currentIndex();
    if (index < 0 || index >= run.limiters.size()) {
        table->setRowCount(0);
        note->hide();
        return;
    }
    const QVector<ClientTotals>& clients = run.limiters[index].clients;

    // Beyond the cap, the clients that fired most are shown.
    std::vector<int> shown(clients.size());
    std::iota(shown.begin(), shown.end(), 0);
    if (shown.size() > size_t(kMaxClientRows)) {
        std::nth_element(
            shown.begin(), shown.begin() + kMaxClientRows, shown.end(), [&](int a, int b) {
                return clients[a].fired != clients[b].fired ? clients[a].fired > clients[b].fired
                                                            : a < b;
            });
        shown.resize(kMaxClientRows);
        note->setText(QStringLiteral("%1 of %2 clients shown (those that fired most)")
                          .arg(count(kMaxClientRows), count(clients.size())));
        note->show();
    } else {
        note->hide();
    }

    // Rows are matched to clients by name and updated in place, with sorting off meanwhile
    // (otherwise every changed cell moves its row at once); turning it back on sorts once by
    // the column and order the user chose.
    table->setSortingEnabled(false);
    QSet<QString> names;
    names.reserve(int(shown.size()));
    for (int i : shown)
        names.insert(clients[i].client);
    for (int r = table->rowCount() - 1; r >= 0; --r) {
        const QTableWidgetItem* item = table->item(r, kCliClient);
        if (!item || !names.contains(item->text()))
            table->removeRow(r);
    }
    QHash<QString, int> rowOf;
    rowOf.reserve(table->rowCount());
    for (int r = 0; r < table->rowCount(); ++r)
        rowOf.insert(table->item(r, kCliClient)->text(), r);
    int nextRow = table->rowCount();  // new clients go below, the sort puts them in place
    table->setRowCount(int(shown.size()));

    const QLocale locale;
    for (int i : shown) {
        const ClientTotals& c = clients[i];
        const auto found = rowOf.constFind(c.client);
        const int r = found != rowOf.constEnd() ? *found : nextRow++;
        setText(cell(table, r, kCliClient, false), c.client);
        const qint64 counts[] = {c.fired, c.accepted, c.rejected, c.errors, c.waitedMsTotal};
        for (int k = 0; k < 5; ++k) {
            QTableWidgetItem* item = cell<NumberItem>(table, r, kCliFired + k, true);
            if (valueChanged(item, double(counts[k])))
                item->setText(locale.toString(counts[k]));
        }
        // No accepted request, no mean: sorts below every real mean.
        const double mean = c.accepted > 0 ? double(c.waitedMsTotal) / double(c.accepted) : -1;
        QTableWidgetItem* item = cell<NumberItem>(table, r, kCliMeanWait, true);
        if (valueChanged(item, mean))
            item->setText(mean < 0 ? kDash : locale.toString(mean, 'f', 1));
    }
    table->setSortingEnabled(true);
}

// ---- LatencyChart ----

constexpr int kReadableLabels = 10;

struct Bars {
    QStringList labels;
    QList<qreal> counts;
};

// The histogram's buckets from the first to the last non-empty one, merged into at most
// kMaxBars bars: one per bucket if few enough, otherwise log-spaced (each bar a whole number of
// buckets, so the bars' counts add up to the total exactly).
Bars latencyBars(const LatencyHistogram::Snapshot& latency) {
    Bars bars;
    int first = -1;
    int last = -1;
    for (int i = 0; i < LatencyHistogram::kBucketCount; ++i) {
        if (latency.counts[i]) {
            if (first < 0)
                first = i;
            last = i;
        }
    }
    if (first < 0)
        return bars;
    QVector<int> starts;  // each bar's first bucket
    if (last - first < kMaxBars) {
        for (int i = first; i <= last; ++i)
            starts.append(i);
    } else {
        const double lo = std::max<double>(double(LatencyHistogram::bucketLowest(first)), 1.0);
        const double hi = double(LatencyHistogram::bucketHighest(last)) + 1.0;
        starts.append(first);
        for (int k = 1; k < kMaxBars; ++k) {
            const double edge = lo * std::pow(hi / lo, double(k) / kMaxBars);
            const int index = LatencyHistogram::bucketIndex(std::int64_t(std::ceil(edge)));
            // Narrow bars at the low end can fall inside one bucket: they merge.
            if (index > starts.last() && index <= last)
                starts.append(index);
        }
    }
    // At most about 10 labels stay readable: the others are blank. A category axis needs
    // distinct names, so each blank is a different number of zero-width spaces.
    const int labelEvery =
        std::max(1, int((starts.size() + kReadableLabels - 1) / kReadableLabels));
    for (int b = 0; b < starts.size(); ++b) {
        const int end = b + 1 < starts.size() ? starts[b + 1] : last + 1;
        std::uint64_t sum = 0;
        for (int i = starts[b]; i < end; ++i)
            sum += latency.counts[i];
        bars.counts.append(qreal(sum));
        bars.labels.append(b % labelEvery == 0 ? barLabel(LatencyHistogram::bucketLowest(starts[b]))
                                               : QString(b + 1, QChar(0x200B)));
    }
    return bars;
}

// A round number at least `value`: the y axis keeps it while the counts grow into it, so it
// does not change on every update.
double niceCeiling(double value) {
    if (value <= 1)
        return 1;
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0}) {
        if (step * decade >= value)
            return step * decade;
    }
    return 10 * decade;
}

class LatencyPrivate : public PanelPrivate {
public:
    static QString name() { return QStringLiteral("ratelab-latency-private"); }

    explicit LatencyPrivate(LatencyChart* owner) : PanelPrivate(owner, name()) {}

    QComboBox* combo = nullptr;
    QChartView* view = nullptr;
    QBarSeries* series = nullptr;
    QBarSet* set = nullptr;
    QBarCategoryAxis* axisX = nullptr;
    QValueAxis* axisY = nullptr;
    RunSnapshot run;
    double yMax = -1;

    void render();
    void applyPalette();

protected:
    void paletteChanged() override { applyPalette(); }
};

void LatencyPrivate::render() {
    const int index = combo->currentIndex();
    const bool have = index >= 0 && index < run.limiters.size();
    const LatencyHistogram::Snapshot empty;
    const LatencyHistogram::Snapshot& latency = have ? run.limiters[index].latency : empty;
    QChart* chart = view->chart();

    const Bars bars = latencyBars(latency);
    if (set->count() != bars.counts.size()) {
        set->remove(0, set->count());
        set->append(bars.counts);
    } else {
        for (int i = 0; i < bars.counts.size(); ++i) {
            if (set->at(i) != bars.counts[i])
                set->replace(i, bars.counts[i]);
        }
    }
    if (axisX->categories() != bars.labels) {
        axisX->setCategories(bars.labels);
        axisX->setLabelsAngle(bars.labels.size() > 12 ? -90 : 0);
    }
    const double top = niceCeiling(
        bars.counts.isEmpty() ? 1 : *std::max_element(bars.counts.begin(), bars.counts.end()));
    if (top != yMax) {
        yMax = top;
        axisY->setRange(0, top);
        axisY->applyNiceNumbers();
    }

    QString title;
    if (latency.total == 0) {
        title = QStringLiteral("No latencies yet");
    } else {
        title = QStringLiteral(
                    "p50 %1 ms \u00b7 p90 %2 ms \u00b7 p99 %3 ms \u00b7 p99.9 %4 ms "
                    "\u00b7 max %5 ms")
                    .arg(formatMs(latency.percentile(50)), formatMs(latency.percentile(90)),
                         formatMs(latency.percentile(99)), formatMs(latency.percentile(99.9)),
                         formatMs(latency.max));
    }
    if (chart->title() != title)
        chart->setTitle(title);
}

void LatencyPrivate::applyPalette() {
    const QPalette palette = owner_->palette();
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(40);
    QChart* chart = view->chart();
    view->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setTitleBrush(text);
    for (QAbstractAxis* axis :
         {static_cast<QAbstractAxis*>(axisX), static_cast<QAbstractAxis*>(axisY)}) {
        axis->setLabelsBrush(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(palette.color(QPalette::Mid));
        axis->setGridLineColor(grid);
    }
    const QColor bar = palette.color(QPalette::Highlight);
    set->setColor(bar);
    set->setBorderColor(bar.darker(130));
}

}  // namespace

// ---- ComparisonTable ----

ComparisonTable::ComparisonTable(QWidget* parent) : QWidget(parent) {
    auto* d = new ComparisonPrivate(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    d->accounting = new QLabel(this);
    d->accounting->setObjectName(QStringLiteral("accounting"));
    d->accounting->setTextFormat(Qt::RichText);
    d->accounting->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(d->accounting);
    d->table = makeTable(
        this, QStringLiteral("comparison"),
        {QStringLiteral("Limiter"), QStringLiteral("Type"), QStringLiteral("Fired"),
         QStringLiteral("Accepted"), QStringLiteral("Rejected"), QStringLiteral("Errors"),
         QStringLiteral("Let through"), QStringLiteral("Refused"), QStringLiteral("Accepted %"),
         QStringLiteral("p50 ms"), QStringLiteral("p99 ms"), QStringLiteral("Fairness")});
    // The two policy columns are parts of Errors (on_error "open" / "closed").
    d->table->horizontalHeaderItem(kCmpErrorsOpen)
        ->setToolTip(QStringLiteral("Failed decisions let through by on_error \"open\" "
                                    "(part of Errors, not of Accepted)"));
    d->table->horizontalHeaderItem(kCmpErrorsClosed)
        ->setToolTip(QStringLiteral("Failed decisions refused by on_error \"closed\" "
                                    "(part of Errors, not of Rejected)"));
    // A few rows only: fitting the columns to their contents costs next to nothing.
    d->table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    d->table->horizontalHeader()->setStretchLastSection(false);
    layout->addWidget(d->table, 1);
}

void ComparisonTable::updateFrom(const RunSnapshot& run) {
    ComparisonPrivate* d = privateOf<ComparisonPrivate>(this);
    const int n = int(run.limiters.size());
    const QString id = runIdOf(run);
    if (id != d->runId) {
        d->runId = id;
        d->everBroken.fill(false, n);
    }

    const QLocale locale;
    d->lines.clear();
    d->red.clear();
    QTableWidget* table = d->table;
    if (table->rowCount() != n)
        table->setRowCount(n);
    for (int i = 0; i < n; ++i) {
        const LimiterSnapshot& s = run.limiters[i];

        const bool holds = s.fired == s.accepted + s.rejected + s.errors;
        if (!holds)
            d->everBroken[i] = true;
        QString line = QStringLiteral("%1: fired %2 %3 accepted %4 + rejected %5 + errors %6")
                           .arg(s.spec.name, count(s.fired),
                                holds ? QStringLiteral("=") : QStringLiteral("\u2260"),
                                count(s.accepted), count(s.rejected), count(s.errors));
        if (s.errorsOpen > 0 || s.errorsClosed > 0) {
            QStringList parts;
            if (s.errorsOpen > 0)
                parts << QStringLiteral("%1 let through").arg(count(s.errorsOpen));
            if (s.errorsClosed > 0)
                parts << QStringLiteral("%1 refused").arg(count(s.errorsClosed));
            line += QStringLiteral(" (errors %1 by on_error %2)")
                        .arg(parts.join(QStringLiteral(", ")), failurePolicyName(s.spec.onError));
        }
        if (holds && d->everBroken[i])
            line += QStringLiteral(" (did not hold earlier in this run)");
        d->lines.append(line);
        d->red.append(d->everBroken[i]);

        QString type = limiterTypeName(s.spec.type);
        if (s.spec.scope == Scope::PerClient)
            type += QStringLiteral(" (per_client)");
        const QString cells[] = {
            s.spec.name,
            type,
            count(s.fired),
            count(s.accepted),
            count(s.rejected),
            count(s.errors),
            count(s.errorsOpen),
            count(s.errorsClosed),
            s.fired > 0 ? locale.toString(100.0 * double(s.accepted) / double(s.fired), 'f', 1)
                        : kDash,
            s.latency.total ? formatMs(s.latency.percentile(50)) : kDash,
            s.latency.total ? formatMs(s.latency.percentile(99)) : kDash,
            locale.toString(s.fairness, 'f', 3),
        };
        for (int c = 0; c <= kCmpFairness; ++c)
            setText(cell(table, i, c, c >= kCmpFired), cells[c]);
    }
    d->plainText = d->lines.join(QLatin1Char('\n'));
    d->renderAccounting();
}

QString ComparisonTable::accountingText() const {
    return privateOf<ComparisonPrivate>(this)->plainText;
}

QStringList ComparisonTable::row(int limiter) const {
    return rowTexts(privateOf<ComparisonPrivate>(this)->table, limiter);
}

// ---- ClientTable ----

ClientTable::ClientTable(QWidget* parent) : QWidget(parent) {
    auto* d = new ClientPrivate(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    d->note = new QLabel(this);
    d->note->setObjectName(QStringLiteral("note"));
    d->note->hide();
    d->combo = addLimiterRow(this, layout, d->note);
    d->table =
        makeTable(this, QStringLiteral("clients"),
                  {QStringLiteral("Client"), QStringLiteral("Fired"), QStringLiteral("Accepted"),
                   QStringLiteral("Rejected"), QStringLiteral("Errors"),
                   QStringLiteral("Waited ms"), QStringLiteral("Mean wait ms")});
    d->table->setSortingEnabled(true);
    d->table->sortByColumn(kCliClient, Qt::AscendingOrder);
    layout->addWidget(d->table, 1);
    connect(d->combo, &QComboBox::currentIndexChanged, d, [d] {
        d->table->setRowCount(0);  // another limiter: nothing to reuse
        d->render();
    });
}

void ClientTable::updateFrom(const RunSnapshot& run) {
    ClientPrivate* d = privateOf<ClientPrivate>(this);
    d->run = run;
    syncLimiterCombo(d->combo, run);
    d->render();
}

int ClientTable::rowCount() const {
    return privateOf<ClientPrivate>(this)->table->rowCount();
}

QStringList ClientTable::row(int r) const {
    return rowTexts(privateOf<ClientPrivate>(this)->table, r);
}

// ---- LatencyChart ----

LatencyChart::LatencyChart(QWidget* parent) : QWidget(parent) {
    auto* d = new LatencyPrivate(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    d->combo = addLimiterRow(this, layout);
    d->view = new QChartView(this);  // creates and owns its chart
    d->view->setObjectName(QStringLiteral("latencyChart"));
    d->view->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(d->view, 1);

    QChart* chart = d->view->chart();
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setLocalizeNumbers(true);
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    d->series = new QBarSeries(chart);
    d->series->setBarWidth(0.9);
    d->set = new QBarSet(QStringLiteral("requests"), d->series);
    d->series->append(d->set);
    chart->addSeries(d->series);
    d->axisX = new QBarCategoryAxis(chart);
    d->axisX->setTitleText(QStringLiteral("latency, ms (bar start)"));
    d->axisX->setTruncateLabels(false);  // rotated labels would otherwise become "..."
    d->axisY = new QValueAxis(chart);
    d->axisY->setTitleText(QStringLiteral("requests"));
    d->axisY->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(d->axisX, Qt::AlignBottom);
    chart->addAxis(d->axisY, Qt::AlignLeft);
    d->series->attachAxis(d->axisX);
    d->series->attachAxis(d->axisY);
    d->applyPalette();
    d->render();

    connect(d->combo, &QComboBox::currentIndexChanged, d, [d] { d->render(); });
}

void LatencyChart::updateFrom(const RunSnapshot& run) {
    LatencyPrivate* d = privateOf<LatencyPrivate>(this);
    d->run = run;
    syncLimiterCombo(d->combo, run);
    d->render();
}

QString LatencyChart::titleText() const {
    return privateOf<LatencyPrivate>(this)->view->chart()->title();
}

int LatencyChart::barCount() const {
    return int(privateOf<LatencyPrivate>(this)->set->count());
}

}  // namespace ratelab
