#pragma once

#include <QtGlobal>

namespace ratelab {

// splitmix64's finaliser: a well-mixed 64-bit hash, so (seed, k) pairs give independent draws.
inline quint64 seedMix(quint64 x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace ratelab
