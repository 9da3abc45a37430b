#pragma once

#include <QString>

namespace ratelab {

// A memory size as people write it: "4GiB", "512 MiB", "1.5G", "1073741824" (bytes). K, M, G
// and T and their KiB... forms are powers of 1024; KB, MB, GB and TB powers of 1000. From 1 MiB
// to 1 PiB; anything else is an InputError at `where`.
qint64 parseMemorySize(const QString& text, const QString& where);
// "1 GiB", "9.5 GiB", "610 MiB", "12 KiB", "300 bytes".
QString formatBytes(qint64 bytes);

}  // namespace ratelab
