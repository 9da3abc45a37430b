#include "charts/timeline_label_rows.h"

#include <algorithm>

#include "charts/timeline_model.h"
#include "charts/timeline_readout.h"

namespace ratelab {
namespace {

constexpr double kTopGap = 3;  // between the plot's top and the first row
constexpr double kRowGap = 2;  // between rows

}  // namespace

TimelineLabelRows::Content TimelineLabelRows::of(const TimelineModel& model,
                                                 const TimelineDrawing& drawing, double viewMin,
                                                 double viewMax) {
    Content content;
    content.counts = !drawing.bands.isEmpty();
    content.spans = int(drawing.spans.size());
    const std::optional<TimelineModel::Burst> burst = model.burst();
    content.burst =
        burst && !burst->label.isEmpty() && burst->x1 >= viewMin && burst->x0 <= viewMax;
    content.markers = int(std::count_if(
        model.markers().cbegin(), model.markers().cend(),
        [&](const TimelineModel::Marker& m) { return m.x >= viewMin && m.x <= viewMax; }));
    return content;
}

TimelineLabelRows::TimelineLabelRows(const QRectF& plot, double labelHeight, const Content& content)
    : pitch(labelHeight + kRowGap) {
    const double first = plot.top() + kTopGap;
    spansTop = first;
    // Counts and spans share the first rows: a limiter has one or the other.
    const int windowRows = std::max(content.counts ? 1 : 0, content.spans);
    burstTop = first + windowRows * pitch;
    markersTop = burstTop + (content.burst ? pitch : 0);
    const double room = plot.top() + kMaxShare * plot.height();
    markerRows = std::min(content.markers, kMaxMarkerRows);
    while (markerRows > 1 && markersTop + markerRows * pitch > room)
        --markerRows;
    const int rows = windowRows + (content.burst ? 1 : 0) + markerRows;
    bottom = rows > 0 ? markersTop + markerRows * pitch : plot.top();
}

double TimelineLabelRows::axisTop(const QRectF& plot, double barsTop) const {
    const double height = plot.height();
    const double taken = bottom - plot.top();
    if (height <= 0 || taken <= 0)
        return barsTop * 1.1;
    // The bars may fill what the rows leave, but never less than a third of the plot.
    const double left = std::max(height - taken, height / 3);
    return barsTop * std::max(1.1, height / left);
}

}  // namespace ratelab
