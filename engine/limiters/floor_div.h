#pragma once

#include <QtGlobal>

namespace ratelab {

// floor(a / b) in integers (rounding towards minus infinity, b != 0): for instants before 1970
// (negative), calendar windows and chart buckets, and the scripts' exact arithmetic worked out
// on the engine's side.
inline qint64 floorDiv(qint64 a, qint64 b) {
    const qint64 q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace ratelab
