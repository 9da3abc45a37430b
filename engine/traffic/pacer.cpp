#include "traffic/pacer.h"

#include <QRandomGenerator>
#include <algorithm>
#include <cmath>

namespace ratelab {
namespace {

constexpr double kUsPerS = 1e6;
constexpr double kTwoPi = 6.283185307179586;

// A spec's seconds in whole microseconds (digits below the µs carry no meaning).
qint64 toUs(double seconds) {
    return std::llround(seconds * kUsPerS);
}

// floor(k * 1e6 / rate) µs: the k-th send of a constant rate, straight from k so that no
// rounding accumulates. Whole rates are exact in integers; others use long double, which keeps
// k * 1e6 exact far beyond a day at 1e6 requests/s.
qint64 constantOffsetUs(qint64 k, double rate) {
    constexpr qint64 kMaxExactK = std::numeric_limits<qint64>::max() / 1000000;
    if (rate == std::floor(rate) && rate <= 1e12 && k <= kMaxExactK) {
        return k * 1000000 / static_cast<qint64>(rate);
    }
    const long double us = std::floor(static_cast<long double>(k) * 1e6L / rate);
    return us >= static_cast<long double>(Pacer::kNoMore) ? Pacer::kNoMore
                                                          : static_cast<qint64>(us);
}

// Cumulative sends N of the linear ramp at `us` µs into a run of durationUs, written as
// us * (the mean rate over [0, us]) / 1e6 rather than via t = us / 1e6, which is rarely exact:
// whole rates at whole µs then evaluate exactly, so a send due exactly on a µs lands on it (and
// from == to gives the constant shape's times).
double linearCumulative(double from, double to, double durationUs, double us) {
    return us * (from + (to - from) * us / (2 * durationUs)) / kUsPerS;
}

// The sine shape in µs, with its parameters made safe to evaluate (no period: no swing).
struct Sine {
    double mean;
    double amplitude;
    double period;    // s
    double periodUs;  // µs

    explicit Sine(const ShapeSpec& shape)
        : mean(shape.mean),
          amplitude(shape.periodS > 0 ? shape.amplitude : 0),
          period(shape.periodS > 0 ? shape.periodS : 1),
          periodUs(period * kUsPerS) {}

    // Requests/s at `us`: the derivative of cumulative() (per second).
    double rate(double us) const { return mean + amplitude * std::sin(kTwoPi * us / periodUs); }
    // N at `us`; the mean term as mean * us / 1e6 for the same reason as linearCumulative().
    double cumulative(double us) const {
        return mean * us / kUsPerS +
               amplitude * period / kTwoPi * (1 - std::cos(kTwoPi * us / periodUs));
    }
};

class ConstantPacer final : public Pacer {
public:
    ConstantPacer(double rate, qint64 durationUs) : rate_(rate), durationUs_(durationUs) {}

    qint64 next() override {
        if (rate_ <= 0) {
            return kNoMore;
        }
        const qint64 at = constantOffsetUs(k_, rate_);
        if (at >= durationUs_) {
            return kNoMore;  // k_ stays put, so every later call ends here too
        }
        ++k_;
        return at;
    }
    std::unique_ptr<Pacer> clone() const override {
        return std::make_unique<ConstantPacer>(rate_, durationUs_);
    }
    double targetRate(qint64) const override { return rate_; }

private:
    double rate_;
    qint64 durationUs_;
    qint64 k_ = 0;
};

class PoissonPacer final : public Pacer {
public:
    PoissonPacer(double rate, qint64 durationUs, const QRandomGenerator& seeded)
        : rate_(rate), durationUs_(durationUs), seeded_(seeded), generator_(seeded) {}

    qint64 next() override {
        if (rate_ <= 0 || timeUs_ >= durationUs_) {
            return kNoMore;
        }
        // Exponential gap by inversion; 1 - u lies in (0, 1], so the log is finite.
        timeUs_ += -std::log(1 - generator_.generateDouble()) * (kUsPerS / rate_);
        // durationUs_ is whole, so floor(t) < durationUs_ exactly when t < durationUs_.
        return timeUs_ < durationUs_ ? static_cast<qint64>(std::floor(timeUs_)) : kNoMore;
    }
    std::unique_ptr<Pacer> clone() const override {
        return std::make_unique<PoissonPacer>(rate_, durationUs_, seeded_);
    }
    double targetRate(qint64) const override { return rate_; }

private:
    double rate_;
    qint64 durationUs_;
    QRandomGenerator seeded_;  // the state at the start, for clone()
    QRandomGenerator generator_;
    double timeUs_ = 0;  // fractional µs kept so that flooring does not bias the gaps
};

// Shapes given by a non-decreasing cumulative count N: the k-th send is at the microsecond T
// with N(T) <= k < N(T + 1), and there are sends while k < N(duration). solve() gives the
// fractional time of N = k (closed form or root finding); the result is then snapped by
// evaluating N at whole microseconds, so it is exact to the µs for N as computed in double,
// whatever the solver's last-bit error.
class CumulativePacer : public Pacer {
public:
    explicit CumulativePacer(qint64 durationUs) : durationUs_(durationUs) {}

