#include "panels/comparison_bars.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "style/palette_colors.h"
#include "style/series_style.h"

namespace ratelab {

ComparisonBars::ComparisonBars(const QString& title, QWidget* parent)
    : QWidget(parent), title_(title) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void ComparisonBars::setBars(const QVector<Bar>& bars, double scale) {
    bars_ = bars;
    scale_ = scale;
    updateGeometry();  // the names and values decide the width it needs
    update();
}

void ComparisonBars::setNote(const QString& note) {
    if (note == note_)
        return;
    const bool resized = note.isEmpty() != note_.isEmpty();
    note_ = note;
    if (resized)
        updateGeometry();
    update();
}

// Title, the note's line, a row per bar (at least one, so the widget keeps its height).
QSize ComparisonBars::sizeHint() const {
    const QFontMetrics metrics = fontMetrics();
    const int rows = std::max<int>(int(bars_.size()), 1);
    const int height = metrics.height() * 2 + (note_.isEmpty() ? 0 : metrics.height()) +
                       rows * int(metrics.height() * 1.6) + 4;
    return {metrics.horizontalAdvance(QLatin1Char('x')) * 40, height};
}

// The widest name and the widest value, in pixels.
std::pair<int, int> ComparisonBars::widest() const {
    const QFontMetrics metrics = fontMetrics();
    int names = 0;
    int texts = 0;
    for (const Bar& bar : bars_) {
        names = std::max(names, metrics.horizontalAdvance(bar.name));
        texts = std::max(texts, metrics.horizontalAdvance(bar.text));
    }
    return {names, texts};
}

// The title whole, or a name, a short bar and the value, whichever is wider.
QSize ComparisonBars::minimumSizeHint() const {
    const QFontMetrics metrics = fontMetrics();
    QFont bold = font();
    bold.setBold(true);
    const auto [names, texts] = widest();
    const int x = metrics.horizontalAdvance(QLatin1Char('x'));
    const int row = names + texts + 12 * x;
    return {std::max(QFontMetrics(bold).horizontalAdvance(title_) + x, row), sizeHint().height()};
}

ComparisonBars::Geometry ComparisonBars::geometry() const {
    const QFontMetrics metrics = fontMetrics();
    Geometry g;
    g.top = int(metrics.height() * 1.5) + (note_.isEmpty() ? 0 : metrics.height());
    g.rowHeight = int(metrics.height() * 1.6);
    const auto [names, texts] = widest();
    // A long name gives up room (elided, whole in the tooltip) before the bars do.
    const int gap = metrics.horizontalAdvance(QLatin1Char('x'));
    g.nameWidth = std::min(names + gap / 2, width() * 2 / 5);
    g.barLeft = g.nameWidth + gap;
    g.barSpan = std::max(gap, width() - g.barLeft - texts - 2 * gap);
    return g;
}

QRect ComparisonBars::barRect(int i) const {
    if (i < 0 || i >= bars_.size())
        return {};
    const Geometry g = geometry();
    const double scale = fullScale();
    const double share = scale > 0 ? std::clamp(bars_[i].value / scale, 0.0, 1.0) : 0.0;
    const int y = g.top + i * g.rowHeight;
    return {g.barLeft, y + g.rowHeight / 6, int(share * g.barSpan + 0.5), g.rowHeight * 2 / 3};
}

QRect ComparisonBars::partRect(int i, int part) const {
    const QRect bar = barRect(i);
    if (bar.isEmpty() || part < 0 || part >= bars_[i].parts.size())
        return {};
    double before = 0;
    for (int p = 0; p < part; ++p)
        before += bars_[i].parts[p];
    const double total = bars_[i].value > 0 ? bars_[i].value : 1;
    const int x0 = bar.left() + int(before / total * bar.width() + 0.5);
    const int x1 = bar.left() + int((before + bars_[i].parts[part]) / total * bar.width() + 0.5);
    // A gap of 2 px after every part but the last keeps the parts apart.
    const int gap = part + 1 < bars_[i].parts.size() ? 2 : 0;
    return {x0, bar.top(), std::max(0, x1 - x0 - gap), bar.height()};
}

// The value a full bar stands for: the scale given, else the largest value or reference.
double ComparisonBars::fullScale() const {
    double scale = scale_;
    if (scale <= 0) {
        for (const Bar& bar : bars_)
            scale = std::max({scale, bar.value, bar.reference});
    }
    return scale;
}

int ComparisonBars::referenceX(int i) const {
    if (i < 0 || i >= bars_.size() || bars_[i].reference < 0)
        return -1;
    const double scale = fullScale();
    if (scale <= 0)
        return -1;
    const Geometry g = geometry();
    return g.barLeft + int(std::clamp(bars_[i].reference / scale, 0.0, 1.0) * g.barSpan);
}

// After the bar, or after the reference when that lies beyond the bar (not crossed by it).
QRect ComparisonBars::valueRect(int i) const {
    const QRect name = nameRect(i);
    const int end = std::max(barRect(i).right(), referenceX(i));
    const int left = end + fontMetrics().horizontalAdvance(QLatin1Char(' '));
    return {left, name.top(), std::max(0, width() - left), name.height()};
}

QRect ComparisonBars::nameRect(int i) const {
    const Geometry g = geometry();
    return {0, g.top + i * g.rowHeight, g.nameWidth, g.rowHeight};
}

int ComparisonBars::rowAt(const QPoint& pos) const {
    const Geometry g = geometry();
    if (pos.y() < g.top || g.rowHeight <= 0)
        return -1;
    const int row = (pos.y() - g.top) / g.rowHeight;
    return row < bars_.size() ? row : -1;
}

void ComparisonBars::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QPalette pal = palette();
    const QFontMetrics metrics = fontMetrics();
    const style::SeriesColors colors = style::seriesColors(style::isDark(pal));
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(pal.color(QPalette::WindowText));
    painter.drawText(QRect(0, 0, width(), metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     title_);
    painter.setFont(font());
    if (!note_.isEmpty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(QRect(0, metrics.height(), width(), metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(note_, Qt::ElideRight, width()));
    }
    for (int i = 0; i < bars_.size(); ++i) {
        const Bar& bar = bars_[i];
        const QRect name = nameRect(i);
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(name, Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(bar.name, Qt::ElideRight, name.width()));
        if (bar.parts.isEmpty())
            painter.fillRect(barRect(i), colors.accepted);
        for (int part = 0; part < bar.parts.size(); ++part) {
            const QRect r = partRect(i, part);
            painter.fillRect(r, colors.accepted);
            const QString partName = bar.partNames.value(part);
            if (metrics.horizontalAdvance(partName) + 4 <= r.width()) {
                painter.setPen(pal.color(QPalette::Base));  // against the bar's colour
                painter.drawText(r, Qt::AlignCenter, partName);
            }
        }
        const int x = referenceX(i);
        if (x >= 0) {
            painter.setPen(style::seriesPen(colors.limit, 2.0, Qt::DashLine));
            painter.drawLine(x, name.top() + 1, x, name.bottom() - 1);
            painter.setPen(pal.color(QPalette::WindowText));
        }
        painter.drawText(valueRect(i), Qt::AlignLeft | Qt::AlignVCenter, bar.text);
    }
}

bool ComparisonBars::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
        } else {
            const Bar& bar = bars_[row];
            QToolTip::showText(
                help->globalPos(),
                QStringLiteral("<b>%1</b><br>%2").arg(bar.name.toHtmlEscaped(), bar.toolTip), this);
        }
        return true;
    }
    if (event->type() == QEvent::FontChange)
        updateGeometry();
    return QWidget::event(event);
}

}  // namespace ratelab
