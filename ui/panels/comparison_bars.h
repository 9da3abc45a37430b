#pragma once

#include <QStringList>
#include <QVector>
#include <QWidget>
#include <utility>

namespace ratelab {

// One measure across the limiters as horizontal bars (the comparison tab's "accepted %" and
// "admitted burst"): its title, then per limiter its name, a bar to one scale and its value
// written after it, and optionally a reference drawn across the bar (the limit the burst is
// held to) so that a bar past it shows at a glance. Without bars, a note says why ("known when
// the run ends"). Painted in the widget's font and palette: presentation mode's larger fonts
// and a dark theme reach it as they reach the tables; the bars are the accepted colour.
class ComparisonBars : public QWidget {
    Q_OBJECT

public:
    struct Bar {
        QString name;
        double value = 0;
        QString text;           // written after the bar ("45.2 %")
        QString toolTip;        // on hover, with the name
        double reference = -1;  // drawn across the bar at this value; < 0: none
        // Stacked parts of the bar (each gateway's share), in order, each named inside it
        // where it fits; apart by a gap, so they read in grayscale too. Empty: one bar.
        QVector<double> parts;
        QStringList partNames;
    };

    explicit ComparisonBars(const QString& title, QWidget* parent = nullptr);

    // `scale`: the value a full bar stands for (0: the largest value or reference).
    void setBars(const QVector<Bar>& bars, double scale = 0);
    void setNote(const QString& note);  // shown under the title; empty hides it
    const QVector<Bar>& bars() const { return bars_; }
    QString note() const { return note_; }
    QString title() const { return title_; }
    // Where bar `i` is drawn (its full length at its value), its name and its value, and the x
    // of its reference (-1 for none); for tests.
    QRect barRect(int i) const;
    QRect nameRect(int i) const;
    QRect valueRect(int i) const;
    int referenceX(int i) const;
    // Part `part` of bar `i` (empty when it has no such part).
    QRect partRect(int i, int part) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Geometry {
        int top = 0;  // of the first row
        int rowHeight = 0;
        int nameWidth = 0;
        int barLeft = 0;
        int barSpan = 0;  // pixels of a full bar
    };
    Geometry geometry() const;
    std::pair<int, int> widest() const;
    double fullScale() const;
    int rowAt(const QPoint& pos) const;

    QString title_;
    QString note_;
    QVector<Bar> bars_;
    double scale_ = 0;
};

}  // namespace ratelab