    qint64 next() override {
        const double k = static_cast<double>(k_);
        if (!(k < cumulative(static_cast<double>(durationUs_)))) {  // also stops on NaN
            return kNoMore;
        }
        const double t = k > 0 ? solve(k) : 0;
        qint64 us = std::max(lastUs_, static_cast<qint64>(std::floor(t)));
        while (us < durationUs_ && cumulative(static_cast<double>(us + 1)) <= k) {
            ++us;
        }
        while (us > lastUs_ && cumulative(static_cast<double>(us)) > k) {
            --us;
        }
        if (us >= durationUs_) {
            return kNoMore;
        }
        ++k_;
        lastUs_ = us;
        return us;
    }

protected:
    // N at `us` µs into the run.
    virtual double cumulative(double us) const = 0;
    // The time in µs where N = k, for 0 < k < N(duration).
    virtual double solve(double k) = 0;

    qint64 durationUs_;

private:
    qint64 k_ = 0;
    qint64 lastUs_ = 0;
};

class LinearPacer final : public CumulativePacer {
public:
    LinearPacer(double from, double to, qint64 durationUs)
        : CumulativePacer(durationUs), from_(from), to_(to) {}

    std::unique_ptr<Pacer> clone() const override {
        return std::make_unique<LinearPacer>(from_, to_, durationUs_);
    }
    double targetRate(qint64 atUs) const override {
        if (durationUs_ <= 0) {
            return from_;
        }
        const qint64 t = std::clamp<qint64>(atUs, 0, durationUs_);
        return from_ + (to_ - from_) * static_cast<double>(t) / static_cast<double>(durationUs_);
    }

protected:
    double cumulative(double us) const override {
        return linearCumulative(from_, to_, static_cast<double>(durationUs_), us);
    }
    double solve(double k) override {
        // In seconds, N(t) = from t + b t^2. Its root in the form 2k / (from + sqrt(from^2 +
        // 4bk)) has no cancellation when b is tiny, and b = 0 (from == to) gives k / from. The
        // discriminant is >= 0 for k < N(duration); the clamp only absorbs rounding.
        const double b = (to_ - from_) / (2 * (durationUs_ / kUsPerS));
        const double root = std::sqrt(std::max(0.0, from_ * from_ + 4 * b * k));
        return 2 * k / (from_ + root) * kUsPerS;
    }

private:
    double from_;
    double to_;
};

class SinePacer final : public CumulativePacer {
public:
    SinePacer(const ShapeSpec& shape, qint64 durationUs)
        : CumulativePacer(durationUs), shape_(shape), sine_(shape) {}

    std::unique_ptr<Pacer> clone() const override {
        return std::make_unique<SinePacer>(shape_, durationUs_);
    }
    double targetRate(qint64 atUs) const override { return sine_.rate(static_cast<double>(atUs)); }

protected:
    double cumulative(double us) const override { return sine_.cumulative(us); }
    double solve(double k) override {
        // The cosine term lies in [0, amplitude * period / pi], so mean t <= N(t) <= mean t +
        // that: a bracket around the root, narrowed further by the previous root (N never
        // decreases). Newton steps, falling back to bisection when a step leaves the bracket
        // (the rate can touch 0 when amplitude == mean).
        constexpr double kToleranceUs = 1e-4;
        const double swing = sine_.amplitude * sine_.period / (kTwoPi / 2);
        const double perUs = sine_.mean / kUsPerS;  // mean sends per µs
        double lo = std::max({0.0, lastRootUs_, (k - swing) / perUs});
        double hi = std::max(lo, std::min(static_cast<double>(durationUs_), k / perUs));
        double t = lo;
        const double lastSlope = sine_.rate(lastRootUs_) / kUsPerS;
        if (lastSlope > 0) {
            t = std::clamp(lastRootUs_ + (k - sine_.cumulative(lastRootUs_)) / lastSlope, lo, hi);
        }
        for (int i = 0; i < 200 && hi - lo > kToleranceUs; ++i) {
            const double f = sine_.cumulative(t) - k;
            if (f == 0) {
                break;
            }
            (f > 0 ? hi : lo) = t;
            const double slope = sine_.rate(t) / kUsPerS;
            double nextT = slope > 0 ? t - f / slope : lo;
            if (!(nextT > lo && nextT < hi)) {
                nextT = (lo + hi) / 2;
            }
            const bool converged = std::abs(nextT - t) < kToleranceUs;
            t = nextT;
            if (converged) {
                break;
            }
        }
        lastRootUs_ = t;
        return t;
    }

private:
    ShapeSpec shape_;
    Sine sine_;
    double lastRootUs_ = 0;  // the previous solve()
};

// A constant steady rate merged in time order with `burst` sends at every j * everyUs.
class BurstPacer final : public Pacer {
public:
    BurstPacer(double rate, int burst, qint64 everyUs, qint64 durationUs)
        : rate_(rate), burst_(burst), everyUs_(everyUs), durationUs_(durationUs) {}

