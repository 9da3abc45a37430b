#include "standard_output.h"

#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ratelab::cli {
namespace {

// The errno of the first write to stdout that failed: stdio keeps only a flag, and the errno
// of a failed printf or fflush is gone by the time the command checks.
std::atomic<int> firstError{0};

ssize_t writeToStdout(void*, const char* data, size_t size) {
    size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(STDOUT_FILENO, data + done, size - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            const int error = n < 0 ? errno : EIO;
            int none = 0;
            firstError.compare_exchange_strong(none, error);
            errno = error;
            return -1;
        }
        done += size_t(n);
    }
    return ssize_t(done);
}

int failure() {
    const int first = firstError.load();
    return first != 0 ? first : (errno != 0 ? errno : EIO);
}

}  // namespace

void installStdout() {
    static bool installed = false;
    if (installed) {
        return;
    }
    cookie_io_functions_t io{};
    io.write = writeToStdout;
    FILE* stream = fopencookie(nullptr, "w", io);
    if (stream == nullptr) {
        return;  // stdio's own stdout then: failures still seen, their reason perhaps not
    }
    std::fflush(stdout);
    // Buffered as stdio buffers stdout: by line on a terminal, in blocks otherwise.
    std::setvbuf(stream, nullptr, ::isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = stream;  // glibc: stdout is a variable a program may set
    installed = true;
}

void writeStdout(const QByteArray& bytes) {
    errno = 0;
    if (std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout) != size_t(bytes.size()) ||
        std::fflush(stdout) != 0) {
        throw StdoutFailed{failure(), QString()};
    }
}

int flushStdout() {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
        return failure();
    }
    return 0;
}

QString stdoutFailedText(const StdoutFailed& failed) {
    QString text = QStringLiteral("stdout: cannot write: %1")
                       .arg(QString::fromLocal8Bit(std::strerror(failed.error)));
    if (!failed.detail.isEmpty()) {
        text += QStringLiteral("; ") + failed.detail;
    }
    return text;
}

}  // namespace ratelab::cli
