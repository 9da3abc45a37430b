#include "interruptible_input.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <QFile>
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "interrupt.h"

namespace ratelab::cli {
namespace {

constexpr qsizetype kChunkBytes = 64 * 1024;

}  // namespace

InterruptibleInput::~InterruptibleInput() {
    if (ownsFd_ && fd_ >= 0) {
        ::close(fd_);
    }
}

bool InterruptibleInput::openPath(const QString& path) {
    if (path == QLatin1String("-")) {
        fd_ = STDIN_FILENO;
    } else {
        fd_ = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
        ownsFd_ = fd_ >= 0;
    }
    if (fd_ < 0) {
        failure_ = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    // Unbuffered: QIODevice's own buffer would ask for more than a line and wait for it.
    return open(QIODevice::ReadOnly | QIODevice::Unbuffered);
}

bool InterruptibleInput::fill() {
    buffer_.resize(kChunkBytes);
    at_ = 0;
    for (;;) {
        if (interrupted()) {
            failure_ = QStringLiteral("interrupted by %1").arg(interruptName());
            break;
        }
        pollfd ready{fd_, POLLIN, 0};
        const int polled = ::poll(&ready, 1, 100);
        if (polled == 0 || (polled < 0 && errno == EINTR)) {
            continue;
        }
        const ssize_t n = ::read(fd_, buffer_.data(), size_t(buffer_.size()));
        if (n > 0) {
            buffer_.resize(n);
            return true;
        }
        if (n == 0) {
            break;  // the end
        }
        if (errno != EINTR && errno != EAGAIN) {
            failure_ = QString::fromLocal8Bit(std::strerror(errno));
            break;
        }
    }
    buffer_.clear();
    return false;
}

qint64 InterruptibleInput::readData(char* data, qint64 maxSize) {
    if (at_ == buffer_.size() && (!failure_.isEmpty() || !fill())) {
        return failure_.isEmpty() ? 0 : -1;
    }
    const qsizetype take = std::min<qsizetype>(buffer_.size() - at_, qsizetype(maxSize));
    std::memcpy(data, buffer_.constData() + at_, size_t(take));
    at_ += take;
    return take;
}

qint64 InterruptibleInput::readLineData(char* data, qint64 maxSize) {
    qint64 done = 0;
    while (done < maxSize) {
        if (at_ == buffer_.size() && (!failure_.isEmpty() || !fill())) {
            break;
        }
        const char* from = buffer_.constData() + at_;
        qsizetype take = std::min<qsizetype>(buffer_.size() - at_, qsizetype(maxSize - done));
        const void* newline = std::memchr(from, '\n', size_t(take));
        if (newline != nullptr) {
            take = static_cast<const char*>(newline) - from + 1;
        }
        std::memcpy(data + done, from, size_t(take));
        done += take;
        at_ += take;
        if (newline != nullptr) {
            break;
        }
    }
    return done > 0 ? done : -1;
}

}  // namespace ratelab::cli