    qint64 next() override {
        const qint64 steady = rate_ > 0 ? constantOffsetUs(steadyK_, rate_) : kNoMore;
        const qint64 burstAt = burst_ > 0 ? burstJ_ * everyUs_ : kNoMore;
        if (std::min(steady, burstAt) >= durationUs_) {
            return kNoMore;
        }
        if (steady <= burstAt) {
            ++steadyK_;
            return steady;
        }
        if (++burstSent_ == burst_) {
            burstSent_ = 0;
            ++burstJ_;
        }
        return burstAt;
    }
    std::unique_ptr<Pacer> clone() const override {
        return std::make_unique<BurstPacer>(rate_, burst_, everyUs_, durationUs_);
    }
    double targetRate(qint64) const override { return rate_ + burst_ * kUsPerS / everyUs_; }

private:
    double rate_;
    int burst_;
    qint64 everyUs_;
    qint64 durationUs_;
    qint64 steadyK_ = 0;  // next steady send
    qint64 burstJ_ = 0;   // current burst instant
    int burstSent_ = 0;   // sends of it done
};

struct StageUs {
    double rate;
    qint64 startUs;
    qint64 endUs;
};

QVector<StageUs> stagesInUs(const QVector<ShapeSpec::Stage>& stages) {
    QVector<StageUs> out;
    qint64 start = 0;
    for (const ShapeSpec::Stage& stage : stages) {
        // Whole µs per stage, summed in integers: no drift across many short stages.
        const qint64 end = start + std::max<qint64>(0, toUs(stage.durationS));
        out.append({stage.rate, start, end});
        start = end;
    }
    return out;
}

class StepPacer final : public Pacer {
public:
    StepPacer(const QVector<StageUs>& stages, qint64 durationUs)
        : stages_(stages), durationUs_(durationUs) {}

    qint64 next() override {
        while (stage_ < stages_.size()) {
            const StageUs& stage = stages_[stage_];
            const qint64 endUs = std::min(stage.endUs, durationUs_);
            if (stage.rate > 0 && stage.startUs < endUs) {
                const qint64 offset = constantOffsetUs(k_, stage.rate);
                if (offset < endUs - stage.startUs) {
                    ++k_;
                    return stage.startUs + offset;
                }
            }
            ++stage_;  // a pause, or this stage is done
            k_ = 0;
        }
        return kNoMore;
    }
    std::unique_ptr<Pacer> clone() const override {
        return std::make_unique<StepPacer>(stages_, durationUs_);
    }
    double targetRate(qint64 atUs) const override {
        for (const StageUs& stage : stages_) {
            if (atUs < stage.endUs) {
                return stage.rate;
            }
        }
        return 0;
    }

private:
    QVector<StageUs> stages_;
    qint64 durationUs_;
    qsizetype stage_ = 0;
    qint64 k_ = 0;  // next send within the stage
};

// Rows with offset * 1000 < durationUs, compared without overflowing offset * 1000.
qsizetype replayRowsBefore(const QVector<qint64>& offsetsMs, qint64 durationUs) {
    if (durationUs <= 0) {
        return 0;
    }
    const qint64 lastMs = (durationUs - 1) / 1000;
    return std::count_if(offsetsMs.begin(), offsetsMs.end(),
                         [lastMs](qint64 ms) { return ms <= lastMs; });
}

class ReplayPacer final : public Pacer {
public:
    ReplayPacer(const QVector<qint64>& offsetsMs, qint64 durationUs)
        : offsetsMs_(offsetsMs),
          durationUs_(durationUs),
          averageRate_(
              durationUs > 0 ? replayRowsBefore(offsetsMs, durationUs) * kUsPerS / durationUs : 0) {
    }

