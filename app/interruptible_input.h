#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QString>

namespace ratelab::cli {

// A file or stdin read the way a headless command needs it: a read that waits on a pipe or a
// terminal (`trace import -` with nothing coming yet) ends within 100 ms of SIGINT, SIGTERM or
// SIGHUP (interrupt.h), where a QFile retries the interrupted read and waits on. A line is
// handed out as soon as its newline has come (no wait for more). A read error or the interrupt
// ends the stream; failure() says which (empty at a clean end).
class InterruptibleInput : public QIODevice {
public:
    InterruptibleInput() = default;
    ~InterruptibleInput() override;

    // "-" is stdin. False, with failure() set to the system's reason, when it cannot be opened.
    bool openPath(const QString& path);
    bool isSequential() const override { return true; }
    const QString& failure() const { return failure_; }

protected:
    qint64 readData(char* data, qint64 maxSize) override;
    qint64 readLineData(char* data, qint64 maxSize) override;
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    // Reads what the file has next into buffer_, waiting for it: false at its end, on a read
    // error or on an interrupt (failure_ says which).
    bool fill();

    int fd_ = -1;
    bool ownsFd_ = false;
    QString failure_;
    QByteArray buffer_;
    qsizetype at_ = 0;  // the first byte of buffer_ not yet handed out
};

}  // namespace ratelab::cli