    qint64 next() override {
        // Offsets never decrease, so the first one at or after the end stops the run.
        if (index_ >= offsetsMs_.size() || durationUs_ <= 0 ||
            offsetsMs_[index_] > (durationUs_ - 1) / 1000) {
            return kNoMore;
        }
        return offsetsMs_[index_++] * 1000;
    }
    std::unique_ptr<Pacer> clone() const override {
        return std::make_unique<ReplayPacer>(offsetsMs_, durationUs_);
    }
    double targetRate(qint64) const override { return averageRate_; }

private:
    QVector<qint64> offsetsMs_;
    qint64 durationUs_;
    double averageRate_;
    qsizetype index_ = 0;
};

}  // namespace

std::unique_ptr<Pacer> makePacer(const ShapeSpec& shape, qint64 durationUs, quint64 seed) {
    switch (shape.type) {
        case ShapeSpec::Type::Constant:
            return std::make_unique<ConstantPacer>(shape.rate, durationUs);
        case ShapeSpec::Type::Poisson: {
            const quint32 words[2] = {static_cast<quint32>(seed), static_cast<quint32>(seed >> 32)};
            return std::make_unique<PoissonPacer>(shape.rate, durationUs,
                                                  QRandomGenerator(words, 2));
        }
        case ShapeSpec::Type::Linear:
            return std::make_unique<LinearPacer>(shape.from, shape.to, durationUs);
        case ShapeSpec::Type::Sine:
            return std::make_unique<SinePacer>(shape, durationUs);
        case ShapeSpec::Type::Burst:
            return std::make_unique<BurstPacer>(
                shape.rate, shape.burst, std::max<qint64>(1, toUs(shape.everyS)), durationUs);
        case ShapeSpec::Type::Step:
            return std::make_unique<StepPacer>(stagesInUs(shape.stages), durationUs);
        case ShapeSpec::Type::Replay:
            return std::make_unique<ReplayPacer>(shape.replayOffsetsMs, durationUs);
    }
    return nullptr;  // not reached: every type is handled above
}

double expectedSends(const ShapeSpec& shape, qint64 durationUs) {
    if (durationUs <= 0) {
        return 0;
    }
    const double durationS = durationUs / kUsPerS;
    switch (shape.type) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            return std::max(0.0, shape.rate) * durationS;
        case ShapeSpec::Type::Linear:
            return (shape.from + shape.to) / 2 * durationS;
        case ShapeSpec::Type::Sine:
            return Sine(shape).cumulative(static_cast<double>(durationUs));
        case ShapeSpec::Type::Burst: {
            const qint64 everyUs = std::max<qint64>(1, toUs(shape.everyS));
            const qint64 instants = (durationUs + everyUs - 1) / everyUs;  // j * every < D
            return std::max(0.0, shape.rate) * durationS +
                   static_cast<double>(instants) * std::max(0, shape.burst);
        }
        case ShapeSpec::Type::Step: {
            double sends = 0;
            for (const StageUs& stage : stagesInUs(shape.stages)) {
                const qint64 lengthUs = std::min(stage.endUs, durationUs) - stage.startUs;
                if (lengthUs > 0 && stage.rate > 0) {
                    sends += stage.rate * lengthUs / kUsPerS;
                }
            }
            return sends;
        }
        case ShapeSpec::Type::Replay:
            return static_cast<double>(replayRowsBefore(shape.replayOffsetsMs, durationUs));
    }
    return 0;  // not reached
}

qint64 busiestSecond(const QVector<qint64>& offsetsMs, qint64* startMs) {
    return busiestSecondOf(
        offsetsMs.size(), [&](qsizetype i) { return offsetsMs[i]; }, startMs);
}

double peakRate(const ShapeSpec& shape) {
    switch (shape.type) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            return shape.rate;
        case ShapeSpec::Type::Linear:
            return std::max(shape.from, shape.to);
        case ShapeSpec::Type::Sine:
            return shape.mean + shape.amplitude;
        case ShapeSpec::Type::Burst: {
            const qint64 everyUs = std::max<qint64>(1, toUs(shape.everyS));
            return shape.rate + shape.burst * kUsPerS / static_cast<double>(everyUs);
        }
        case ShapeSpec::Type::Step: {
            double peak = 0;
            for (const ShapeSpec::Stage& stage : shape.stages) {
                peak = std::max(peak, stage.rate);
            }
            return peak;
        }
        case ShapeSpec::Type::Replay:
            return static_cast<double>(busiestSecond(shape.replayOffsetsMs));
    }
    return 0;  // not reached
}

}  // namespace ratelab
